import { createHash } from 'node:crypto';
import type { Pool } from '#platform/database/raw.js';
import type { Logger } from '#platform/logger.js';
import type { Redis } from '#platform/redis/client.js';
import type { Invalidations } from '#platform/redis/invalidations.js';
import type { LinkCacheKeys } from './keys.js';
import { loadResolvedLink } from './load.js';
import type { ResolvedLink } from './resolved-link.js';

export interface LinkResolverOptions {
  /** How long an in-process copy is used without asking Redis (pub/sub drops it sooner on a change). */
  localTtlMs: number;
  /**
   * While the invalidation subscription is up: how often a copy past `localTtlMs` is refreshed
   * behind the scan (each copy after this and up to half as long again, spread at random). Every
   * change drops the copy at once; the refresh only covers a message lost on a connection that
   * looked up.
   */
  subscribedRefreshMs: number;
  /** In-process copies kept at most (oldest refreshed first out). */
  localMax: number;
  /**
   * Bytes of JSON the in-process copies may come from at most (oldest refreshed first out): a
   * landing link carries up to 512 KiB of HTML, so a count alone does not bound the memory.
   */
  localMaxBytes: number;
  /** Lifetime of a Redis copy of a link; invalidation drops it on any change. */
  redisTtlSeconds: number;
  /** Lifetime of a Redis "no such slug" answer (creating the slug drops it too). */
  missingTtlSeconds: number;
  /**
   * New "no such slug" answers written to Redis per `missingTtlSeconds` window at most, so random
   * slugs cannot grow Redis without bound (at most about twice this many such keys live at once);
   * past it a miss is cached in process only.
   */
  missingRedisMax: number;
  /** "No such slug" answers kept in process at most, apart from links, so random slugs never push links out. */
  missingLocalMax: number;
}

export interface LinkResolverDeps {
  /** A fail-fast connection (see createFailFastRedis): Redis being down must not hold a scan. */
  redis: Redis;
  /** Where changes to links are heard (the process's pub/sub connection). */
  invalidations: Invalidations;
  pool: Pool;
  keys: LinkCacheKeys;
  logger: Logger;
  /** What time it is, in ms since the epoch: Date.now, or a test's clock that it moves by hand. */
  now?: () => number;
}

/** A Redis copy: JSON of a link that went through withSendableDestinations when it was loaded. */
function fromRedisEntry(entry: string): ResolvedLink | null {
  return JSON.parse(entry);
}

/** Neither Redis nor Postgres could say what a slug is, and no copy of it is held here. */
export class LinkLookupUnavailableError extends Error {
  constructor(cause: unknown) {
    super('link lookup unavailable', { cause });
  }
}

interface LocalEntry {
  link: ResolvedLink | null;
  /** When the copy was made or last found current (epoch ms). */
  checkedAt: number;
  /** When a scan of it, past `localTtlMs`, starts a refresh (while subscribed). */
  refreshAt: number;
  /**
   * A digest of the JSON the copy was made from (its Redis entry). A refresh that reads the same
   * JSON keeps this copy: no parse, and what was made from the copy (its pages) stays current.
   */
  digest: string;
  /** The JSON's length, counted against `localMaxBytes`. */
  bytes: number;
}

const digestOf = (json: string) => createHash('sha256').update(json).digest('base64');

/** The digest of the JSON each copy handed out was made from: copies of the same JSON share it. */
const copyDigests = new WeakMap<ResolvedLink, string>();

/**
 * What `link` was made from, as a digest of its JSON: two copies with the same digest describe the
 * same link, so what was made from one (a page) serves the other. Undefined for a copy this
 * module did not hand out.
 */
export function versionOfCopy(link: ResolvedLink): string | undefined {
  return copyDigests.get(link);
}

