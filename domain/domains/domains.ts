/**
 * An account's brand domains: adding one (normalised, one owner across the service, within the
 * plan's count), listing, changing where its root, unknown and expired addresses send people,
 * turning it off and on, removing it, and checking it (decision 0425).
 */
import { randomBytes } from 'node:crypto';
import { and, count, desc, eq } from 'drizzle-orm';
import type { Config } from '#platform/config/index.js';
import { isUniqueViolation } from '#platform/database/pool.js';
import { isUuid } from '#platform/format/ids.js';
import type { Database } from '../database.js';
import { accounts, domains, links, type DomainState } from '../schema.js';
import { DOMAINS_PER_PLAN } from '../accounts/plans.js';
import { AppError, ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { HOSTNAME_PROBLEMS, normaliseHostname } from './hostname.js';
import {
  isOwned,
  isRouted,
  observeDomain,
  stateAfterCheck,
  type DomainLookups,
  type DomainTargets,
  type HttpChallengeOptions,
} from './checks.js';
import { recordEvent } from '../webhooks/events.js';

export type DomainRow = typeof domains.$inferSelect;

/** Where a domain sends people in place of the service's own pages; null: the service's page. */
export interface DomainAddresses {
  rootUrl?: string | null;
  notFoundUrl?: string | null;
  expiredUrl?: string | null;
}

/** The service's own names, which no account may add, nor names under them. */
export function serviceHosts(config: Pick<Config, 'SHORT_URL_BASE' | 'PUBLIC_API_URL'>): string[] {
  return [...new Set([new URL(config.SHORT_URL_BASE).hostname, new URL(config.PUBLIC_API_URL).hostname])].map((h) =>
    h.replace(/^\[|\]$/g, ''),
  );
}

export async function addDomain(
  db: Database,
  config: Pick<Config, 'SHORT_URL_BASE' | 'PUBLIC_API_URL'>,
  accountId: string,
  input: { hostname: string } & DomainAddresses,
): Promise<DomainRow> {
  const name = normaliseHostname(input.hostname, serviceHosts(config));
  if ('problem' in name) throw new ValidationError([{ path: 'hostname', message: HOSTNAME_PROBLEMS[name.problem] }]);
  try {
    return await db.transaction(async (tx) => {
      // The account's row, locked: two adds at once cannot both pass the count.
      const [account] = await tx.select({ plan: accounts.plan }).from(accounts).where(eq(accounts.id, accountId)).for('update');
      if (!account) throw new NotFoundError('Account');
      const [held] = await tx.select({ n: count() }).from(domains).where(eq(domains.accountId, accountId));
      const most = DOMAINS_PER_PLAN[account.plan];
      if ((held?.n ?? 0) >= most)
        throw new ConflictError(
          'domain_limit_reached',
          `The ${account.plan} plan allows ${most} domain${most === 1 ? '' : 's'}; remove one to add another`,
        );
      const [row] = await tx
        .insert(domains)
        .values({
          accountId,
          hostname: name.hostname,
          token: newToken(),
          rootUrl: input.rootUrl ?? null,
          notFoundUrl: input.notFoundUrl ?? null,
          expiredUrl: input.expiredUrl ?? null,
        })
        .returning();
      return row!;
    });
  } catch (err) {
    // Said the same whichever account holds it: which account owns what is nobody else's business.
    if (isUniqueViolation(err, 'domains_hostname_key'))
      throw new ConflictError('domain_taken', 'This domain is already in use on this service', 'hostname');
    throw err;
  }
}

/** The token a TXT record (or the HTTP challenge) must hold: new for every domain row. */
function newToken(): string {
  return `qrlinks-${randomBytes(16).toString('hex')}`;
}

export async function listDomains(db: Database, accountId: string): Promise<DomainRow[]> {
  return db.select().from(domains).where(eq(domains.accountId, accountId)).orderBy(desc(domains.createdAt), desc(domains.id));
}

/** Another account's domain is "not found" exactly like a missing one. */
export async function getDomain(db: Database, accountId: string, id: string): Promise<DomainRow> {
  if (!isUuid(id)) throw new NotFoundError('Domain');
  const [row] = await db
    .select()
    .from(domains)
    .where(and(eq(domains.id, id), eq(domains.accountId, accountId)));
  if (!row) throw new NotFoundError('Domain');
  return row;
}

/**
 * Changes where the domain sends people, and turns it off (`disabled: true`: nothing answers for
 * it) or on again (`disabled: false`: pending, to be proved again, since the name may have
 * changed hands while it was off).
 */
export async function updateDomain(
  db: Database,
  accountId: string,
  id: string,
  input: DomainAddresses & { disabled?: boolean; isDefault?: boolean },
): Promise<DomainRow> {
  const current = await getDomain(db, accountId, id);
  const set: Partial<typeof domains.$inferInsert> = { updatedAt: new Date() };
  if (input.rootUrl !== undefined) set.rootUrl = input.rootUrl;
  if (input.notFoundUrl !== undefined) set.notFoundUrl = input.notFoundUrl;
  if (input.expiredUrl !== undefined) set.expiredUrl = input.expiredUrl;
  if (input.disabled === true && current.state !== 'disabled') set.state = 'disabled';
  if (input.disabled === false && current.state === 'disabled') Object.assign(set, { state: 'pending', verifiedAt: null });
  const disabledAfter = (set.state ?? current.state) === 'disabled';
  if (input.isDefault === true && disabledAfter)
    throw new DomainDisabledError('This domain is turned off; turn it on to make it the default');
  if (input.isDefault !== undefined) set.isDefault = input.isDefault;
  // A domain turned off stops being where new links go: they would be made where nothing answers.
  if (disabledAfter) set.isDefault = false;
  return db.transaction(async (tx) => {
    // One default per account: the one it was gives way in the same transaction.
    if (set.isDefault === true && !current.isDefault)
      await tx
        .update(domains)
        .set({ isDefault: false, updatedAt: new Date() })
        .where(and(eq(domains.accountId, accountId), eq(domains.isDefault, true)));
    const [row] = await tx
      .update(domains)
      .set(set)
      .where(and(eq(domains.id, current.id), eq(domains.accountId, accountId)))
      .returning();
    if (!row) throw new NotFoundError('Domain');
    return row;
  });
}

/**
 * Removes the domain; the name it had, for whoever must hear of it. A domain with links is a 409:
 * they are printed somewhere, and removing the name would break every one of them (move or
 * delete them first).
 */
export async function deleteDomain(db: Database, accountId: string, id: string): Promise<{ hostname: string }> {
  if (!isUuid(id)) throw new NotFoundError('Domain');
  return db.transaction(async (tx) => {
    // Locked, so that no link is put on it between the count and the delete.
    const [locked] = await tx
      .select({ id: domains.id })
      .from(domains)
      .where(and(eq(domains.id, id), eq(domains.accountId, accountId)))
      .for('update');
    if (!locked) throw new NotFoundError('Domain');
    const [held] = await tx.select({ n: count() }).from(links).where(eq(links.domainId, id));
    const n = held?.n ?? 0;
    if (n > 0)
      throw new ConflictError(
        'domain_in_use',
        `${n} link${n === 1 ? ' is' : 's are'} on this domain; move or delete ${n === 1 ? 'it' : 'them'} before removing the domain`,
      );
    const [row] = await tx.delete(domains).where(eq(domains.id, id)).returning({ hostname: domains.hostname });
    return row!;
  });
}

/**
 * Where the service is reached: DOMAIN_TARGET_ADDRESSES, or else the addresses the service's own
 * short host resolves to through the same resolver (a domain routed here resolves as it does).
 */
export async function checkTargets(
  dns: DomainLookups,
  config: Pick<Config, 'DOMAIN_TARGET_ADDRESSES' | 'DOMAIN_CNAME_TARGET' | 'SHORT_URL_BASE'>,
): Promise<DomainTargets> {
  const configured = configuredTargets(config);
  if (configured.addresses.length > 0) return configured;
  const own = await dns.addresses(configured.cname);
  return { addresses: 'records' in own ? own.records : [], cname: configured.cname };
}

/** How the HTTP challenge is asked, from the configuration. */
export function httpChallengeOptions(
  config: Pick<Config, 'DOMAIN_HTTP_PORT' | 'DOMAIN_CHECK_ALLOW_CIDRS' | 'DNS_TIMEOUT_MS'>,
): HttpChallengeOptions {
  return { port: config.DOMAIN_HTTP_PORT, allowCidrs: config.DOMAIN_CHECK_ALLOW_CIDRS, timeoutMs: config.DNS_TIMEOUT_MS };
}

/** The targets as configured, without asking DNS: what an answer shows before a check has run. */
export function configuredTargets(
  config: Pick<Config, 'DOMAIN_TARGET_ADDRESSES' | 'DOMAIN_CNAME_TARGET' | 'SHORT_URL_BASE'>,
): DomainTargets {
  return {
    addresses: config.DOMAIN_TARGET_ADDRESSES,
    cname: config.DOMAIN_CNAME_TARGET ?? new URL(config.SHORT_URL_BASE).hostname,
  };
}

/** A domain after a check, and the state it left when this check moved it (null: it did not). */
export interface CheckedDomain {
  domain: DomainRow;
  movedFrom: DomainState | null;
}

/**
 * Looks the domain up now and moves it on: pending to verified once it is proved theirs and
 * routed here; verified to misconfigured when it stops routing here (its links keep answering)
 * and back. A disabled domain is not checked (409). Of two checks at once, one moves it.
 */
export async function checkDomain(
  db: Database,
  dns: DomainLookups,
  targets: DomainTargets,
  http: HttpChallengeOptions,
  row: DomainRow,
  now = new Date(),
): Promise<CheckedDomain> {
  if (row.state === 'disabled') throw new DomainDisabledError();
  const seen = await observeDomain(dns, row.hostname, row.token, targets, http, now, row.state === 'pending');
  const state = stateAfterCheck(row.state, isOwned(seen, row.token), isRouted(seen, targets));
  const updated = await db.transaction(async (tx) => {
    const [moved] = await tx
      .update(domains)
      .set({
        state,
        observed: seen,
        checkedAt: now,
        verifiedAt: state === 'verified' && row.state === 'pending' ? now : row.verifiedAt,
        updatedAt: state === row.state ? row.updatedAt : now,
      })
      // Only from the state it was read in: a domain disabled, removed or moved by another check meanwhile stays so.
      .where(and(eq(domains.id, row.id), eq(domains.state, row.state)))
      .returning();
    if (moved && moved.state !== row.state && (moved.state === 'verified' || moved.state === 'misconfigured')) {
      await recordEvent(tx, {
        accountId: moved.accountId,
        type: moved.state === 'verified' ? 'domain.verified' : 'domain.misconfigured',
        data: { id: moved.id, hostname: moved.hostname, state: moved.state, previous_state: row.state, checked_at: now.toISOString() },
      });
    }
    return moved;
  });
  if (!updated) return { domain: await getDomain(db, row.accountId, row.id), movedFrom: null };
  return { domain: updated, movedFrom: updated.state === row.state ? null : row.state };
}

export class DomainDisabledError extends AppError {
  constructor(message = 'This domain is turned off; turn it on to check it again', path?: string) {
    super('domain_disabled', { message, ...(path ? { errors: [{ path, message }] } : {}) });
  }
}
