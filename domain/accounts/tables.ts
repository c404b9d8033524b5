/** Accounts (tenants) and their API keys. */
import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { id, createdAt, updatedAt, tstz } from '../columns.js';

export const PLANS = ['starter', 'pro', 'business', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

export const accounts = pgTable(
  'accounts',
  {
    id: id(),
    name: text('name').notNull(),
    plan: text('plan').$type<Plan>().notNull(),
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
