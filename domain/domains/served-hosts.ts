/**
 * The names a process answers TLS's "may I get a certificate for this?" with yes (`GET
 * /internal/tls-ask`, decision 0425): the service's own hosts and every brand domain that is
 * verified or misconfigured (a misconfigured domain keeps serving its links, so its certificate
 * must still renew); and each domain's token, which its HTTP challenge answers. Held in memory, so an ask is a set lookup, whatever floods it: never a query
 * or a DNS lookup per ask. Kept current by messages on the domains channel (every change to a
 * domain announces it), by a reload after a lost connection, and by a reload every
 * `reloadEveryMs` in case a message was lost anyway.
 */
import { ne } from 'drizzle-orm';
import type { Logger } from '#platform/logger.js';
import type { Redis } from '#platform/redis/client.js';
import type { Invalidations } from '#platform/redis/invalidations.js';
import type { Database } from '../database.js';
import { domains } from '../schema.js';

/** The channel every change to a domain is announced on, under the install's REDIS_NAMESPACE. */
export const domainsChannel = (namespace: string) => `${namespace}:domains`;

/** Tells every process that a domain changed (added, checked, turned off, removed); best effort. */
export async function announceDomainChange(redis: Redis, namespace: string, hostname: string, logger: Logger): Promise<void> {
  await redis.publish(domainsChannel(namespace), hostname).catch((err: unknown) => {
    logger.warn({ err, domain: hostname }, 'domain change not announced; other processes see it at their next reload');
  });
}

export class ServedHosts {
  private hosts: ReadonlySet<string> = new Set();
  /** Each domain's token, disabled ones aside: what its HTTP challenge answers. */
  private tokens: ReadonlyMap<string, string> = new Map();
  private reloading: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly deps: { db: Database; invalidations: Invalidations; namespace: string; logger: Logger },
    /** The service's own names, always served. */
    private readonly own: readonly string[],
    private readonly reloadEveryMs = 60_000,
  ) {}

  async start(): Promise<void> {
    await this.deps.invalidations.listen({
      channel: domainsChannel(this.deps.namespace),
      onMessage: () => void this.reload(),
      onReconnect: () => void this.reload(),
    });
    await this.reload();
    this.timer = setInterval(() => void this.reload(), this.reloadEveryMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Whether `host` (in the stored form: domain/domains/hostname.ts) is served. */
  has(host: string): boolean {
    return this.hosts.has(host) || this.own.includes(host);
  }

  /** Whether `token` is the challenge token of the domain `host` (not disabled). */
  answersChallenge(host: string, token: string): boolean {
    return this.tokens.get(host) === token;
  }

  /**
   * Reads the served names again. Messages during a read make one more read after it (a burst
   * of changes costs two reads, not one each); a failed read keeps the names it had.
   */
  reload(): Promise<void> {
    if (this.reloading) {
      this.again = true;
      return this.reloading;
    }
    this.reloading = (async () => {
      do {
        this.again = false;
        try {
          const rows = await this.deps.db
            .select({ hostname: domains.hostname, state: domains.state, token: domains.token })
            .from(domains)
            .where(ne(domains.state, 'disabled'));
          this.hosts = new Set(rows.filter((r) => r.state === 'verified' || r.state === 'misconfigured').map((r) => r.hostname));
          this.tokens = new Map(rows.map((r) => [r.hostname, r.token]));
        } catch (err) {
          this.deps.logger.warn({ err }, 'served domains not reloaded; the names read before stay');
        }
      } while (this.again);
    })().finally(() => (this.reloading = null));
    return this.reloading;
  }
}