// Writes a loaded entry only if no invalidation bumped the slug's version since it was read, so a
// slow loader can never put back what a change just removed. A "no such slug" entry ('null') also
// needs room in the window's budget (KEYS[3], ARGV[4] entries per window of ARGV[3] seconds).
const WRITE_IF_VERSION_LUA = `
local v = redis.call('GET', KEYS[2])
if (v or '') ~= ARGV[1] then return 0 end
if ARGV[2] == 'null' then
  local n = redis.call('INCR', KEYS[3])
  if n == 1 then redis.call('EXPIRE', KEYS[3], 2 * tonumber(ARGV[3])) end
  if n > tonumber(ARGV[4]) then return 0 end
end
redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
return 1`;

/**
 * Address → link (a link's address is its slug on the default domain, `<host>/<slug>` on a brand
 * one: domain/links/link-domains.ts), from an in-process map (a few seconds) in front of Redis (shared by every redirect
 * process) in front of Postgres. Invalidations arrive by pub/sub; a reconnect of the subscriber
 * clears the map, because messages sent while it was away are lost. Expired in-process copies are
 * kept: when neither Redis nor Postgres answers, the last known copy still serves the scan.
 */
export class LinkResolver {
  private readonly local = new Map<string, LocalEntry>();
  /** "No such slug" answers, apart from `local` so that random slugs cannot evict links. */
  private readonly missing = new Map<string, LocalEntry>();
  private readonly loading = new Map<string, Promise<ResolvedLink | null>>();
  /** The JSON bytes the copies in `local` were made from. */
  private localBytes = 0;
  /** Bumped by every invalidation: a load that started before one does not keep its result. */
  private epoch = 0;
  /** Where each answer came from, since the process started (for metrics: the cache's hit ratio). */
  readonly lookups = { local: 0, redis: 0, postgres: 0 };

  private readonly now: () => number;

  constructor(
    private readonly deps: LinkResolverDeps,
    private readonly opts: LinkResolverOptions,
  ) {
    this.now = deps.now ?? Date.now;
  }

  /**
   * Subscribes to invalidations (waiting at most `waitMs` for Redis; the subscription completes
   * whenever it comes up, and is renewed after every reconnection). Every reconnection clears the
   * in-process map first: messages published while this process was away are lost.
   */
  async start(waitMs = 2000): Promise<void> {
    await this.deps.invalidations.listen(
      {
        channel: this.deps.keys.channel,
        onMessage: (address) => {
          this.forget(address);
          this.epoch++;
        },
        onReconnect: () => this.forgetAll(),
      },
      waitMs,
    );
  }

  /**
   * The in-process answer (a link, or null for "no such slug"), or undefined when a lookup is
   * needed. A link past its few seconds is served still while the invalidation subscription is up,
   * and refreshed off the request every `subscribedRefreshMs`: any change to it would have dropped
   * it already, so the refresh only covers a message lost, and a lost connection clears the map.
   * Scans of many links each scanned now and then (thousands of tables' codes) then never wait on
   * Redis or Postgres.
   * "No such slug" answers are not stretched: they guard Postgres against unknown slugs.
   */
  cached(address: string): ResolvedLink | null | undefined {
    const now = this.now();
    const entry = this.local.get(address);
    if (entry) {
      const age = now - entry.checkedAt;
      if (age >= this.opts.localTtlMs) {
        if (!this.deps.invalidations.subscribed(this.deps.keys.channel)) return undefined;
        if (now >= entry.refreshAt)
          void this.loadOnce(address).catch((err: unknown) => this.deps.logger.debug({ err, address }, 'link cache: refresh failed'));
      }
      this.lookups.local++;
      return entry.link;
    }
    const missing = this.missing.get(address);
    if (!missing || now - missing.checkedAt >= this.opts.localTtlMs) return undefined;
    this.lookups.local++;
    return missing.link;
  }

  /**
   * Like `resolve`, but never asks Postgres: undefined when neither this process nor Redis holds
   * an answer (or Redis is down). For clients that may not cost Postgres a query (too many unknown slugs).
   */
  async resolveFromCache(address: string): Promise<ResolvedLink | null | undefined> {
    const hit = this.cached(address);
    if (hit !== undefined) return hit;
    const pending = this.loading.get(address);
    if (pending) return pending;
    const epoch = this.epoch;
    try {
      const entry = await this.deps.redis.get(this.deps.keys.entry(address));
      if (entry == null) return undefined;
      this.lookups.redis++;
      return this.keep(address, entry, epoch);
    } catch {
      return undefined;
    }
  }

