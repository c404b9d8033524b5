import { and, count, desc, eq, gt, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import type { Database } from '../database.js';
import { accounts, apiKeys, type Plan } from '../schema.js';
import { ConflictError } from '../errors.js';
import { BoundedCache } from '../../platform/bounded-cache.js';
import { throttledWarning, type Logger } from '../../platform/logger.js';
import { DEFAULT_MAX_ACTIVE_API_KEYS } from '../../platform/config/index.js';
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

/** An account already holds as many active keys as it may (409). */
export class ApiKeyLimitError extends ConflictError {
  constructor(max: number) {
    super(
      'api_key_limit_reached',
      `This account already has ${max} active API key${max === 1 ? '' : 's'}, the most it may have; revoke one before creating another`,
    );
  }
}

/**
 * Creates a key and returns it in full: the only time it is ever shown. An account holds at most
 * `maxActiveKeys` active keys (not revoked, not expired); one more is an ApiKeyLimitError. The
 * account row is locked while counting, so keys created at once cannot pass the limit together.
 */
export async function createApiKey(
  db: Database,
  input: NewApiKey,
  maxActiveKeys = DEFAULT_MAX_ACTIVE_API_KEYS,
): Promise<{ id: string; key: string }> {
  const key = generateApiKey();
  return db.transaction(async (tx) => {
    await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, input.accountId)).for('no key update');
    const [held] = await tx
      .select({ n: count() })
      .from(apiKeys)
      .where(
        and(
          eq(apiKeys.accountId, input.accountId),
          eq(apiKeys.active, true),
          or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, sql`now()`)),
        ),
      );
    if (held!.n >= maxActiveKeys) throw new ApiKeyLimitError(maxActiveKeys);
    const [row] = await tx
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
  });
}

/** The account's keys, newest first: what is shown of them, never the key or its hash. */
export type ApiKeyListing = Awaited<ReturnType<typeof listApiKeys>>[number];

export async function listApiKeys(db: Database, accountId: string) {
  return db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      prefix: apiKeys.keyPrefix,
      scopes: apiKeys.scopes,
      active: apiKeys.active,
      expiresAt: apiKeys.expiresAt,
      lastUsedAt: apiKeys.lastUsedAt,
      revokedAt: apiKeys.revokedAt,
      createdAt: apiKeys.createdAt,
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

export interface RefusedKeyCacheOptions {
  /** How long a refused key is answered without asking Postgres. */
  ttlMs: number;
  /** Refused keys remembered at most (older ones are dropped first). */
  max: number;
}

/**
 * Resolves raw keys to principals, remembering briefly (in this process) the keys it refused, so
 * a client repeating a bad key does not cost Postgres a lookup each time.
 *
 * Only refusals are remembered, never a key that passed, so a revocation or expiry is seen on the
 * next request. Every refusal is final: a revoked or expired key never becomes valid again, and an
 * unknown key can never become a key later, because a new key is 190 random bits drawn when it
 * is created (nobody can present it before it exists). So the memory can only agree with Postgres;
 * it never hides a key that was created, and never lets through one that was revoked.
 */
export class ApiKeyAuthenticator {
  private readonly refused: BoundedCache<string, number>;

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
    private readonly options: RefusedKeyCacheOptions = { ttlMs: 60_000, max: 10_000 },
  ) {
    this.refused = new BoundedCache(options.max);
  }

  /** The key's principal, or null for any key that must not pass (malformed, unknown, revoked, inactive, expired). */
  async authenticate(rawKey: string): Promise<Principal | null> {
    if (!looksLikeApiKey(rawKey)) return null;
    const keyHash = hashApiKey(rawKey);
    const refusedUntil = this.refused.get(keyHash);
    if (refusedUntil !== undefined && refusedUntil > Date.now()) return null;
    const principal = await authenticateKeyHash(this.db, keyHash, this.logger);
    if (!principal) this.refused.set(keyHash, Date.now() + this.options.ttlMs);
    return principal;
  }

  /** Refused keys held (for tests of the bound). */
  get refusedHeld(): number {
    return this.refused.size;
  }
}

/**
 * Expiry is checked here on every request, so the gap before the sweep job marks a key inactive
 * never lets it through.
 */
const lastUsedNotWritten = throttledWarning("an API key's lastUsedAt was not updated");

async function authenticateKeyHash(db: Database, keyHash: string, logger: Logger): Promise<Principal | null> {
  const [row] = await keyLookup(db).execute({ keyHash });
  if (!row || !row.active) return null;
  const now = Date.now();
  if (row.expiresAt && row.expiresAt.getTime() <= now) return null;
  if (!row.lastUsedAt || now - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    // At most one write per key per minute, and never on the request's critical path.
    void db
      .update(apiKeys)
      .set({ lastUsedAt: new Date(now) })
      .where(eq(apiKeys.id, row.keyId))
      // lastUsedAt is informative: a lost write is retried by the key's next request a minute on.
      .catch((err: unknown) => lastUsedNotWritten(logger, err, { keyId: row.keyId }));
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
