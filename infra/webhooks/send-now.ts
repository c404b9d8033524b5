/**
 * A delivery sent at once by hand (an endpoint's test event, a replay): one job of the webhooks
 * queue with a single attempt, and a wait for that attempt's outcome so the answer can show it.
 * The attempt is recorded by the worker whatever the wait does: an answer that comes after the
 * wait ends is in the delivery log.
 */
import { count, eq } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import { webhookAttempts } from '#domain/schema.js';
import { within } from '#platform/with-timeout.js';

const POLL_MS = 100;

export async function sendNow(
  ctx: Pick<AppContext, 'db' | 'config' | 'queues'>,
  delivery: { id: string; endpointId: string; attempts: number },
  trigger: 'test' | 'replay',
): Promise<{ attempted: boolean }> {
  const before = await attemptsOf(ctx, delivery.id);
  await within(
    ctx.queues.webhooks.add(
      'deliver',
      { deliveryId: delivery.id, endpointId: delivery.endpointId, trigger, attemptsBefore: delivery.attempts },
      // Its own job id: the delivery's may still be waiting for its next scheduled attempt.
      { jobId: `${trigger}-${delivery.id}-${Date.now()}`, attempts: 1, removeOnComplete: true, removeOnFail: true },
    ),
    1000,
    undefined,
  );
  // The receiver's time, and a little for the queue and the worker.
  const deadline = Date.now() + ctx.config.WEBHOOK_TIMEOUT_MS + 2000;
  while (Date.now() < deadline) {
    if ((await attemptsOf(ctx, delivery.id)) > before) return { attempted: true };
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return { attempted: false };
}

async function attemptsOf(ctx: Pick<AppContext, 'db'>, deliveryId: string): Promise<number> {
  const [row] = await ctx.db.select({ n: count() }).from(webhookAttempts).where(eq(webhookAttempts.deliveryId, deliveryId));
  return row?.n ?? 0;
}
