/**
 * An account's background jobs on BullMQ: starting one (its jobs row, its fair turn, then the
 * queued job under the same id) and running one so that its jobs row (domain/jobs/records.ts)
 * follows what the queue does.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, inArray, notInArray, sql } from 'drizzle-orm';
import { UnrecoverableError, type Job, type Processor, type Queue } from 'bullmq';
import type { Database, Executor } from '#domain/database.js';
import { jobs } from '#domain/schema.js';
import { isUuid } from '#platform/format/ids.js';
import type { AccountJobData } from '#domain/jobs/job-kinds.js';
import { PermanentJobError, publicJobError, type AccountJobInput, type ReportProgress } from '#domain/jobs/records.js';
import { within } from '#platform/with-timeout.js';
import { takeQueueTurn } from './fair-turns.js';
import { recordEvent, type RecordedEvent } from '#domain/webhooks/events.js';

/**
 * Starts an account's background job: the jobs row first (so GET /jobs/:id finds it the moment
 * its id is handed out, and a job Redis loses can be queued again from it), in the account's turn
 * (infra/jobs/fair-turns.ts: a 429 when the account has `maxQueued` of this kind waiting), then the
 * BullMQ job under the same id. Retries reuse the id.
 */
export async function enqueueAccountJob<P>(db: Database, queue: Queue, input: AccountJobInput<P>, maxQueued: number): Promise<string> {
  const id = randomUUID();
  const priority = await db.transaction(async (tx) => {
    const turn = await takeQueueTurn(tx, queue, input.accountId, input.type, maxQueued);
    await tx.insert(jobs).values(jobRow(id, queue, input));
    return turn;
  });
  await addAccountJob(queue, id, input, priority);
  return id;
}

/** The jobs row of a job being started on `queue`: queued, with its input until it ends. */
export function jobRow<P>(id: string, queue: Queue, input: AccountJobInput<P>) {
  return {
    id,
    accountId: input.accountId,
    type: input.type,
    payload: input.payload as unknown,
    queuePrefix: queue.opts.prefix ?? null,
    startedBy: input.startedBy ?? null,
  };
}

/**
 * How long starting a job waits for Redis to take it. While Redis is unreachable the add waits in
 * the client's offline queue; the caller goes on after this long, since the jobs row is the record
 * and the add (once Redis is back) or the workers' recovery sweep (infra/jobs/lost-jobs.ts) queues
 * the job then.
 */
const ADD_WAIT_MS = 1000;

/**
 * The BullMQ half of starting a job whose row exists, with the priority its turn gave it. BullMQ
 * keeps one job per id (adding an id it holds is a no-op), so adding again a job whose first add
 * may have been lost is safe. Redis gets the job's account only: its input stays in the jobs row
 * (AccountJobData), and a finished job keeps in Redis no result (KeptResult), a one-line reason and
 * one stack.
 */
export async function addAccountJob(
  queue: Queue,
  id: string,
  input: Pick<AccountJobInput<unknown>, 'accountId' | 'type' | 'attempts'>,
  priority: number,
): Promise<void> {
  const data: AccountJobData = { accountId: input.accountId };
  const added = queue.add(input.type, data, {
    jobId: id,
    priority,
    attempts: input.attempts ?? 3,
    backoff: { type: 'exponential', delay: 1000 },
    removeOnComplete: { age: 3600 },
    removeOnFail: { age: 24 * 3600 },
    stackTraceLimit: 1,
  });
  // An add still pending when the wait ends and failing later loses nothing: the row is
  // unfinished, so the recovery sweep adds it.
  await within(added, ADD_WAIT_MS, undefined);
}

export type AccountJobHandler<P, R> = (job: Job<AccountJobData<P>>, payload: P, reportProgress: ReportProgress) => Promise<R>;

/** Progress writes to Postgres at most this often; BullMQ's own progress is always current. */
const PROGRESS_WRITE_INTERVAL_MS = 250;

/** A jobs row still running: the only rows a run may change (a row the cafe's deletion ended stays as it was). */
const unfinished = (id: string) => and(eq(jobs.id, id), inArray(jobs.state, ['queued', 'active']));

/**
 * Wraps a processor of account jobs so its jobs row follows it: active when it starts (with the
 * input read from the row), progress while it runs, completed with the result, failed (with a
 * message a user can read) only after the last attempt; the input is dropped when the job ends.
 * The handler itself must be idempotent: a retry runs it again. A run that finds its job ended
 * already (a second run of a job taken over while its first was only slow, a cafe deleted while
 * its bulk insert waited) ends the same way without running again.
 */
/**
 * The webhook event a completed job tells of (domain/webhooks/events.ts), written by the
 * transaction that marks its row completed: once per job, however often it was retried.
 */
export type CompletionEvent<P, R> = (
  tx: Executor,
  done: { jobId: string; accountId: string },
  payload: P,
  result: R,
) => Promise<RecordedEvent | null>;

