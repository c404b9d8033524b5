import { and, desc, eq, isNotNull, lte, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { accounts, apiKeys, type Plan } from '../../db/schema.js';
import { displayPrefix, generateApiKey, hashApiKey, looksLikeApiKey } from './keys.js';
import type { Scope } from './scopes.js';

/** Who is calling: what every authenticated request carries. */
export interface Principal {
  keyId: string;
  accountId: string;
  plan: Plan;
  scopes: string[];
}

export interface NewApiKey {
  accountId: string;
  scopes: Scope[];
  name?: string | null;
  expiresAt?: Date | null;
}

/** Creates a key and returns it in full: the only time it is ever shown. */
export async function createApiKey(db: Database, input: NewApiKey): Promise<{ id: string; key: string }> {
  const key = generateApiKey();
  const [row] = await db
    .insert(apiKeys)
    .values({
      accountId: input.accountId,
      name: input.name ?? null,
      keyHash: hashApiKey(key),
      keyPrefix: displayPrefix(key),
      scopes: [...new Set(input.scopes)],
      expiresAt: input.expiresAt ?? null,
    })
    .returning({ id: apiKeys.id });
  return { id: row!.id, key };
}

export async function listApiKeys(db: Database, accountId: string) {
  return db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      prefix: apiKeys.keyPrefix,
      scopes: apiKeys.scopes,
      active: apiKeys.active,
      expires_at: apiKeys.expiresAt,
      last_used_at: apiKeys.lastUsedAt,
      revoked_at: apiKeys.revokedAt,
      created_at: apiKeys.createdAt,
    })
    .from(apiKeys)
    .where(eq(apiKeys.accountId, accountId))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
}

/** Revokes a key; with accountId, only that account's key. Resolves false when there is none. */
export async function revokeApiKey(db: Database, id: string, accountId?: string): Promise<boolean> {
  const rows = await db
    .update(apiKeys)
    .set({ active: false, revokedAt: sql`coalesce(${apiKeys.revokedAt}, now())` })
    .where(accountId ? and(eq(apiKeys.id, id), eq(apiKeys.accountId, accountId)) : eq(apiKeys.id, id))
    .returning({ id: apiKeys.id });
  return rows.length > 0;
}

/**
 * Resolves a raw key to its principal, or null for any key that must not pass: unknown,
 * revoked, inactive, or past its expiry. Expiry is checked here on every request, so the gap
 * before the sweep job marks a key inactive never lets it through.
 */
export async function authenticateApiKey(db: Database, rawKey: string): Promise<Principal | null> {
  if (!looksLikeApiKey(rawKey)) return null;
  const [row] = await keyLookup(db).execute({ keyHash: hashApiKey(rawKey) });
  if (!row || !row.active) return null;
  const now = Date.now();
  if (row.expiresAt && row.expiresAt.getTime() <= now) return null;
  if (!row.lastUsedAt || now - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    // At most one write per key per minute, and never on the request's critical path.
    void db
      .update(apiKeys)
      .set({ lastUsedAt: new Date(now) })
      .where(eq(apiKeys.id, row.keyId))
      .catch(() => {});
  }
  return { keyId: row.keyId, accountId: row.accountId, plan: row.plan, scopes: row.scopes };
}

const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * The lookup every api request makes, as a named prepared statement: Postgres plans it once per
 * connection instead of on every request.
 */
const keyLookups = new WeakMap<Database, ReturnType<typeof prepareKeyLookup>>();
function keyLookup(db: Database) {
  let prepared = keyLookups.get(db);
  if (!prepared) keyLookups.set(db, (prepared = prepareKeyLookup(db)));
  return prepared;
}
function prepareKeyLookup(db: Database) {
  return db
    .select({
      keyId: apiKeys.id,
      accountId: apiKeys.accountId,
      plan: accounts.plan,
      scopes: apiKeys.scopes,
      active: apiKeys.active,
      expiresAt: apiKeys.expiresAt,
      lastUsedAt: apiKeys.lastUsedAt,
    })
    .from(apiKeys)
    .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
    .where(eq(apiKeys.keyHash, sql.placeholder('keyHash')))
    .prepare('api_key_lookup');
}

/** The maintenance sweep: marks every active key past its expiry inactive. Returns how many. */
export async function deactivateExpiredKeys(db: Database, now = new Date()): Promise<number> {
  const rows = await db
    .update(apiKeys)
    .set({ active: false })
    .where(and(eq(apiKeys.active, true), isNotNull(apiKeys.expiresAt), lte(apiKeys.expiresAt, now)))
    .returning({ id: apiKeys.id });
  return rows.length;
}
