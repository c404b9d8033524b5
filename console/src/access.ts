/**
 * What the signed-in person or key may do, from `GET /me`'s role and scopes, and when not the
 * reason in words: a control the role cannot use is drawn disabled with this reason beside it
 * ("Viewers can't edit links — ask an admin") instead of failing on click. The server decides;
 * this only keeps the console from offering what it would refuse.
 */
import type { Me } from './api/client.js';

type Role = Me['role'];

const RANK: Readonly<Record<Role, number>> = { owner: 4, admin: 3, editor: 2, viewer: 1, client: 0 };

/** Whether `role` is `minimum` or above (a client ranks below a viewer). */
export function roleAtLeast(role: Role, minimum: Role): boolean {
  return RANK[role] >= RANK[minimum];
}

const ROLE_PLURALS: Readonly<Record<Role, string>> = {
  owner: 'Owners',
  admin: 'Admins',
  editor: 'Editors',
  viewer: 'Viewers',
  client: 'Clients',
};

/** What each scope lets someone do, as the words after "can't". */
const SCOPE_VERBS: Readonly<Record<string, string>> = {
  'links.read': 'see links',
  'links.create': 'create links',
  'links.update': 'edit links',
  'links.delete': 'archive links',
  'links.pause': 'pause links',
  'links.resume': 'resume links',
  'folders.read': 'see folders',
  'folders.create': 'create folders',
  'folders.update': 'rename folders',
  'folders.delete': 'delete folders',
  'templates.read': 'see templates',
  'templates.create': 'save templates',
  'templates.update': 'edit templates',
  'templates.delete': 'delete templates',
  'bulk.create': 'make links in bulk',
  'cafe.read': 'see cafes',
  'cafe.create': 'create cafes',
  'cafe.update': 'edit cafes',
  'cafe.delete': 'delete cafes',
  all: 'manage API keys',
};

/** Who a person asks for what their role lacks: an admin, or for an admin's lack an owner. */
const askWhom = (me: Me) => (roleAtLeast(me.role, 'admin') ? 'ask an owner' : 'ask an admin');

/** Why the caller cannot do what `scope` allows, in words; null when they can. */
export function scopeBlock(me: Me, scope: string): string | null {
  const scopes: readonly string[] = me.scopes;
  if (scopes.includes('all') || scopes.includes(scope)) return null;
  // A key cut down to fewer scopes than its maker's role: the key is what lacks it.
  if (me.key) return `This key lacks the ${scope} scope.`;
  return `${ROLE_PLURALS[me.role]} can't ${SCOPE_VERBS[scope] ?? `use ${scope}`} — ${askWhom(me)}.`;
}

/** Why the caller cannot do something only `minimum` and above may, `what` in words ("invite people"); null when they can. */
export function roleBlock(me: Me, minimum: Role, what: string): string | null {
  if (roleAtLeast(me.role, minimum) && me.scopes.includes('all')) return null;
  if (roleAtLeast(me.role, minimum)) return `This key lacks the all scope, needed to ${what}.`;
  return `${ROLE_PLURALS[me.role]} can't ${what} — ${askWhom(me)}.`;
}

/** Changing people (inviting, roles, removal): an admin's, with the `all` scope. (Admin-only pages say theirs in nav.ts.) */
export const peopleBlock = (me: Me): string | null => roleBlock(me, 'admin', 'invite or change members');

/** The roles `me` may give: nobody above their own, and only an owner makes an owner. */
export function assignableRoles(me: Me): Role[] {
  return (['owner', 'admin', 'editor', 'viewer', 'client'] as const).filter((r) =>
    r === 'owner' ? me.role === 'owner' : roleAtLeast(me.role, r),
  );
}

/** Why `me` cannot change or remove a member holding `role` (null: they can). */
export function memberBlock(me: Me, role: Role, isSelf: boolean): string | null {
  const block = peopleBlock(me);
  if (block) return block;
  if (isSelf) return 'Nobody changes their own role; another admin or owner can.';
  if (role === 'owner' && me.role !== 'owner') return 'Only an owner changes or removes an owner.';
  return null;
}

/**
 * One note for the scopes among `scopes` the caller lacks, for beside a group of controls: a key's
 * sentence per scope, as before; a role's in one ("Viewers can't pause, archive or edit links —
 * ask an admin."). Null when nothing is blocked.
 */
export function blockedNote(me: Me, scopes: readonly string[]): string | null {
  const lacking = [...new Set(scopes)].filter((s) => scopeBlock(me, s) !== null);
  if (lacking.length === 0) return null;
  if (me.key) return lacking.map((s) => scopeBlock(me, s)).join(' ');
  const verbs = lacking.map((s) => SCOPE_VERBS[s] ?? `use ${s}`);
  const object = verbs[0]!.split(' ').slice(1).join(' ');
  const shared = verbs.every((v) => v.split(' ').slice(1).join(' ') === object) && object !== '';
  const parts = shared ? verbs.map((v) => v.split(' ')[0]!) : verbs;
  const list = parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} or ${parts.at(-1)!}`;
  return `${ROLE_PLURALS[me.role]} can't ${list}${shared ? ` ${object}` : ''} — ${askWhom(me)}.`;
}
