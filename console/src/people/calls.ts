/**
 * The people screens' requests (members, invitations, profile, sessions, two-factor, activity) as
 * values: the answer's body, or the refusal's stable code and its reason in words, so a screen
 * shows the server's refusal (the last owner, a wrong password) where the person acted.
 */
import type { paths } from '../api/schema.js';
import { problemText, signedInClient, UNREACHABLE } from '../api/signed-in.js';

export type Member = paths['/api/v1/members']['get']['responses'][200]['content']['application/json']['data'][number];
export type Invitation = paths['/api/v1/invitations']['get']['responses'][200]['content']['application/json']['data'][number];
export type InvitationSent = paths['/api/v1/invitations']['post']['responses'][200]['content']['application/json'];
export type MemberChange = NonNullable<paths['/api/v1/members/{userId}']['patch']['requestBody']>['content']['application/json'];
export type Session = paths['/api/v1/sessions']['get']['responses'][200]['content']['application/json']['data'][number];
export type Folder = paths['/api/v1/folders']['get']['responses'][200]['content']['application/json']['data'][number];
export type AuditPage = paths['/api/v1/audit-events']['get']['responses'][200]['content']['application/json'];
export type AuditEvent = AuditPage['data'][number];
export type AuditQuery = NonNullable<paths['/api/v1/audit-events']['get']['parameters']['query']>;

export type Outcome<T> = { ok: true; data: T } | { ok: false; status: number; code: string | null; message: string; field: string | null };

/** Clearer words for refusals a person meets on these screens; the server's message otherwise. */
const SAID: Readonly<Record<string, string>> = {
  last_owner: 'An account keeps at least one owner: make someone else an owner first.',
  own_role_unchangeable: 'Nobody changes their own role; another admin or owner can.',
  password_incorrect: 'That is not your current password.',
};

/** Runs one openapi-fetch call and turns its answer into an Outcome. */
export async function attempt<T>(
  run: (client: ReturnType<typeof signedInClient>) => Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<Outcome<T>> {
  try {
    const { data, error, response } = await run(signedInClient());
    if (response.ok) return { ok: true, data: data as T };
    const body = (error ?? {}) as { code?: unknown; errors?: Array<{ path?: unknown }> };
    const code = typeof body.code === 'string' ? body.code : null;
    const first = Array.isArray(body.errors) ? body.errors[0]?.path : undefined;
    return {
      ok: false,
      status: response.status,
      code,
      message: (code && SAID[code]) || problemText(response.status, error),
      field: typeof first === 'string' ? first : null,
    };
  } catch {
    return { ok: false, status: 0, code: null, message: UNREACHABLE, field: null };
  }
}

export const ROLE_LABELS: Readonly<Record<Member['role'], string>> = {
  owner: 'Owner',
  admin: 'Admin',
  editor: 'Editor',
  viewer: 'Viewer',
  client: 'Client',
};

/** What each role may do, for the role pickers. */
export const ROLE_HINTS: Readonly<Record<Member['role'], string>> = {
  owner: 'Everything, including other owners and the account itself.',
  admin: 'Everything but owners: people, keys, the activity log.',
  editor: 'Creates and changes links, folders, templates and cafes.',
  viewer: 'Sees everything, changes nothing.',
  client: 'Only the folders given, to view or to edit.',
};

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
export const shownTime = (iso: string) => dateTime.format(new Date(iso));

/** "3 minutes ago", "2 days ago": for last-seen columns; the exact time goes in the title. */
export function sinceText(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return rtf.format(-Math.round(seconds / 60), 'minute');
  if (seconds < 86_400) return rtf.format(-Math.round(seconds / 3600), 'hour');
  return rtf.format(-Math.round(seconds / 86_400), 'day');
}
