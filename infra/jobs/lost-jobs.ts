/**
 * What a worker does so that a Redis that lost its data (a wipe, a restart without persistence, a
 * failover to an empty replica) loses no account job and no schedule for good. Postgres's jobs
 * table is the record: a job it holds as queued or active that BullMQ no longer knows is queued
 * again under its own id (BullMQ keeps one job per id, so workers sweeping at once add it once).
 * Each worker sweeps every JOB_RECOVERY_MS and whenever its Redis connection comes back, and
 * registers the maintenance schedules again at the same moments (an upsert, idempotent).
 */
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import { jobs } from '#domain/schema.js';
import type { AppContext } from '#infra/context.js';
import type { Logger } from '#platform/logger.js';
import type { Redis } from '#platform/redis/client.js';
import { addAccountJob } from './account-jobs.js';
import { ACCOUNT_JOB_QUEUES, type QueueName } from '#domain/jobs/job-kinds.js';

/**
 * Queues again every unfinished job of this install (its REDIS_NAMESPACE) that BullMQ no longer
 * holds; answers how many. Jobs recorded without their input (queued before records kept it) are
 * left as they are.
 */
export async function requeueLostJobs(ctx: Pick<AppContext, 'db' | 'queues' | 'config'>): Promise<number> {
  const unfinished = await ctx.db
    .select({ id: jobs.id, accountId: jobs.accountId, type: jobs.type })
    .from(jobs)
    .where(
      and(
        inArray(jobs.state, ['queued', 'active']),
        eq(jobs.queuePrefix, ctx.config.REDIS_NAMESPACE),
        inArray(jobs.type, [...ACCOUNT_JOB_QUEUES]),
        isNotNull(jobs.payload),
      ),
    );
  let requeued = 0;
  for (const row of unfinished) {
    const queue = ctx.queues[row.type as QueueName];
    if (await queue.getJob(row.id)) continue;
    // First in line: it has waited longest of all, its first place lost with Redis's data.
    await addAccountJob(queue, row.id, row, 1);
    requeued++;
  }
  return requeued;
}

/**
 * Runs `recover` every `everyMs` and whenever `redis` is ready again after losing its connection;
 * one run at a time, failures logged. Answers a function that stops it (after the run in progress).
 */
export function keepRecovering(redis: Redis, everyMs: number, logger: Logger, recover: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  const run = () => {
    running ??= recover()
      .catch((err: unknown) =>
        logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'job recovery failed; tried again later'),
      )
      .finally(() => (running = null));
  };
  const timer = setInterval(run, everyMs);
  redis.on('ready', run);
  return async () => {
    clearInterval(timer);
    redis.off('ready', run);
    await running;
  };
}

/**
 * Warns when Redis may lose what it is given: without AOF a restart loses what came after the last
 * snapshot, and any eviction policy but noeviction drops queued jobs or scan batches under memory
 * pressure. A server that refuses CONFIG (managed Redis often does) is said to be unchecked.
 */
export async function checkRedisDurability(redis: Redis, logger: Logger): Promise<void> {
  let settings: Record<string, string>;
  try {
    const [policy, appendonly] = await Promise.all([redis.config('GET', 'maxmemory-policy'), redis.config('GET', 'appendonly')]);
    settings = Object.fromEntries([policy, appendonly].map((pair) => [String((pair as string[])[0]), String((pair as string[])[1])]));
  } catch (err) {
    logger.warn(
      { err: err instanceof Error ? err.message : String(err) },
      'could not check the Redis settings (CONFIG GET refused): make sure Redis runs with appendonly yes and maxmemory-policy noeviction',
    );
    return;
  }
  const problems = [
    settings['maxmemory-policy'] !== 'noeviction' &&
      `maxmemory-policy is ${settings['maxmemory-policy']}, not noeviction: queued jobs and scans can be evicted`,
    settings.appendonly !== 'yes' && 'appendonly is off: a Redis restart loses the jobs and scans queued since its last snapshot',
  ].filter((p): p is string => typeof p === 'string');
  if (problems.length > 0) logger.warn({ problems }, 'Redis may lose queued work; see README, "Scale out"');
}
