/** The console's only way to the API: openapi-fetch typed by the generated schema (schema.d.ts). */
import createClient from 'openapi-fetch';
import type { paths } from './schema.js';

export type Me = paths['/api/v1/me']['get']['responses'][200]['content']['application/json'];

export type MeResult = { ok: true; me: Me } | { ok: false; message: string };

/**
 * A client that sends `key` as the Authorization header, or, with none, nothing: the browser then
 * sends the session cookie (HttpOnly, same origin), which the console never sees.
 */
export function apiClient(key: string | null) {
  return createClient<paths>({ baseUrl: '/', headers: key ? { Authorization: `Basic ${key}` } : {} });
}

/** Who the key is, or why it cannot be used, in words for the sign-in field. */
export async function fetchMe(key: string): Promise<MeResult> {
  try {
    const { data, error, response } = await apiClient(key).GET('/api/v1/me');
    if (data) return { ok: true, me: data };
    return { ok: false, message: signInFailure(response.status, error?.message) };
  } catch {
    return { ok: false, message: 'The server cannot be reached. Check that qrlinks is running and try again.' };
  }
}

/** The person the browser's session cookie belongs to: `signedOut` when there is no live session. */
export type SessionMeResult = { ok: true; me: Me } | { ok: false; signedOut: boolean; message: string };

export async function fetchSessionMe(): Promise<SessionMeResult> {
  try {
    const { data, error, response } = await apiClient(null).GET('/api/v1/me');
    if (data) return { ok: true, me: data };
    if (response.status === 401) return { ok: false, signedOut: true, message: 'Sign in to continue.' };
    return {
      ok: false,
      signedOut: false,
      message: `The server could not say who you are (${response.status}${error?.message ? `: ${error.message}` : ''}). Reload to try again.`,
    };
  } catch {
    return { ok: false, signedOut: false, message: 'The server cannot be reached. Check that qrlinks is running and reload.' };
  }
}

export function signInFailure(status: number, serverMessage: string | undefined): string {
  if (status === 401) return 'This key was not accepted: it is mistyped, revoked or expired. Check it, or create a new one with the CLI.';
  if (status === 429) return serverMessage ?? 'Too many attempts from this address; wait a little and try again.';
  return `The server could not check the key (${status}${serverMessage ? `: ${serverMessage}` : ''}). Try again.`;
}
