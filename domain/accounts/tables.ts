/** Accounts (tenants) and their API keys. */
import { sql } from 'drizzle-orm';
import { boolean, check, date, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { id, createdAt, updatedAt, tstz } from '../columns.js';

export const PLANS = ['starter', 'pro', 'business', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

export const accounts = pgTable(
  'accounts',
  {
    id: id(),
    name: text('name').notNull(),
    plan: text('plan').$type<Plan>().notNull(),
    /**
     * The first UTC day whose per-dimension day rows of the account's links are not in
     * scan_rollups yet: days before it have them all, it and later days none (they are read from
     * link_scan_hours). Moved to today by the maintenance queue (rollLinkDays in
     * domain/analytics/rollups.ts; docs/decisions/0352-a-link-s-day-rows-once-the-day-is-closed.md).
     */
    linkDaysFrom: date('link_days_from')
      .notNull()
      .default(sql`((now() at time zone 'UTC')::date)`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [check('accounts_plan_check', sql`${t.plan} in ('starter', 'pro', 'business', 'enterprise')`)],
);

/** The owning account's id: every tenant-owned table carries it, and the account's deletion takes its rows. */
export const accountId = () =>
  uuid('account_id')
    .notNull()
    .references(() => accounts.id, { onDelete: 'cascade' });

export const apiKeys = pgTable(
  'api_keys',
  {
    id: id(),
    accountId: accountId(),
    name: text('name'),
    /** SHA-256 (hex) of the whole key; the key itself is shown once and never stored. */
    keyHash: text('key_hash').notNull(),
    /** The first characters of the key, so a person can tell keys apart in a list. */
    keyPrefix: text('key_prefix').notNull(),
    scopes: text('scopes').array().notNull(),
    /**
     * The person who made the key (null: an operator's key from the CLI). The key is worth no more
     * than that person's current role in the account, and nothing once they leave it. No foreign
     * key: users live in domain/people, which depends on this module.
     */
    createdByUserId: uuid('created_by_user_id'),
    active: boolean('active').notNull().default(true),
    expiresAt: tstz('expires_at'),
    lastUsedAt: tstz('last_used_at'),
    revokedAt: tstz('revoked_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('api_keys_key_hash_idx').on(t.keyHash),
    index('api_keys_account_idx').on(t.accountId, t.createdAt.desc()),
    // The expiry sweep reads only keys that can still expire.
    index('api_keys_expiry_idx')
      .on(t.expiresAt)
      .where(sql`${t.active} and ${t.expiresAt} is not null`),
  ],
);
