/** The console's only way to the API: openapi-fetch typed by the generated schema (schema.d.ts). */
import createClient from 'openapi-fetch';
import type { paths } from './schema.js';

export type Me = paths['/api/v1/me']['get']['responses'][200]['content']['application/json'];

export type MeResult = { ok: true; me: Me } | { ok: false; message: string };

export function apiClient(key: string) {
  return createClient<paths>({ baseUrl: '/', headers: { Authorization: `Basic ${key}` } });
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

export function signInFailure(status: number, serverMessage: string | undefined): string {
  if (status === 401) return 'This key was not accepted: it is mistyped, revoked or expired. Check it, or create a new one with the CLI.';
  if (status === 429) return serverMessage ?? 'Too many attempts from this address; wait a little and try again.';
  return `The server could not check the key (${status}${serverMessage ? `: ${serverMessage}` : ''}). Try again.`;
}
