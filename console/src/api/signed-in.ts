/** The API client for the key or the session the console is signed in with, and API failures in words. */
import { apiClient } from './client.js';
import { noticeSessionAnswer } from './session-ended.js';
import { savedKey } from '../session.js';

export function signedInClient() {
  const key = savedKey({ session: sessionStorage, local: localStorage });
  const client = apiClient(key);
  // A person's session: an answer saying it has ended sends the console back to sign-in.
  if (!key) {
    client.use({
      async onResponse({ response }) {
        if (response.status !== 401) return;
        const body = (await response
          .clone()
          .json()
          .catch(() => ({}))) as { code?: unknown };
        noticeSessionAnswer(response.status, body.code);
      },
    });
  }
  return client;
}

/** What an error answer says, for a person: its message, and the fields it names. */
export function problemText(status: number, error: unknown): string {
  const body = (error ?? {}) as { code?: unknown; message?: unknown; errors?: Array<{ path: string; message: string }> };
  if (status === 401 && (body.code === undefined || body.code === 'unauthorized')) {
    return 'The key is no longer accepted; sign out and sign in with a valid key.';
  }
  const message = typeof body.message === 'string' ? body.message : `The server answered ${status}.`;
  const fields = Array.isArray(body.errors) ? body.errors.map((e) => `${e.path}: ${e.message}`) : [];
  return fields.length ? `${message}: ${fields.join('; ')}` : message;
}

export const UNREACHABLE = 'The server cannot be reached. Check your connection and try again.';
