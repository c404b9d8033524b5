/**
 * Webhooks (decision 0427): an account's endpoints, the deliveries made to them (one per event and
 * endpoint, retried under the same `webhook-id`), each attempt's outcome, and the scans waiting to
 * be sent to an endpoint in a `link.scanned` batch.
 */
import { sql } from 'drizzle-orm';
import { bigserial, boolean, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { id, createdAt, updatedAt, tstz } from '../columns.js';
import { accountId } from '../accounts/tables.js';

export const DELIVERY_STATES = ['pending', 'delivered', 'failed', 'cancelled'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: id(),
    accountId: accountId(),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    /** The event types delivered (domain/webhooks/events.ts). */
    events: text('events').array().notNull(),
    /** Events about a link go only for these links or links in these folders; both null: every link. */
    linkIds: uuid('link_ids').array(),
    folderIds: uuid('folder_ids').array(),
    /** `whsec_` and 32 random bytes in base64: it signs every delivery (Standard Webhooks). */
    secret: text('secret').notNull(),
    /** After a rotation, the old secret signs beside the new one until it expires. */
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: tstz('previous_secret_expires_at'),
    /** Set when the account turns it off, the receiver answers 410, or it keeps failing. */
    disabledAt: tstz('disabled_at'),
    disabledReason: text('disabled_reason').$type<'manual' | 'gone' | 'failing'>(),
    /** Attempts failed since the last success, and when the first of them failed. */
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    failingSince: tstz('failing_since'),
    lastSuccessAt: tstz('last_success_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('webhook_endpoints_account_idx').on(t.accountId, t.createdAt.desc()),
    // Each event written (a link change, a batch of scans) asks for the account's live endpoints.
    index('webhook_endpoints_live_idx')
      .on(t.accountId)
      .where(sql`${t.disabledAt} is null`),
  ],
);

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    /** The `webhook-id` header: `msg_` and 32 hex digits, the same on every attempt and replay. */
    id: text('id').primaryKey(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    accountId: accountId(),
    eventType: text('event_type').notNull(),
    /** The exact bytes signed and sent: `{type, timestamp, data}`. */
    body: text('body').notNull(),
    state: text('state').$type<DeliveryState>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** Set when a job was queued for it; the dispatcher queues those without one. */
    queuedAt: tstz('queued_at'),
    nextAttemptAt: tstz('next_attempt_at'),
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    deliveredAt: tstz('delivered_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt.desc(), t.id.desc()),
    index('webhook_deliveries_unqueued_idx')
      .on(t.createdAt)
      .where(sql`${t.state} = 'pending' and ${t.queuedAt} is null`),
    index('webhook_deliveries_pending_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.state} = 'pending'`),
    index('webhook_deliveries_created_idx').on(t.createdAt),
  ],
);

/** One HTTP request of a delivery: what came back, kept 30 days with its delivery. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deliveryId: text('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attemptedAt: tstz('attempted_at').notNull().defaultNow(),
    /** The receiver's status; null when no answer came (timeout, refused, address not allowed). */
    status: integer('status'),
    durationMs: integer('duration_ms').notNull(),
    /** The first 4 KB of the answer's body, as text. */
    response: text('response').notNull().default(''),
    error: text('error'),
    /** Why it was made: the schedule, a replay or the endpoint's test. */
    trigger: text('trigger').$type<'schedule' | 'replay' | 'test'>().notNull().default('schedule'),
    succeeded: boolean('succeeded').notNull(),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId, t.id)],
);

/**
 * Scans waiting for an endpoint's next `link.scanned` delivery, written by the ingesting
 * transaction that wrote the scans (so each is queued exactly once) and taken, 100 at a time, by
 * the transaction that writes the delivery carrying them.
 */
export const webhookScanQueue = pgTable(
  'webhook_scan_queue',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    queuedAt: tstz('queued_at').notNull().defaultNow(),
    /** The scan as the event tells it: `{id, at, link, country, city, device, os, browser, bot}`. */
    scan: jsonb('scan').notNull(),
  },
  (t) => [index('webhook_scan_queue_endpoint_idx').on(t.endpointId, t.id)],
);
