/**
 * The `webhooks` queue: one job per delivery (its id the delivery's), run under a slot of its
 * endpoint (infra/webhooks/endpoint-slots.ts). With no slot free the job steps back for about a
 * second, untouched (not an attempt). A failed attempt with retries left throws, and BullMQ brings
 * it back after the schedule's next wait (`webhookBackoff`); the last one, a 410 or a success
 * settles the delivery's row.
 */
import { DelayedError, type WorkerOptions } from 'bullmq';
import type { AppContext } from '#infra/context.js';
import type { QueueProcessor } from '#infra/jobs/queues.js';
import { EndpointSlots } from '#infra/webhooks/endpoint-slots.js';
import { attemptDelivery } from '#domain/webhooks/deliveries.js';
import type { WebhookDeliveryJob } from '#domain/jobs/job-kinds.js';

/** How long a job waits for its endpoint's slot before asking again, plus up to as much at random. */
const SLOT_WAIT_MS = 500;

export class DeliveryFailed extends Error {
  override name = 'DeliveryFailed';
}

/**
 * `settled` is called once a delivery no longer waits for a first attempt (delivered, failed, or
 * waiting for a retry): its endpoint may then have its next delivery queued (infra/webhooks/dispatcher.ts).
 */
export function webhooksProcessor(ctx: AppContext, settled: () => void = () => {}): QueueProcessor<'webhooks'> {
  const slots = new EndpointSlots(
    ctx.redis,
    ctx.config.REDIS_NAMESPACE,
    ctx.config.WEBHOOK_ENDPOINT_CONCURRENCY,
    ctx.config.WEBHOOK_TIMEOUT_MS + 5000,
  );
  const schedule = ctx.config.WEBHOOK_RETRY_SCHEDULE;
  return async (job, token) => {
    const { data } = job;
    const holder = job.id!;
    if (!(await slots.take(data.endpointId, holder))) {
      await job.moveToDelayed(Date.now() + SLOT_WAIT_MS + Math.floor(Math.random() * SLOT_WAIT_MS), token);
      throw new DelayedError();
    }
    try {
      const retryInMs = data.trigger === 'schedule' ? (schedule[data.attemptsBefore + job.attemptsMade] ?? null) : null;
      const result = await attemptDelivery(ctx, data.deliveryId, { trigger: data.trigger, retryInMs });
      if (result.outcome !== 'skipped') settled();
      if (result.outcome === 'failed' && result.retry) {
        throw new DeliveryFailed(result.status === null ? (result.error ?? 'no answer') : `answered ${result.status}`);
      }
      return result.outcome;
    } finally {
      await slots.release(data.endpointId, holder);
    }
  };
}

/** The webhooks worker's options: many deliveries at once (each waits on a receiver), and the retry schedule. */
export function webhooksWorkerOptions(ctx: Pick<AppContext, 'config'>): Partial<WorkerOptions> {
  const schedule = ctx.config.WEBHOOK_RETRY_SCHEDULE;
  return {
    concurrency: ctx.config.WEBHOOK_CONCURRENCY,
    settings: {
      backoffStrategy: (attemptsMade, _type, _err, job) => {
        // The wait after the attempt that just failed: attemptsMade counts it.
        const before = (job?.data as WebhookDeliveryJob | undefined)?.attemptsBefore ?? 0;
        return schedule[before + attemptsMade - 1] ?? schedule.at(-1) ?? 0;
      },
    },
  };
}