export function trackAccountJob<P, R>(
  db: Database,
  handler: AccountJobHandler<P, R>,
  completionEvent?: CompletionEvent<P, R>,
): Processor<AccountJobData<P>, null> {
  return async (job) => {
    const id = job.id!;
    const input = await startRun<P>(db, job);
    if (input === ENDED) return null;
    let lastWrite = 0;
    const reportProgress: ReportProgress = async (percent) => {
      const value = Math.max(0, Math.min(100, Math.round(percent)));
      await job.updateProgress(value);
      const now = Date.now();
      if (now - lastWrite >= PROGRESS_WRITE_INTERVAL_MS || value === 100) {
        lastWrite = now;
        await db.update(jobs).set({ progress: value, updatedAt: new Date() }).where(unfinished(id));
      }
    };
    try {
      const result = await handler(job, input, reportProgress);
      await db.transaction(async (tx) => {
        const done = await tx
          .update(jobs)
          .set({
            state: 'completed',
            progress: 100,
            result: result ?? null,
            error: null,
            payload: null,
            updatedAt: new Date(),
            finishedAt: new Date(),
          })
          .where(unfinished(id))
          .returning({ accountId: jobs.accountId });
        const event = done[0] && (await completionEvent?.(tx, { jobId: id, accountId: done[0].accountId }, input, result));
        if (event) await recordEvent(tx, event);
      });
      return null;
    } catch (err) {
      // BullMQ tries no more after an UnrecoverableError (a job past its file quota would fail again).
      const permanent = err instanceof UnrecoverableError || err instanceof PermanentJobError;
      const lastAttempt = permanent || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      await db
        .update(jobs)
        .set(
          lastAttempt
            ? { state: 'failed', error: publicJobError(err), payload: null, updatedAt: new Date(), finishedAt: new Date() }
            : { state: 'queued', updatedAt: sql`now()` },
        )
        .where(unfinished(id));
      throw keptSmall(err instanceof PermanentJobError ? new UnrecoverableError(err.message) : err);
    }
  };
}

const ENDED = Symbol('ended');

/**
 * Marks the job's row active and answers its input; ENDED when the job has completed already. A
 * job whose row has failed, or is gone with its account, fails for good with the row's reason.
 */
async function startRun<P>(db: Database, job: Job<AccountJobData<P>>): Promise<P | typeof ENDED> {
  const id = job.id!;
  const [row] = await db
    .update(jobs)
    .set({ state: 'active', updatedAt: new Date() })
    .where(unfinished(id))
    .returning({ payload: jobs.payload });
  // A job queued before its input moved to the jobs row carries it still.
  const payload = (row?.payload ?? job.data.payload) as P | null | undefined;
  if (row && payload !== null && payload !== undefined) return payload;
  const [ended] = await db.select({ state: jobs.state, error: jobs.error }).from(jobs).where(eq(jobs.id, id));
  if (ended?.state === 'completed') return ENDED;
  throw new UnrecoverableError(ended?.error ?? (ended ? 'The job’s input is gone' : 'The job’s account was deleted'));
}

/**
 * The error BullMQ keeps with a failed job, for as long as it keeps the job: one line of at most
 * 500 characters (as the jobs row shows it) and a stack of bounded size, however long the message.
 */
function keptSmall(err: unknown): unknown {
  if (!(err instanceof Error) || (err.message.length <= 500 && (err.stack?.length ?? 0) <= 4000)) return err;
  err.message = publicJobError(err);
  err.stack = `${err.name}: ${err.message}\n${(err.stack ?? '')
    .split('\n')
    .filter((line) => line.startsWith('    at '))
    .slice(0, 20)
    .join('\n')}`;
  return err;
}

/**
 * A result a running job can give before it ends (a bulk batch's links, before their ZIP): written
 * to the jobs row while the state stays as it is, then announced by a BullMQ progress event, which
 * wakes a waiting api (`JobWaiter.wait` with `ready`) at once.
 */
export async function publishInterimResult(db: Database, job: Job, result: unknown, progress: number): Promise<void> {
  await db.update(jobs).set({ result, progress, updatedAt: new Date() }).where(unfinished(job.id!));
  await job.updateProgress(progress);
}

/**
 * For a worker's `failed` event: a job BullMQ has given up on without the processor's last attempt
 * recording it (the stalled check fails a job whose workers died more than maxStalledCount times,
 * and no processor runs then) still ends as `failed` in its jobs row, not `active` for ever.
 */
export async function recordGivenUpJob(db: Database, job: Job, err: Error): Promise<void> {
  if (!job.id || !isUuid(job.id) || !(await job.isFailed())) return;
  const message = /stalled/i.test(err.message)
    ? 'The job was interrupted too many times (its worker stopped while running it)'
    : publicJobError(err);
  await db
    .update(jobs)
    .set({ state: 'failed', error: message, payload: null, updatedAt: new Date(), finishedAt: new Date() })
    .where(and(eq(jobs.id, job.id), notInArray(jobs.state, ['completed', 'failed'])));
}
