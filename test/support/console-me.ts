import type { Me } from '#console/src/api/client.js';

/** A whole `/api/v1/me` answer as the console holds it: a key's by default, with `parts` in place of its fields. */
export function aMe(parts: Partial<Me>): Me {
  return {
    account: { id: 'account', name: 'Cafe Aroma', plan: 'pro' },
    key: null,
    user: null,
    role: 'owner',
    scopes: [],
    folderIds: null,
    accounts: [],
    plan: { apiKeyManagement: true },
    shortUrlBase: 'http://localhost:3001',
    ...parts,
  };
}

/** A key's `key` field with `scopes`. */
export function aKey(scopes: string[]): NonNullable<Me['key']> {
  return { id: 'key', name: null, scopes, expiresAt: null };
}
