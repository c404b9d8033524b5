/**
 * Which domain a link is served on (decision 0426): the default domain (the host of
 * SHORT_URL_BASE; `domain_id` null) or one of its account's brand domains. Its slug is unique on
 * its domain and within its account. What URL that gives is link-addresses.ts's.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { Config } from '#platform/config/index.js';
import type { Executor } from '../database.js';
import { domains } from '../schema.js';
import { ValidationError } from '../errors.js';
import { DomainDisabledError } from '../domains/domains.js';
import { hostOfHeader } from '../domains/hostname.js';
import { defaultHostname, linkShortUrl } from './link-addresses.js';

/** A brand domain a link is on; null stands for the default domain. */
export interface LinkDomain {
  id: string;
  hostname: string;
}

/**
 * The domain a link asks for in its `domain` field: undefined, the account's default domain (a
 * brand one, or none); null or the default host, the default domain; any spelling of one of the
 * account's domains, that one, unless it is turned off (409). A name that is not the account's is
 * a 400 at `path`, said the same whether another account holds it or nobody does.
 */
export async function chooseLinkDomain(
  db: Executor,
  config: Pick<Config, 'SHORT_URL_BASE'>,
  accountId: string,
  requested: string | null | undefined,
  path = 'domain',
): Promise<LinkDomain | null> {
  if (requested === undefined) {
    const [byDefault] = await db
      .select({ id: domains.id, hostname: domains.hostname })
      .from(domains)
      .where(and(eq(domains.accountId, accountId), eq(domains.isDefault, true)));
    return byDefault ?? null;
  }
  if (requested === null) return null;
  const hostname = hostOfHeader(requested);
  if (hostname === defaultHostname(config)) return null;
  const [row] =
    hostname === null
      ? []
      : await db
          .select({ id: domains.id, hostname: domains.hostname, state: domains.state })
          .from(domains)
          .where(and(eq(domains.accountId, accountId), eq(domains.hostname, hostname)));
  if (!row) throw new ValidationError([{ path, message: 'Not one of this account’s domains' }]);
  if (row.state === 'disabled') throw new DomainDisabledError('This domain is turned off; turn it on to put links on it', path);
  return { id: row.id, hostname: row.hostname };
}

/** Whether `requested` (a link's `domain` field) names `hostname` (null: the default domain), in any spelling. */
export function isLinkDomain(config: Pick<Config, 'SHORT_URL_BASE'>, hostname: string | null, requested: string | null): boolean {
  const own = hostname ?? defaultHostname(config);
  return requested === null ? hostname === null : hostOfHeader(requested) === own;
}

/** The names of the brand domains `ids` (null ids are the default domain's links), by id. */
export async function domainNames(db: Executor, ids: ReadonlyArray<string | null>): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db.select({ id: domains.id, hostname: domains.hostname }).from(domains).where(inArray(domains.id, wanted));
  return new Map(rows.map((r) => [r.id, r.hostname]));
}

/** The name of the brand domain a link row is on; null: the default domain. */
export async function domainNameOf(db: Executor, row: { domainId: string | null }): Promise<string | null> {
  if (row.domainId === null) return null;
  return (await domainNames(db, [row.domainId])).get(row.domainId) ?? null;
}

/** The short URL of a link row: on its brand domain, else on the default domain. */
export async function shortUrlOfLink(
  db: Executor,
  config: Pick<Config, 'SHORT_URL_BASE'>,
  row: { domainId: string | null; slug: string },
): Promise<string> {
  return linkShortUrl(config, await domainNameOf(db, row), row.slug);
}
