/**
 * What the console asks on a person's behalf: sign in and out, switch accounts, and the pages
 * that lead in (first start, joining, a forgotten password). Each answer comes back as a value
 * with the server's `code`, so a screen can put the reason in words at the right field.
 */
import { fetchSessionMe, type Me } from './client.js';

/** A refusal: the HTTP status (0: the server was not reached), its stable code and message, and Retry-After in seconds. */
export interface Refusal {
  ok: false;
  status: number;
  code: string | null;
  message: string | null;
  retryAfterSeconds: number | null;
  /** The fields a 400 names, by body path. */
  fields: Record<string, string>;
}
export type Answer<T> = ({ ok: true } & T) | Refusal;

const UNREACHED: Refusal = { ok: false, status: 0, code: null, message: null, retryAfterSeconds: null, fields: {} };

function refusal(response: Response, body: unknown): Refusal {
  const b = (typeof body === 'object' && body !== null ? body : {}) as {
    code?: unknown;
    message?: unknown;
    errors?: Array<{ path?: unknown; message?: unknown }>;
  };
  const fields: Record<string, string> = {};
  for (const e of Array.isArray(b.errors) ? b.errors : []) {
    if (typeof e.path === 'string' && typeof e.message === 'string') fields[e.path] ??= e.message;
  }
  const retry = Number(response.headers.get('retry-after'));
  return {
    ok: false,
    status: response.status,
    code: typeof b.code === 'string' ? b.code : null,
    message: typeof b.message === 'string' ? b.message : null,
    retryAfterSeconds: Number.isFinite(retry) && retry > 0 ? retry : null,
    fields,
  };
}

/** A JSON request without a key (the session cookie goes with it); the answer's body, or why not. */
async function send<T>(method: string, path: string, body?: unknown): Promise<Answer<{ data: T }>> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    return UNREACHED;
  }
  const parsed: unknown = await response.json().catch(() => null);
  if (!response.ok) return refusal(response, parsed);
  return { ok: true, data: parsed as T };
}

/** After an answer that set the cookie: who the person now is. */
async function signedInMe(): Promise<Answer<{ me: Me }>> {
  const me = await fetchSessionMe();
  if (me.ok) return me;
  return { ...UNREACHED, message: me.message };
}

async function thenMe(answer: Answer<unknown>): Promise<Answer<{ me: Me }>> {
  return answer.ok ? signedInMe() : answer;
}

export function signInWithPassword(email: string, password: string, totp?: string): Promise<Answer<{ me: Me }>> {
  return send('POST', '/api/v1/sessions', { email, password, ...(totp ? { totp } : {}) }).then(thenMe);
}

/** Ends this browser's session; a session that had already ended counts as signed out. */
export async function signOutSession(): Promise<Answer<object>> {
  const answer = await send('DELETE', '/api/v1/sessions/current');
  return !answer.ok && answer.status === 401 ? { ok: true } : answer;
}

/** Moves this session to another of the person's accounts; who they are there. */
export function switchAccount(accountId: string): Promise<Answer<{ me: Me }>> {
  return send('PATCH', '/api/v1/sessions/current', { accountId }).then(thenMe);
}

export function setupNeeded(): Promise<Answer<{ data: { needed: boolean } }>> {
  return send('GET', '/api/v1/setup');
}

export interface SetupForm {
  token: string;
  email: string;
  password: string;
  name: string;
  accountName: string;
}
export function completeSetup(form: SetupForm): Promise<Answer<{ me: Me }>> {
  return send('POST', '/api/v1/setup', form).then(thenMe);
}

export interface Invitation {
  email: string;
  accountName: string;
  role: string;
  inviterName: string | null;
  userExists: boolean;
}
export function lookUpInvitation(token: string): Promise<Answer<{ data: Invitation }>> {
  return send('POST', '/api/v1/invitations/lookup', { token });
}
export function acceptInvitation(token: string, password: string, name?: string, totp?: string): Promise<Answer<{ me: Me }>> {
  return send('POST', '/api/v1/invitations/accept', { token, password, ...(name ? { name } : {}), ...(totp ? { totp } : {}) }).then(thenMe);
}

export function requestPasswordReset(email: string): Promise<Answer<{ data: { message: string } }>> {
  return send('POST', '/api/v1/password-resets', { email });
}
export function completePasswordReset(token: string, password: string, totp?: string): Promise<Answer<{ me: Me }>> {
  return send('POST', '/api/v1/password-resets/complete', { token, password, ...(totp ? { totp } : {}) }).then(thenMe);
}

/** Whether single sign-on is set up, and its button's words; off when the server has no such route. */
export async function ssoConfig(): Promise<{ enabled: boolean; label: string }> {
  const answer = await send<{ enabled?: unknown; label?: unknown }>('GET', '/api/v1/sessions/oidc/config');
  if (!answer.ok || answer.data.enabled !== true) return { enabled: false, label: '' };
  return { enabled: true, label: typeof answer.data.label === 'string' && answer.data.label ? answer.data.label : 'Sign in with SSO' };
}
