/** An account's own short domains (brand domains), proved theirs and re-checked. */
import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, createdAt, updatedAt, tstz } from '../columns.js';
import { accountId } from '../accounts/tables.js';

/**
 * pending (added, not yet proved), verified (proved theirs and pointing at the service),
 * misconfigured (was verified, no longer points at the service; its links still answer),
 * disabled (turned off by the account; nothing answers for it).
 */
export const DOMAIN_STATES = ['pending', 'verified', 'misconfigured', 'disabled'] as const;
export type DomainState = (typeof DOMAIN_STATES)[number];

/** What the last check saw, for the answer's records beside what to set. */
export interface DomainObservation {
  checkedAt: string;
  /** TXT strings found at `_qrlinks-challenge.<host>`. */
  txt: string[];
  /** Addresses the host resolved to (A and AAAA, through any CNAME). */
  addresses: string[];
  /** The CNAME target found at the host, if any. */
  cname: string | null;
  /** The HTTP challenge's answer: whether the token came back from the host. */
  http: boolean;
  /** The service's addresses the check compared with (DOMAIN_TARGET_ADDRESSES, or its own host's). */
  targets: string[];
  /** Why a lookup failed (timeout, no such name), per record kind. */
  errors: Record<string, string>;
}

export const domains = pgTable(
  'domains',
  {
    id: id(),
    accountId: accountId(),
    /** Normalised (domain/domains/hostname.ts): punycode, lower case, no trailing dot, no port. */
    hostname: text('hostname').notNull(),
    state: text('state').$type<DomainState>().notNull().default('pending'),
    /** What the TXT record or the HTTP challenge must hold; new for every domain row. */
    token: text('token').notNull(),
    /** Where `https://<host>/` sends a visitor; null: the service's own page. */
    rootUrl: text('root_url'),
    /** Where an unknown slug on this host sends a visitor; null: the branded not-found page. */
    notFoundUrl: text('not_found_url'),
    /** Where an expired or paused link on this host sends a visitor; null: the branded status page. */
    expiredUrl: text('expired_url'),
    /** The account's default domain: where its new links go when they name none (at most one per account). */
    isDefault: boolean('is_default').notNull().default(false),
    observed: jsonb('observed').$type<DomainObservation>(),
    verifiedAt: tstz('verified_at'),
    checkedAt: tstz('checked_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // One owner per name across the whole service: a second account can add it only after the first deletes it.
    uniqueIndex('domains_hostname_key').on(t.hostname),
    uniqueIndex('domains_account_default_key')
      .on(t.accountId)
      .where(sql`${t.isDefault}`),
    index('domains_account_created_idx').on(t.accountId, t.createdAt.desc(), t.id.desc()),
    // The re-check sweep reads the domains due, oldest check first.
    index('domains_due_idx')
      .on(t.checkedAt)
      .where(sql`${t.state} <> 'disabled'`),
  ],
);
