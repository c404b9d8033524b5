/**
 * Roles a person holds in an account, and what each lets them do through the API's scopes.
 * Scopes stay the one currency of the route table: a session carries its role's scopes, a key
 * carries its own scopes cut down to its maker's role. What no scope names (people, keys, the
 * audit log, the account itself) is asked of the role by the route (`AuthRequirement.role`).
 */
import { SCOPES, type Scope } from '../accounts/scopes.js';

export const ROLES = ['owner', 'admin', 'editor', 'viewer', 'client'] as const;
export type Role = (typeof ROLES)[number];

/** A client's access inside its folders. */
export const CLIENT_ACCESS = ['edit', 'view'] as const;
export type ClientAccess = (typeof CLIENT_ACCESS)[number];

const READ: Scope[] = ['links.read', 'folders.read', 'templates.read', 'cafe.read'];
/** Every scope but the catch-all: `all` also opens key management, an admin's job. */
const EDIT: Scope[] = SCOPES.filter((s) => s !== 'all');
/**
 * A client works on links inside its folders (one at a time or in a bulk batch, which must land in
 * one of them); templates are read to style them (docs/decisions/0412).
 */
const CLIENT_EDIT: Scope[] = [
  'links.read',
  'links.create',
  'links.update',
  'links.delete',
  'links.pause',
  'links.resume',
  'bulk.create',
  'folders.read',
  'templates.read',
];
const CLIENT_VIEW: Scope[] = ['links.read', 'folders.read', 'templates.read'];

export function roleScopes(role: Role, clientAccess: ClientAccess | null = null): Scope[] {
  switch (role) {
    case 'owner':
    case 'admin':
      return ['all'];
    case 'editor':
      return EDIT;
    case 'viewer':
      return READ;
    case 'client':
      return clientAccess === 'edit' ? CLIENT_EDIT : CLIENT_VIEW;
  }
}

/** The roles in order of power, for "at least admin" questions. A client ranks below a viewer. */
const RANK: Record<Role, number> = { owner: 4, admin: 3, editor: 2, viewer: 1, client: 0 };

export function roleAtLeast(role: Role, minimum: Role): boolean {
  return RANK[role] >= RANK[minimum];
}

/** What a key may do: its own scopes, no more than its maker's role allows. */
export function effectiveScopes(keyScopes: readonly string[], allowed: readonly Scope[]): string[] {
  if (allowed.includes('all')) return [...keyScopes];
  if (keyScopes.includes('all')) return [...allowed];
  return keyScopes.filter((s) => (allowed as readonly string[]).includes(s));
}
