/**
 * Fair turns in a job queue (docs/decisions/0068-fair-turns-between-accounts.md). BullMQ serves a
 * queue first come, first served, so one account's backlog would make every other account wait for
 * all of it. Each account job is therefore given a BullMQ priority (lower runs first; equal
 * priorities run in the order added): one more than the account's jobs of that kind already
 * waiting, and never less than the newest of them, so an account's own jobs keep their order. An
 * account with nothing waiting gets priority 1 and runs next, ahead of a flood of another account's
 * jobs, which take turns with it: round robin between accounts.
 *
 * "Waiting" is read from the jobs rows (`queued`), the same truth GET /jobs/:jobId shows, so there
 * is no counter to drift, leak or lose with a worker that dies: a worker killed mid-job changes
 * nothing here (BullMQ retries the job under its priority; a stalled job goes back first). The
 * count and the new row are made under a lock per account and kind, so JOB_ACCOUNT_QUEUE is exact
 * with concurrent requests and several api processes.
 *
 * Priorities choose which job a free worker slot takes; they cannot free a slot. So an account also
 * runs at most JOB_ACCOUNT_ACTIVE of its jobs of a kind at once, across all workers: a job past that
 * goes back to wait without running (`limitRunningPerAccount`), and a slot stays free for the next
 * account instead of every slot being held by one account's long jobs. A job also waits while one
 * its account queued before it waits, so held-back jobs do not lose their place to newer ones.
 */
