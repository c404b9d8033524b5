/**
 * What a process knows of the names it is reached by: which it answers TLS's "may I get a
 * certificate for this?" with yes (`GET /internal/tls-ask`, decision 0425): the service's own hosts
 * and every brand domain that is verified or misconfigured (a misconfigured domain keeps serving
 * its links, so its certificate must still renew); each domain's token, which its HTTP challenge
 * answers; and how a scan's Host is routed (`routeOf`, decision 0426). Held in memory, so an ask
 * or a scan's Host is a map lookup, whatever floods it: never a query or a DNS lookup. Kept current by messages on the domains channel (every change to a
 * domain announces it), by a reload after a lost connection, and by a reload every
 * `reloadEveryMs` in case a message was lost anyway.
 */
import type { Logger } from '#platform/logger.js';
import type { Redis } from '#platform/redis/client.js';
import type { Invalidations } from '#platform/redis/invalidations.js';
import type { Database } from '../database.js';
import { domains } from '../schema.js';
import { hostOfHeader } from './hostname.js';

/** A brand domain that serves its links, and where it sends people instead of the service's pages. */
export interface BrandHost {
  hostname: string;
  rootUrl: string | null;
  notFoundUrl: string | null;
  expiredUrl: string | null;
}

/**
 * How a request's Host is answered: `default`, the default domain's links (the service's own
 * hosts, and any name that is no account's: an address, an internal name); `brand`, that domain's
 * links; `closed`, nothing but a 404 (a brand domain that is pending or turned off: the default
 * domain's links must not appear under an account's name, and its own are not served yet).
 */
export type HostRoute = { kind: 'default' } | { kind: 'brand'; domain: BrandHost } | { kind: 'closed' };

const DEFAULT_ROUTE: HostRoute = Object.freeze({ kind: 'default' });
const CLOSED_ROUTE: HostRoute = Object.freeze({ kind: 'closed' });

/** Host headers whose route is remembered at most; a flood of made-up ones empties it, never grows it. */
const ROUTES_MAX = 10_000;

/** The channel every change to a domain is announced on, under the install's REDIS_NAMESPACE. */
export const domainsChannel = (namespace: string) => `${namespace}:domains`;

/** Tells every process that a domain changed (added, checked, turned off, removed); best effort. */
export async function announceDomainChange(redis: Redis, namespace: string, hostname: string, logger: Logger): Promise<void> {
  await redis.publish(domainsChannel(namespace), hostname).catch((err: unknown) => {
    logger.warn({ err, domain: hostname }, 'domain change not announced; other processes see it at their next reload');
  });
}

export class ServedHosts {
  /** Each domain's token, disabled ones aside: what its HTTP challenge answers. */
  private tokens: ReadonlyMap<string, string> = new Map();
  /** Every brand domain's route by its name: those that serve, and those that do not (closed). */
  private brands: ReadonlyMap<string, HostRoute> = new Map();
  /** Routes by the Host header as sent (port, case and all), so a scan spells nothing out; emptied by every reload. */
  private routes = new Map<string, HostRoute>();
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
    return this.brands.get(host)?.kind === 'brand' || this.own.includes(host);
  }

  /**
   * How a request with this Host header is routed. The header as sent is the key, so the usual
   * scan costs one map lookup; an unseen spelling is put in the stored form once.
   */
  routeOf(header: string | undefined): HostRoute {
    if (header === undefined) return DEFAULT_ROUTE;
    let route = this.routes.get(header);
    if (route === undefined) {
      const host = hostOfHeader(header);
      route = (host !== null && this.brands.get(host)) || DEFAULT_ROUTE;
      if (this.routes.size >= ROUTES_MAX) this.routes.clear();
      this.routes.set(header, route);
    }
    return route;
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
            .select({
              hostname: domains.hostname,
              state: domains.state,
              token: domains.token,
              rootUrl: domains.rootUrl,
              notFoundUrl: domains.notFoundUrl,
              expiredUrl: domains.expiredUrl,
            })
            .from(domains);
          this.tokens = new Map(rows.filter((r) => r.state !== 'disabled').map((r) => [r.hostname, r.token]));
          this.brands = new Map(
            rows.map(({ hostname, state, rootUrl, notFoundUrl, expiredUrl }) => [
              hostname,
              state === 'verified' || state === 'misconfigured'
                ? { kind: 'brand', domain: { hostname, rootUrl, notFoundUrl, expiredUrl } }
                : CLOSED_ROUTE,
            ]),
          );
          this.routes = new Map();
        } catch (err) {
          this.deps.logger.warn({ err }, 'served domains not reloaded; the names read before stay');
        }
      } while (this.again);
    })().finally(() => (this.reloading = null));
    return this.reloading;
  }
}
