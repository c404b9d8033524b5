/**
 * The worker's re-checks of brand domains (maintenance `check-domains`, every minute): a domain
 * just added is looked at every minute for its first hour (people set DNS records and wait), a
 * misconfigured one every ten minutes (so a fix shows soon), every other one hourly. A re-check
 * that moves a domain between verified and misconfigured tells the account's owners by mail;
 * nothing is ever removed or turned off by it.
 */
import { and, asc, eq, gte, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Logger } from '#platform/logger.js';
import type { Mailer } from '#platform/mail/index.js';
import type { Config } from '#platform/config/index.js';
import type { Redis } from '#platform/redis/client.js';
import type { Database } from '../database.js';
import { accounts, domains, memberships, users } from '../schema.js';
import { domainStateMail } from '../people/mails.js';
import { domainRecords, type DomainLookups, type DomainRecord } from './checks.js';
import { checkDomain, checkTargets, httpChallengeOptions, type DomainRow } from './domains.js';
import { announceDomainChange } from './served-hosts.js';

/** How often each kind of domain is looked at again. */
export const RECHECK = {
  /** A pending domain added less than `freshForMs` ago is looked at every `freshEveryMs`. */
  freshEveryMs: 60_000,
  freshForMs: 3_600_000,
  misconfiguredEveryMs: 600_000,
  /** Every other domain (verified, or pending for longer). */
  settledEveryMs: 3_600_000,
} as const;

/** Most domains one run checks; the rest are due still and go first next time (oldest check first). */
const BATCH = 200;
/** Domains checked at once: each waits on DNS, not on this process. */
const CONCURRENCY = 8;

export interface RecheckContext {
  db: Database;
  redis: Redis;
  dns: DomainLookups;
  config: Pick<
    Config,
    | 'DOMAIN_TARGET_ADDRESSES'
    | 'DOMAIN_CNAME_TARGET'
    | 'SHORT_URL_BASE'
    | 'PUBLIC_API_URL'
    | 'REDIS_NAMESPACE'
    | 'DOMAIN_HTTP_PORT'
    | 'DOMAIN_CHECK_ALLOW_CIDRS'
    | 'DNS_TIMEOUT_MS'
  >;
  mailer: Mailer;
  logger: Logger;
}

export async function recheckDomains(ctx: RecheckContext, now = new Date()): Promise<{ checked: number; moved: number }> {
  const due = await dueDomains(ctx.db, now);
  if (due.length === 0) return { checked: 0, moved: 0 };
  const targets = await checkTargets(ctx.dns, ctx.config);
  const http = httpChallengeOptions(ctx.config);
  let moved = 0;
  const queue = [...due];
  const run = async () => {
    for (let row = queue.shift(); row; row = queue.shift()) {
      try {
        const { domain, movedFrom } = await checkDomain(ctx.db, ctx.dns, targets, http, row, now);
        if (movedFrom === null) continue;
        moved++;
        await announceDomainChange(ctx.redis, ctx.config.REDIS_NAMESPACE, domain.hostname, ctx.logger);
        if (domain.state === 'misconfigured' || (domain.state === 'verified' && movedFrom === 'misconfigured')) {
          await tellOwners(ctx, domain, domainRecords(domain.hostname, domain.token, targets, domain.observed));
        }
      } catch (err) {
        ctx.logger.warn({ err, domain: row.hostname }, 'domain re-check failed');
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, due.length) }, run));
  return { checked: due.length, moved };
}

/** The domains whose next check is due at `now`, oldest check first. */
export async function dueDomains(db: Database, now: Date): Promise<DomainRow[]> {
  const ago = (ms: number) => new Date(now.getTime() - ms);
  return db
    .select()
    .from(domains)
    .where(
      and(
        ne(domains.state, 'disabled'),
        or(
          isNull(domains.checkedAt),
          and(
            eq(domains.state, 'pending'),
            gte(domains.createdAt, ago(RECHECK.freshForMs)),
            lt(domains.checkedAt, ago(RECHECK.freshEveryMs)),
          ),
          and(eq(domains.state, 'misconfigured'), lt(domains.checkedAt, ago(RECHECK.misconfiguredEveryMs))),
          lt(domains.checkedAt, ago(RECHECK.settledEveryMs)),
        ),
      ),
    )
    .orderBy(sql`${domains.checkedAt} asc nulls first`, asc(domains.id))
    .limit(BATCH);
}

async function tellOwners(ctx: RecheckContext, domain: DomainRow, records: DomainRecord[]): Promise<void> {
  const owners = await ctx.db
    .select({ email: users.email, accountName: accounts.name })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .innerJoin(accounts, eq(accounts.id, memberships.accountId))
    .where(and(eq(memberships.accountId, domain.accountId), eq(memberships.role, 'owner')));
  const lines = records.map((r) => `${r.type} ${r.name} → ${r.value} (found: ${r.found?.length ? r.found.join(', ') : 'nothing'})`);
  const link = `${new URL(ctx.config.PUBLIC_API_URL).origin}/`;
  for (const owner of owners) {
    const mail = domainStateMail({
      accountName: owner.accountName,
      hostname: domain.hostname,
      state: domain.state === 'misconfigured' ? 'misconfigured' : 'verified',
      records: lines,
      link,
    });
    const sent = await ctx.mailer.send({ to: owner.email, ...mail }).catch((err: unknown) => ({ delivered: false, error: String(err) }));
    if (!sent.delivered) ctx.logger.info({ domain: domain.hostname, to: owner.email }, 'domain state mail not delivered');
  }
}