import { and, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import { DelayedError, type Job, type Processor, type Queue } from 'bullmq';
import type { Database } from '#domain/database.js';
import { jobs } from '#domain/schema.js';
import { AppError } from '#domain/errors.js';
import type { Executor } from '#domain/database.js';
import type { AccountJobData } from '#domain/jobs/job-kinds.js';
import { within } from '#platform/with-timeout.js';

/** BullMQ's highest (last-served) priority. */
const MAX_PRIORITY = 2_097_152;

/** A queued row whose BullMQ job is still missing this long after it was made has been lost (not merely being added). */
const LOST_AFTER_MS = 60_000;

class JobQueueFullError extends AppError {
  constructor(type: string, maxQueued: number) {
    super(
      'job_queue_full',
      { message: `This account already has ${maxQueued} ${type} jobs waiting, the most it may have; retry when some have started` },
      { 'retry-after': '5' },
    );
  }
}

/**
 * Takes the account's turn for a new job of `type` in `queue`, inside the transaction that inserts
 * its jobs row (call it before the insert): the priority to add the BullMQ job with. With
 * `maxQueued` of the account's jobs of that type waiting already, a JobQueueFullError (429); rows
 * whose BullMQ job has been lost (a Redis wiped, an api that died between its commit and its add)
 * do not count towards that.
 */
export async function takeQueueTurn(tx: Executor, queue: Queue, accountId: string, type: string, maxQueued: number): Promise<number> {
  await lockAccountKind(tx, 'queued', accountId, type);
  // The newest rows are the ones that can still be waiting in BullMQ; lost rows are old ones.
  const waiting = await tx
    .select({ id: jobs.id, createdAt: jobs.createdAt })
    .from(jobs)
    .where(and(eq(jobs.accountId, accountId), eq(jobs.type, type), eq(jobs.state, 'queued')))
    .orderBy(desc(jobs.createdAt))
    .limit(maxQueued);
  const priorities = await within(
    bullmqPriorities(
      queue,
      waiting.map((row) => row.id),
    ),
    TURN_REDIS_WAIT_MS,
    null,
  );
  if (priorities === null) {
    // Redis is not answering: every waiting row counts, and the job gets the turn they give.
    if (waiting.length >= maxQueued) throw new JobQueueFullError(type, maxQueued);
    return waiting.length + 1;
  }
  const lostBefore = Date.now() - LOST_AFTER_MS;
  const live = waiting.filter((row, i) => priorities[i] !== null || row.createdAt.getTime() > lostBefore).length;
  if (live >= maxQueued) throw new JobQueueFullError(type, maxQueued);
  const newest = priorities.find((p) => p !== null) ?? 1;
  return Math.min(MAX_PRIORITY, Math.max(live + 1, newest));
}

/**
 * How long taking a turn waits for Redis. While Redis is unreachable its client queues commands
 * until it is back; a request starting a job must still be answered (the jobs row is the record,
 * and the job is added once Redis is back), so the turn is then taken from the rows alone.
 */
const TURN_REDIS_WAIT_MS = 500;

/** Each job's BullMQ priority (the job hash's field only: a payload may be megabytes); null: no such job. */
async function bullmqPriorities(queue: Queue, ids: string[]): Promise<Array<number | null>> {
  const client = await queue.getBackend().client;
  // Sent together on one connection: one round trip.
  const values = await Promise.all(ids.map((id) => client.hget(queue.toKey(id), 'priority')));
  return values.map((value) => (value === null ? null : Number(value)));
}

/** Serializes one account's changes of its jobs of one kind entering `state`, across processes. */
async function lockAccountKind(tx: Executor, state: 'queued' | 'active', accountId: string, type: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`jobs-${state}:${accountId}:${type}`}, 0))`);
}

/** Earlier waiting jobs of the account looked for at a start (the newest first: lost rows are old ones). */
const MAX_EARLIER_CHECKED = 20;

/** How long a job held back by JOB_ACCOUNT_ACTIVE waits before it asks again. */
const HELD_BACK_MS = 1000;

/**
 * An account queue's processor that runs a job only while its account has fewer than `maxActive`
 * jobs of its kind running: otherwise the job goes back to BullMQ's delayed set for HELD_BACK_MS,
 * untouched and under its priority (not an attempt: nothing of it ran), and the slot takes the next.
 */
export function limitRunningPerAccount<D extends AccountJobData, R>(
  db: Database,
  queue: Queue,
  maxActive: number,
  processor: Processor<D, R>,
): Processor<D, R> {
  return async (job, token, signal) => {
    if (!(await takeRunningTurn(db, queue, job, maxActive))) {
      await job.moveToDelayed(Date.now() + HELD_BACK_MS, token);
      throw new DelayedError();
    }
    return processor(job, token, signal);
  };
}

/**
 * Marks the job's row active if fewer than `maxActive` of its account's jobs of its kind are
 * running, and none of them queued before it still waits (one held back, or between two attempts):
 * the account's jobs start in the order it queued them. Running means rows active whose BullMQ job
 * is active too, waiting rows whose BullMQ job exists: a row left behind by a job Redis lost does
 * not count; a killed worker's job counts until BullMQ's stalled check takes it back. Under the
 * account's lock, so two workers starting its jobs at once count each other.
 */
async function takeRunningTurn(db: Database, queue: Queue, job: Job<AccountJobData>, maxActive: number): Promise<boolean> {
  const { accountId } = job.data;
  return db.transaction(async (tx) => {
    await lockAccountKind(tx, 'active', accountId, job.name);
    const mine = and(eq(jobs.accountId, accountId), eq(jobs.type, job.name), ne(jobs.id, job.id!));
    const others = await tx
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(mine, eq(jobs.state, 'active')));
    if (others.length >= maxActive) {
      // Read under the lock: a job whose row was marked before is in BullMQ's active list already.
      const running = new Set(await queue.getRanges(['active'], 0, -1));
      if (others.filter((row) => running.has(row.id)).length >= maxActive) return false;
    }
    const earlier = await tx
      .select({ id: jobs.id })
      .from(jobs)
      .where(
        and(mine, eq(jobs.state, 'queued'), sql`${jobs.createdAt} < (select ${jobs.createdAt} from ${jobs} where ${jobs.id} = ${job.id!})`),
      )
      .orderBy(desc(jobs.createdAt))
      .limit(MAX_EARLIER_CHECKED);
    if (
      (
        await bullmqPriorities(
          queue,
          earlier.map((row) => row.id),
        )
      ).some((p) => p !== null)
    )
      return false;
    // Only a row still running: one ended meanwhile (its cafe deleted) stays as it ended, and the
    // run finds it so (trackAccountJob) rather than leaving it `active` behind a failed job.
    await tx
      .update(jobs)
      .set({ state: 'active', updatedAt: new Date() })
      .where(and(eq(jobs.id, job.id!), inArray(jobs.state, ['queued', 'active'])));
    return true;
  });
}
