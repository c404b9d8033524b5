/** Idempotency keys of bulk requests. */
import { index, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../columns.js';
import { accountId } from '../accounts/tables.js';

/**
 * `Idempotency-Key` headers of bulk requests, per account: the first request's body hash and the
 * job it started, so a retry (same key, same body) is answered from that job instead of making a
 * second batch, and the same key with another body is a 409. Kept at least
 * IDEMPOTENCY_KEY_TTL_MS (24 h); the maintenance queue prunes older ones.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    accountId: accountId(),
    key: text('key').notNull(),
    /** SHA-256 (hex) of the request's canonical form (infra/jobs/bulk-idempotency.ts). */
    requestHash: text('request_hash').notNull(),
    jobId: uuid('job_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'idempotency_keys_pk', columns: [t.accountId, t.key] }),
    index('idempotency_keys_created_idx').on(t.createdAt),
  ],
);
