/**
 * The events a webhook endpoint can subscribe to, and how one is recorded: a delivery row per
 * endpoint that wants it, written by the same transaction as the change it tells of (so an event
 * is never sent for a change that rolled back, nor lost for one that committed), and a NOTIFY the
 * worker's dispatcher wakes on when that transaction commits.
 */
import { sql } from 'drizzle-orm';
import type { Executor } from '../database.js';

export const WEBHOOK_EVENTS = [
  'link.created',
  'link.updated',
  'link.deleted',
  'link.scanned',
  'link.scan_limit_reached',
  'bulk.completed',
  'export.completed',
  'cafe.menu_imported',
  'domain.verified',
  'domain.misconfigured',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** Sent by `POST /webhooks/:id/test` only; no endpoint subscribes to it. */
export const TEST_EVENT = 'webhook.test';

/** The Postgres channel a transaction that wrote deliveries notifies; the worker's dispatcher listens. */
export const DELIVERIES_CHANNEL = 'qrlinks_webhook_deliveries';

/** A new delivery's id, the `webhook-id` receivers deduplicate by. */
export const NEW_DELIVERY_ID = sql`'msg_' || replace(gen_random_uuid()::text, '-', '')`;

/** The link an event is about, for endpoints limited to some links or folders. */
export interface EventLink {
  id: string;
  folderId: string | null;
}

export interface RecordedEvent {
  accountId: string;
  type: WebhookEvent;
  data: Record<string, unknown>;
  link?: EventLink;
}

/** The body every delivery carries: the Standard Webhooks shape. */
export function eventBody(type: string, data: unknown, at = new Date()): string {
  return JSON.stringify({ type, timestamp: at.toISOString(), data });
}

/**
 * An endpoint wants an event about `link` when it is limited to nothing, or names the link or its
 * folder. (SQL over `webhook_endpoints e`; the link's id and folder as parameters.)
 */
export function wantsLink(link: EventLink | undefined) {
  if (!link) return sql`true`;
  return sql`((e.link_ids is null and e.folder_ids is null)
    or ${link.id}::uuid = any(coalesce(e.link_ids, '{}'))
    or (${link.folderId}::uuid is not null and ${link.folderId}::uuid = any(coalesce(e.folder_ids, '{}'))))`;
}

/**
 * Writes the event's deliveries, one per live endpoint of the account subscribed to its type
 * (and to its link), and wakes the dispatcher at commit. Returns how many were written. With no
 * endpoint it costs one indexed look-up.
 */
export async function recordEvent(db: Executor, event: RecordedEvent): Promise<number> {
  const body = eventBody(event.type, event.data);
  const rows = await db.execute<{ n: number }>(sql`
    with made as (
      insert into webhook_deliveries (id, endpoint_id, account_id, event_type, body)
      select ${NEW_DELIVERY_ID}, e.id, e.account_id, ${event.type}, ${body}
      from webhook_endpoints e
      where e.account_id = ${event.accountId} and e.disabled_at is null and ${event.type} = any(e.events) and ${wantsLink(event.link)}
      returning 1
    )
    select count(*)::int as n from made`);
  const n = rows.rows[0]?.n ?? 0;
  if (n > 0) await wakeDispatcher(db);
  return n;
}

/** NOTIFY is sent when the transaction commits (at once outside one); the dispatcher then queues what was written. */
export async function wakeDispatcher(db: Executor): Promise<void> {
  await db.execute(sql`select pg_notify(${DELIVERIES_CHANNEL}, '')`);
}
