/**
 * The delivery log an account reads: an endpoint's deliveries newest first (30 days of them), one
 * delivery with its body and every attempt, and the deliveries made by hand (an endpoint's test
 * event, a replay of an old one).
 */
import { and, asc, count, desc, eq, type SQL } from 'drizzle-orm';
import type { Database, Executor } from '../database.js';
import { webhookAttempts, webhookDeliveries } from '../schema.js';
import type { DeliveryState } from './tables.js';
import { NotFoundError } from '../errors.js';
import { eventBody, NEW_DELIVERY_ID, TEST_EVENT } from './events.js';
import { getEndpoint } from './endpoints.js';

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;

export interface DeliveryListQuery {
  state?: DeliveryState;
  eventType?: string;
  page: number;
  limit: number;
}

export async function listDeliveries(
  db: Database,
  accountId: string,
  endpointId: string,
  q: DeliveryListQuery,
): Promise<{ rows: DeliveryRow[]; total: number }> {
  const endpoint = await getEndpoint(db, accountId, endpointId);
  const where: SQL[] = [eq(webhookDeliveries.endpointId, endpoint.id), eq(webhookDeliveries.accountId, accountId)];
  if (q.state) where.push(eq(webhookDeliveries.state, q.state));
  if (q.eventType) where.push(eq(webhookDeliveries.eventType, q.eventType));
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(webhookDeliveries)
      .where(and(...where))
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit),
    db
      .select({ n: count() })
      .from(webhookDeliveries)
      .where(and(...where)),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** Another account's delivery is "not found" exactly like a missing one. */
export async function getDelivery(db: Executor, accountId: string, id: string): Promise<{ delivery: DeliveryRow; attempts: AttemptRow[] }> {
  if (!/^msg_[0-9a-f]{32}$/.test(id)) throw new NotFoundError('Delivery');
  const [delivery] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.accountId, accountId)));
  if (!delivery) throw new NotFoundError('Delivery');
  const attempts = await db
    .select()
    .from(webhookAttempts)
    .where(eq(webhookAttempts.deliveryId, delivery.id))
    .orderBy(asc(webhookAttempts.id));
  return { delivery, attempts };
}

/**
 * A `webhook.test` delivery to the endpoint, whether or not it is turned on (a test is how one
 * finds out it answers again): sent once, not retried.
 */
export async function createTestDelivery(db: Database, accountId: string, endpointId: string, now = new Date()): Promise<DeliveryRow> {
  const endpoint = await getEndpoint(db, accountId, endpointId);
  const body = eventBody(
    TEST_EVENT,
    { webhook_id: endpoint.id, message: 'A test event from qrlinks: this endpoint receives and verifies webhooks.' },
    now,
  );
  const [row] = await db
    .insert(webhookDeliveries)
    .values({ id: NEW_DELIVERY_ID, endpointId: endpoint.id, accountId, eventType: TEST_EVENT, body, queuedAt: now })
    .returning();
  return row!;
}
