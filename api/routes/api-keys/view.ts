import type { ApiKeyListing } from '#domain/accounts/api-keys.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A key as GET /api-keys lists it (apiKeyResponse): snake_case, ISO 8601 instants. */
export function apiKeyView(key: ApiKeyListing) {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    scopes: key.scopes,
    active: key.active,
    expires_at: iso(key.expiresAt),
    last_used_at: iso(key.lastUsedAt),
    revoked_at: iso(key.revokedAt),
    created_at: key.createdAt.toISOString(),
  };
}