  async resolve(address: string): Promise<ResolvedLink | null> {
    const hit = this.cached(address);
    if (hit !== undefined) return hit;
    return this.loadOnce(address);
  }

  /** The slug's load in flight, or a new one: one at a time per slug. */
  private loadOnce(address: string): Promise<ResolvedLink | null> {
    let pending = this.loading.get(address);
    if (!pending) {
      pending = this.load(address).finally(() => this.loading.delete(address));
      this.loading.set(address, pending);
    }
    return pending;
  }

  forgetAll(): void {
    this.local.clear();
    this.localBytes = 0;
    this.missing.clear();
    this.epoch++;
  }

  private async load(address: string): Promise<ResolvedLink | null> {
    const { redis, keys, pool, logger } = this.deps;
    const epoch = this.epoch;
    let version: string | null = null;
    let redisUp = true;
    try {
      const [entry, v] = await redis.mget(keys.entry(address), keys.version(address));
      if (entry != null) {
        this.lookups.redis++;
        return this.keep(address, entry, epoch);
      }
      version = v ?? '';
    } catch (err) {
      redisUp = false;
      logger.debug({ err }, 'link cache: Redis unavailable, reading Postgres');
    }
    let link: ResolvedLink | null;
    try {
      link = await loadResolvedLink(pool, address);
      this.lookups.postgres++;
    } catch (err) {
      const stale = this.local.get(address) ?? this.missing.get(address);
      if (stale) {
        logger.warn({ err, address }, 'link cache: Postgres unavailable, serving the last known copy');
        return stale.link;
      }
      throw new LinkLookupUnavailableError(err);
    }
    const source = JSON.stringify(link);
    if (redisUp) {
      const ttl = link ? this.opts.redisTtlSeconds : this.opts.missingTtlSeconds;
      redis
        .eval(
          WRITE_IF_VERSION_LUA,
          3,
          keys.entry(address),
          keys.version(address),
          keys.missingBudget(Math.floor(this.now() / (this.opts.missingTtlSeconds * 1000))),
          version ?? '',
          source,
          ttl,
          this.opts.missingRedisMax,
        )
        .catch((err: unknown) => logger.debug({ err }, 'link cache: write-back failed'));
    }
    return this.keep(address, source, epoch, link);
  }

  /** The link `source` (its JSON) describes, kept as this process's copy unless an invalidation came since `epoch`. */
  private keep(address: string, source: string, epoch: number, parsed?: ResolvedLink | null): ResolvedLink | null {
    const digest = digestOf(source);
    const held = this.local.get(address) ?? this.missing.get(address);
    const link = held?.digest === digest ? held.link : parsed !== undefined ? parsed : fromRedisEntry(source);
    if (link) copyDigests.set(link, digest);
    if (epoch !== this.epoch) return link;
    this.forget(address);
    const now = this.now();
    // Up to half as long again, at random: copies loaded together (a restart, a warm-up) would
    // otherwise be refreshed together, a burst of Redis commands every interval.
    const refreshAt = now + this.opts.subscribedRefreshMs * (1 + Math.random() / 2);
    const entry = { link, checkedAt: now, refreshAt, digest, bytes: source.length };
    if (!link) {
      this.missing.set(address, entry);
      if (this.missing.size > this.opts.missingLocalMax) this.missing.delete(this.missing.keys().next().value!);
      return link;
    }
    this.local.set(address, entry);
    this.localBytes += entry.bytes;
    // The oldest out while over either bound; the copy just kept stays (it is being served).
    for (const oldest of this.local.keys()) {
      if ((this.local.size <= this.opts.localMax && this.localBytes <= this.opts.localMaxBytes) || oldest === address) break;
      this.forget(oldest);
    }
    return link;
  }

  private forget(address: string): void {
    const entry = this.local.get(address);
    if (entry) {
      this.localBytes -= entry.bytes;
      this.local.delete(address);
    }
    this.missing.delete(address);
  }
}
