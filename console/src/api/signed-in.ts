/** The API client for the key the console is signed in with, and API failures in words. */
import { apiClient } from './client.js';
import { savedKey } from '../session.js';

export function signedInClient() {
  return apiClient(savedKey({ session: sessionStorage, local: localStorage }) ?? '');
}

/** What an error answer says, for a person: its message, and the fields it names. */
export function problemText(status: number, error: unknown): string {
  if (status === 401) return 'The key is no longer accepted; sign out and sign in with a valid key.';
  const body = (error ?? {}) as { message?: unknown; errors?: Array<{ path: string; message: string }> };
  const message = typeof body.message === 'string' ? body.message : `The server answered ${status}.`;
  const fields = Array.isArray(body.errors) ? body.errors.map((e) => `${e.path}: ${e.message}`) : [];
  return fields.length ? `${message}: ${fields.join('; ')}` : message;
}

export const UNREACHABLE = 'The server cannot be reached. Check your connection and try again.';
