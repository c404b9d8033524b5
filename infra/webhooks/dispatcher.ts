/**
 * The worker's webhook dispatcher: turns what the domain wrote into BullMQ jobs of the `webhooks`
 * queue. Woken by Postgres NOTIFY when a transaction that wrote deliveries (or queued scans for
 * `link.scanned`) commits, and every second anyway: scans waiting for their batch are made into
 * deliveries (domain/webhooks/dispatch.ts), new deliveries are claimed and queued, and every
 * minute pending deliveries whose job was lost are queued again. Every worker process runs one;
 * the rows each takes are its own (SKIP LOCKED), and a delivery's job id is the delivery's id.
 */
import type { JobsOptions } from 'bullmq';
import type { AppContext } from '../context.js';
import { listenForNotifications } from '#platform/database/listen.js';
import { DELIVERIES_CHANNEL } from '#domain/webhooks/events.js';
import { batchWaitingScansOnce, claimNewDeliveries, overdueDeliveries, type ClaimedDelivery } from '#domain/webhooks/dispatch.js';
import type { WebhookDeliveryJob } from '#domain/jobs/job-kinds.js';

const TICK_MS = 1000;
const LOST_SWEEP_MS = 60_000;
/** A pending delivery this late past its attempt is taken to have lost its job. */
const LOST_AFTER_MS = 120_000;
const CLAIM_BATCH = 500;

/** The job of a delivery on the retry schedule: its attempts left, BullMQ waiting between them (workers/processors/webhooks.ts). */
export function deliveryJob(
  ctx: Pick<AppContext, 'config'>,
  d: ClaimedDelivery,
): { name: string; data: WebhookDeliveryJob; opts: JobsOptions } {
  const total = ctx.config.WEBHOOK_RETRY_SCHEDULE.length + 1;
  return {
    name: 'deliver',
    data: { deliveryId: d.id, endpointId: d.endpointId, trigger: 'schedule', attemptsBefore: d.attempts },
    opts: {
      jobId: d.id,
      attempts: Math.max(1, total - d.attempts),
      backoff: { type: 'webhook' },
      removeOnComplete: true,
      removeOnFail: true,
    },
  };
}

export interface Dispatcher {
  /** Runs one pass now (tests, and the NOTIFY). */
  wake(): void;
  close(): Promise<void>;
}

export function startDispatcher(ctx: AppContext): Dispatcher {
  let running: Promise<void> | null = null;
  let again = false;
  let closed = false;
  let lastLostSweep = 0;
  // Enough to keep every slot of an endpoint busy with the next ones ready, not more.
  const queuedPerEndpoint = ctx.config.WEBHOOK_ENDPOINT_CONCURRENCY * 4;

  const pass = async () => {
    await batchWaitingScansOnce(ctx.db, ctx.config.WEBHOOK_SCAN_BATCH_MS);
    for (;;) {
      const claimed = await claimNewDeliveries(ctx.db, CLAIM_BATCH, queuedPerEndpoint);
      if (claimed.length === 0) break;
      await ctx.queues.webhooks.addBulk(claimed.map((d) => deliveryJob(ctx, d)));
      if (claimed.length < CLAIM_BATCH) break;
    }
    if (Date.now() - lastLostSweep >= LOST_SWEEP_MS) {
      lastLostSweep = Date.now();
      const lost = await overdueDeliveries(ctx.db, LOST_AFTER_MS);
      if (lost.length > 0) await ctx.queues.webhooks.addBulk(lost.map((d) => deliveryJob(ctx, d)));
    }
  };

  const wake = () => {
    if (closed) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await pass();
        } catch (err) {
          ctx.logger.warn({ err: (err as Error).message }, 'webhook dispatch pass failed');
        }
      } while (again && !closed);
      running = null;
    })();
  };

  const listening = listenForNotifications(ctx.config.DATABASE_URL, DELIVERIES_CHANNEL, wake, ctx.logger);
  const tick = setInterval(wake, TICK_MS);
  tick.unref();
  return {
    wake,
    close: async () => {
      closed = true;
      clearInterval(tick);
      await listening.close();
      await running;
    },
  };
}
