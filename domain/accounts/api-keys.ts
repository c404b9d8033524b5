import { and, count, desc, eq, gt, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import { preparedQuery, type Database } from '../database.js';
import { accounts, apiKeys, memberships, type Plan } from '../schema.js';
import { effectiveScopes, roleScopes, type ClientAccess, type Role } from '../people/roles.js';
import { ConflictError } from '../errors.js';
import { BoundedCache } from '#platform/bounded-cache.js';
import { throttledWarning, type Logger } from '#platform/logger.js';
import type { Redis } from '#platform/redis/client.js';
import type { Invalidations } from '#platform/redis/invalidations.js';
import { announceChanges, HeldWhileSubscribed } from '#platform/redis/held-while-subscribed.js';
import { DEFAULT_MAX_ACTIVE_API_KEYS } from '#platform/config/index.js';
import { displayPrefix, generateApiKey, hashApiKey, looksLikeApiKey } from './keys.js';
import type { Scope } from './scopes.js';

/** Who is calling: what every authenticated request carries, from an API key or a person's session. */
export interface Principal {
  accountId: string;
  plan: Plan;
  /** What the caller may do: a session's role's scopes; a key's own, cut down to its maker's role. */
  scopes: string[];
  /** The API key, when a machine calls. */
  keyId: string | null;
  /** The person: the session's user, or the key's maker (null: an operator's key from the CLI). */
  userId: string | null;
  /** The person's role in the account; an operator's key counts as the owner's. */
  role: Role;
  /** A client's folders, the only ones it may see; null: the whole account. */
  folderIds: readonly string[] | null;
  /** The session, when a person calls from the console. */
  sessionId: string | null;
}

/**
 * Who a record names as having made or changed it (`created_by`, `updated_by`): the person, or
 * the key when no person stands behind it.
 */
export function actorIdOf(who: Principal): string | null {
  return who.userId ?? who.keyId;
}

export interface NewApiKey {
  accountId: string;
  /** The person making it; none for an operator's key (the CLI). */
  createdByUserId?: string | null;
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
        createdByUserId: input.createdByUserId ?? null,
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

/** Where api processes hear of keys that changed (see ApiKeyAuthenticator.listen). */
export function apiKeyChannel(namespace: string): string {
  return `${namespace}:api-keys:changed`;
}

/** How to tell every api process that keys changed (a connection with an offline queue). */
export interface KeyChangeAnnouncer {
  redis: Redis;
  namespace: string;
  logger?: Logger;
}

/**
 * Tells every api process to forget what it holds of these keys. While Redis is away the message
 * waits in the connection's queue; no process serves a key from memory meanwhile (a subscriber
 * that lost Redis stops doing so), so the wait is bounded, not the safety.
 */
export async function announceApiKeyChanges(announcer: KeyChangeAnnouncer, keyHashes: readonly string[]): Promise<void> {
  await announceChanges(announcer, apiKeyChannel(announcer.namespace), keyHashes, 'API key change');
}

/**
 * Revokes a key; with accountId, only that account's key. Resolves false when there is none.
 * Every api process is told to drop the key from memory (ApiKeyAuthenticator) before this resolves.
 */
export async function revokeApiKey(db: Database, announcer: KeyChangeAnnouncer, id: string, accountId?: string): Promise<boolean> {
  const rows = await db
    .update(apiKeys)
    .set({ active: false, revokedAt: sql`coalesce(${apiKeys.revokedAt}, now())` })
    .where(accountId ? and(eq(apiKeys.id, id), eq(apiKeys.accountId, accountId)) : eq(apiKeys.id, id))
    .returning({ keyHash: apiKeys.keyHash });
  await announceApiKeyChanges(
    announcer,
    rows.map((r) => r.keyHash),
  );
  return rows.length > 0;
}

export interface KeyCacheOptions {
  /** How long a refused key is answered without asking Postgres. */
  ttlMs: number;
  /** Refused keys remembered at most (older ones are dropped first). */
  max: number;
  /**
   * How long an accepted key is answered from memory without asking Postgres, when no change
   * announcement arrives sooner: the bound on staleness should an announcement be lost.
   */
  acceptedTtlMs?: number;
  /** Accepted keys remembered at most. */
  acceptedMax?: number;
}

interface AcceptedKey {
  principal: Principal;
  expiresAt: number | null;
  lastUsedAt: number | null;
  freshUntil: number;
}

/**
 * Resolves raw keys to principals, remembering (in this process) the keys it refused and, once
 * listening to change announcements, the keys it accepted.
 *
 * Refusals are final: a revoked or expired key never becomes valid again, and an unknown key can
 * never become a key later, because a new key is 190 random bits drawn when it is created (nobody
 * can present it before it exists). So that memory can only agree with Postgres.
 *
 * Accepted keys can be revoked (or, later, have their scopes or account changed), so they are held
 * only while this process is subscribed to the change channel (`listen`): a revocation announces
 * the key's hash and every process drops it at once. An entry also lapses after `acceptedTtlMs`
 * (a safety net should a message be lost between a reconnection and its resubscription); expiry is
 * checked on every request against the expiry held; losing the subscriber stops answering from
 * (and adding to) them until it is subscribed again, and its return forgets them all. A lookup
 * that began before an announcement or a reconnection is not kept, so a slow read cannot put back
 * what a revocation removed.
 */
export class ApiKeyAuthenticator {
  private readonly refused: BoundedCache<string, number>;
  private readonly accepted: HeldWhileSubscribed<AcceptedKey>;
  private readonly acceptedTtlMs: number;

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
    private readonly options: KeyCacheOptions = { ttlMs: 60_000, max: 10_000 },
  ) {
    this.refused = new BoundedCache(options.max);
    this.accepted = new HeldWhileSubscribed(options.acceptedMax ?? 10_000, 'named');
    this.acceptedTtlMs = options.acceptedTtlMs ?? 10_000;
  }

  /**
   * Subscribes to the change channel, waiting at most `waitMs`; accepted keys are held from when
   * the subscription is confirmed, not while it is down, and forgotten when the connection is back.
   */
  async listen(invalidations: Invalidations, namespace: string, waitMs = 2000): Promise<void> {
    await this.accepted.listen(invalidations, apiKeyChannel(namespace), waitMs);
  }

  /** The key's principal, or null for any key that must not pass (malformed, unknown, revoked, inactive, expired). */
  async authenticate(rawKey: string): Promise<Principal | null> {
    if (!looksLikeApiKey(rawKey)) return null;
    const keyHash = hashApiKey(rawKey);
    const now = Date.now();
    const held = this.accepted.get(keyHash);
    if (held && held.freshUntil > now) {
      if (held.expiresAt !== null && held.expiresAt <= now) return null;
      if (held.lastUsedAt === null || now - held.lastUsedAt > LAST_USED_RESOLUTION_MS) {
        held.lastUsedAt = now;
        writeLastUsed(this.db, this.logger, held.principal.keyId!, now);
      }
      return held.principal;
    }
    const refusedUntil = this.refused.get(keyHash);
    if (refusedUntil !== undefined && refusedUntil > now) return null;
    const ticket = this.accepted.ticket();
    const row = await authenticateKeyHash(this.db, keyHash, this.logger);
    if (!row) {
      this.refused.set(keyHash, Date.now() + this.options.ttlMs);
      return null;
    }
    this.accepted.keep(ticket, keyHash, {
      principal: row.principal,
      expiresAt: row.expiresAt,
      lastUsedAt: row.lastUsedAt,
      freshUntil: Date.now() + this.acceptedTtlMs,
    });
    return row.principal;
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

interface KeyRow {
  principal: Principal;
  expiresAt: number | null;
  /** After this lookup's own write, if it made one. */
  lastUsedAt: number | null;
}

async function authenticateKeyHash(db: Database, keyHash: string, logger: Logger): Promise<KeyRow | null> {
  const [row] = await keyLookup(db).execute({ keyHash });
  if (!row || !row.active) return null;
  // A key made by a person is worth their current role, and nothing once they leave the account.
  if (row.createdByUserId && !row.makerRole) return null;
  const now = Date.now();
  if (row.expiresAt && row.expiresAt.getTime() <= now) return null;
  let lastUsedAt = row.lastUsedAt?.getTime() ?? null;
  if (lastUsedAt === null || now - lastUsedAt > LAST_USED_RESOLUTION_MS) {
    writeLastUsed(db, logger, row.keyId, now);
    lastUsedAt = now;
  }
  return {
    principal: keyPrincipal(row),
    expiresAt: row.expiresAt?.getTime() ?? null,
    lastUsedAt,
  };
}

function keyPrincipal(row: {
  keyId: string;
  accountId: string;
  plan: Plan;
  scopes: string[];
  createdByUserId: string | null;
  makerRole: Role | null;
  makerClientAccess: ClientAccess | null;
  makerFolderIds: string[] | null;
}): Principal {
  const role = row.makerRole ?? 'owner';
  return {
    keyId: row.keyId,
    accountId: row.accountId,
    plan: row.plan,
    scopes: effectiveScopes(row.scopes, roleScopes(role, row.makerClientAccess)),
    userId: row.createdByUserId,
    role,
    folderIds: role === 'client' ? (row.makerFolderIds ?? []) : null,
    sessionId: null,
  };
}

/** At most one write per key per minute, and never on the request's critical path. */
function writeLastUsed(db: Database, logger: Logger, keyId: string, now: number): void {
  void db
    .update(apiKeys)
    .set({ lastUsedAt: new Date(now) })
    .where(eq(apiKeys.id, keyId))
    // lastUsedAt is informative: a lost write is retried by the key's next request a minute on.
    .catch((err: unknown) => lastUsedNotWritten(logger, err, { keyId }));
}

const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * The lookup every api request makes, as a named prepared statement: Postgres plans it once per
 * connection instead of on every request.
 */
const keyLookup = preparedQuery((db) =>
  db
    .select({
      keyId: apiKeys.id,
      accountId: apiKeys.accountId,
      plan: accounts.plan,
      scopes: apiKeys.scopes,
      active: apiKeys.active,
      expiresAt: apiKeys.expiresAt,
      lastUsedAt: apiKeys.lastUsedAt,
      createdByUserId: apiKeys.createdByUserId,
      makerRole: memberships.role,
      makerClientAccess: memberships.clientAccess,
      makerFolderIds: memberships.folderIds,
    })
    .from(apiKeys)
    .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
    .leftJoin(memberships, and(eq(memberships.accountId, apiKeys.accountId), eq(memberships.userId, apiKeys.createdByUserId)))
    .where(eq(apiKeys.keyHash, sql.placeholder('keyHash')))
    .prepare('api_key_lookup'),
);

/** The maintenance sweep: marks every active key past its expiry inactive. Returns how many. */
export async function deactivateExpiredKeys(db: Database, now = new Date()): Promise<number> {
  const rows = await db
    .update(apiKeys)
    .set({ active: false })
    .where(and(eq(apiKeys.active, true), isNotNull(apiKeys.expiresAt), lte(apiKeys.expiresAt, now)))
    .returning({ id: apiKeys.id });
  return rows.length;
}
