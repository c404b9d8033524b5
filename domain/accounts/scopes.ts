/** Every scope an API key can carry; `all` stands for each of them. */
export const SCOPES = [
  'all',
  'links.read',
  'links.create',
  'links.update',
  'links.delete',
  'links.pause',
  'links.resume',
  'folders.read',
  'folders.create',
  'folders.update',
  'folders.delete',
  'templates.read',
  'templates.create',
  'templates.update',
  'templates.delete',
  'bulk.create',
  'cafe.read',
  'cafe.create',
  'cafe.update',
  'cafe.delete',
] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

export function hasScope(granted: readonly string[], required: Scope): boolean {
  return granted.includes('all') || granted.includes(required);
}
