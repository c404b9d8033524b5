/**
 * Unknown slugs per client on the redirect. A scanner of random slugs (enumerating links, or just
 * load) gets `max` 404s per window per client, then a 429 page until the window ends. Only
 * answers that are 404s count, so a venue where hundreds of phones behind one NAT scan valid
 * codes never meets it. The client is a hash of its address, an IPv6 address by its /64
 * (`rateLimitIdentity`): no raw IP is stored. Counted in Redis (every redirect process shares the
 * window), in process while Redis is away.
 *
 * A process that has seen a client go over the limit remembers it until the window ends
 * (`blockedFor`, no I/O), and the routes then resolve that client's slugs from the caches only:
 * links scanned lately (in Redis for an hour) still open, while the client's random slugs cost
 * Postgres nothing. Before a slug goes to Postgres, `blockedAnywhere` asks Redis too, so a client
 * that went over the limit on another redirect process is answered the same here.
 */
import { AttemptLimit } from '#platform/redis/attempt-limit.js';
import { rateLimitIdentity } from '#platform/net/client-identity.js';
import type { Redis } from '#platform/redis/client.js';
import type { Logger } from '#platform/logger.js';
import { BoundedCache } from '#platform/bounded-cache.js';
import type { LinkCacheKeys } from './keys.js';

/** Clients a process remembers as over the limit; beyond it the oldest are forgotten (their next 404 asks Redis again). */
const BLOCKED_CLIENTS_MAX = 100_000;

export interface NotFoundLimitOptions {
  /** 404s a client gets per window; the next unknown slug is a 429. */
  max: number;
  windowMs: number;
}

export interface NotFoundAnswer {
  /** A 404 may be answered; else 429 with Retry-After. */
  allowed: boolean;
  retryAfterSeconds: number;
}

export class NotFoundLimit {
  private readonly attempts: AttemptLimit;
  /** Client → epoch ms its window ends, for clients this process saw go over the limit. */
  private readonly blocked = new BoundedCache<string, number>(BLOCKED_CLIENTS_MAX);

  constructor(
    redis: Redis,
    logger: Logger,
    private readonly keys: LinkCacheKeys,
    private readonly opts: NotFoundLimitOptions,
  ) {
    this.attempts = new AttemptLimit(redis, logger);
  }

  /** Who is counted: a hash of the address (IPv6 by /64). */
  clientOf(ip: string): string {
    return rateLimitIdentity(ip);
  }

  /** Seconds until the client's window ends when this process knows it is over the limit, else 0. No I/O. */
  blockedFor(client: string, now = Date.now()): number {
    const until = this.blocked.get(client);
    return until !== undefined && until > now ? Math.ceil((until - now) / 1000) : 0;
  }

  /**
   * Like `blockedFor`, but a client this process does not know as blocked is looked up in Redis
   * (one MGET), where every process counts it; while Redis is away, this process's own counts
   * decide.
   */
  async blockedAnywhere(client: string, now = Date.now()): Promise<number> {
    const known = this.blockedFor(client, now);
    if (known > 0) return known;
    const answer = await this.attempts.check(this.counters(client));
    if (answer.allowed) return 0;
    this.remember(client, answer.retryAfterSeconds);
    return answer.retryAfterSeconds;
  }

  /** Counts one unknown slug for the client: allowed while it is within `max` this window. */
  async count(client: string): Promise<NotFoundAnswer> {
    const answer = await this.attempts.fail(this.counters(client));
    if (!answer.allowed) this.remember(client, answer.retryAfterSeconds);
    return answer;
  }

  // AttemptLimit refuses once a counter reaches its max; max + 1 lets exactly `max` 404s through.
  private counters(client: string) {
    return [{ key: this.keys.notFound(client), max: this.opts.max + 1, windowMs: this.opts.windowMs }];
  }

  private remember(client: string, retryAfterSeconds: number): void {
    const ends = Date.now() + retryAfterSeconds * 1000;
    this.blocked.set(client, ends);
  }
}
