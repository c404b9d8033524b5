import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, inArray, notInArray, sql, type SQL } from 'drizzle-orm';
import { UnrecoverableError, type Job, type Processor, type Queue } from 'bullmq';
import { preparedQuery, type Database } from '../database.js';
import { jobs, type JobState } from '../schema.js';
import { isUuid } from '#platform/format/ids.js';
import { NotFoundError } from '../errors.js';
import type { Principal } from '../accounts/api-keys.js';
import { hasScope } from '../accounts/scopes.js';
import { roleAtLeast } from '../people/roles.js';
import type { AccountJobData } from './queues.js';
import { takeQueueTurn } from './turns.js';
import { within } from '#platform/with-timeout.js';

/** A job as GET /jobs/:jobId shows it; `R` is its result's type where the queue is known. */
export interface JobView<R = unknown> {
  id: string;
  type: string;
  state: JobState;
  progress: number;
  result?: R;
  error?: string;
}

/**
 * Starts an account's background job: the jobs row first (so GET /jobs/:id finds it the moment
 * its id is handed out, and a job Redis loses can be queued again from it), in the account's turn
 * (domain/jobs/turns.ts: a 429 when the account has `maxQueued` of this kind waiting), then the
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

export interface AccountJobInput<P> {
  accountId: string;
  /** The job's kind, as its jobs row and BullMQ name it; one kind per queue. */
  type: string;
  payload: P;
  attempts?: number;
  /** Who asked for it (actorIdOf); a client sees only the jobs it started. */
  startedBy?: string | null;
}

/**
 * Whose jobs a caller sees: the account's; a client (folderIds set) only the ones it started, as
 * another person's job may name links outside its folders (docs/decisions/0412).
 */
export type JobViewer = Pick<Principal, 'accountId' | 'folderIds' | 'userId' | 'keyId' | 'role' | 'scopes'>;

/**
 * The job kinds whose record and file only those who may start them see: the audit log's export
 * is for owners and admins with the whole key (POST /audit-events/export, decision 0405), and its
 * CSV is the whole log.
 */
const ADMIN_ONLY_JOBS = ['audit-export'];

const mayAudit = (who: JobViewer) => roleAtLeast(who.role, 'admin') && hasScope(who.scopes, 'all');
const mayView = (who: JobViewer, type: string) => mayAudit(who) || !ADMIN_ONLY_JOBS.includes(type);

function jobsOf(who: JobViewer): SQL {
  const account = mayAudit(who)
    ? eq(jobs.accountId, who.accountId)
    : and(eq(jobs.accountId, who.accountId), notInArray(jobs.type, ADMIN_ONLY_JOBS))!;
  if (who.folderIds === null) return account;
  const starter = who.userId ?? who.keyId;
  return starter === null ? sql`false` : and(account, eq(jobs.startedBy, starter))!;
}

/**
 * How long starting a job waits for Redis to take it. While Redis is unreachable the add waits in
 * the client's offline queue; the caller goes on after this long, since the jobs row is the record
 * and the add (once Redis is back) or the workers' recovery sweep (domain/jobs/recovery.ts) queues
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

export async function getJobView(db: Database, who: JobViewer, id: string): Promise<JobView> {
  if (!isUuid(id)) throw new NotFoundError('Job');
  const [row] =
    who.folderIds === null
      ? await jobById(db).execute({ id, accountId: who.accountId })
      : await db
          .select()
          .from(jobs)
          .where(and(eq(jobs.id, id), jobsOf(who)));
  if (!row || !mayView(who, row.type)) throw new NotFoundError('Job');
  return jobView(row);
}

/** Polled by every progress bar of the console while its job runs. */
const jobById = preparedQuery((db) =>
  db
    .select()
    .from(jobs)
    .where(and(eq(jobs.id, sql.placeholder('id')), eq(jobs.accountId, sql.placeholder('accountId'))))
    .prepare('job_by_id'),
);

function jobView(row: typeof jobs.$inferSelect): JobView {
  const view: JobView = { id: row.id, type: row.type, state: row.state, progress: row.progress };
  if (row.result !== null) view.result = row.result;
  if (row.error !== null) view.error = row.error;
  return view;
}

export interface JobListItem extends JobView {
  createdAt: Date;
  updatedAt: Date;
}

/**
 * A page of the account's jobs, newest first (ties by id, so pages never overlap); finished jobs
 * are kept for JOB_RETENTION_MS, so this is the account's recent work.
 */
export async function listJobViews(
  db: Database,
  who: JobViewer,
  page: number,
  size: number,
): Promise<{ data: JobListItem[]; meta: { currentPage: number; totalPages: number } }> {
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(jobs)
      .where(jobsOf(who))
      .orderBy(desc(jobs.createdAt), desc(jobs.id))
      .limit(size)
      .offset((page - 1) * size),
    db.select({ n: count() }).from(jobs).where(jobsOf(who)),
  ]);
  return {
    data: rows.map((row) => ({ ...jobView(row), createdAt: row.createdAt, updatedAt: row.updatedAt })),
    meta: { currentPage: page, totalPages: Math.ceil((total?.n ?? 0) / size) },
  };
}

export type ReportProgress = (percent: number) => Promise<void>;
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
export function trackAccountJob<P, R>(db: Database, handler: AccountJobHandler<P, R>): Processor<AccountJobData<P>, null> {
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
      await db
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
        .where(unfinished(id));
      return null;
    } catch (err) {
      // BullMQ tries no more after an UnrecoverableError (a job past its file quota would fail again).
      const lastAttempt = err instanceof UnrecoverableError || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      await db
        .update(jobs)
        .set(
          lastAttempt
            ? { state: 'failed', error: publicMessage(err), payload: null, updatedAt: new Date(), finishedAt: new Date() }
            : { state: 'queued', updatedAt: sql`now()` },
        )
        .where(unfinished(id));
      throw keptSmall(err);
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
  err.message = publicMessage(err);
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
    : publicMessage(err);
  await db
    .update(jobs)
    .set({ state: 'failed', error: message, payload: null, updatedAt: new Date(), finishedAt: new Date() })
    .where(and(eq(jobs.id, job.id), notInArray(jobs.state, ['completed', 'failed'])));
}

/**
 * Ends the account's unfinished jobs of `type` whose input has `payloadField` (a thing the jobs
 * were for, now deleted) as failed with `reason`, dropping their input. A worker that takes one
 * later fails it at once (trackAccountJob); one running it now cannot overwrite the row.
 */
export async function endUnfinishedJobs(
  db: Database,
  match: { accountId: string; type: string; payloadField: [string, string] },
  reason: string,
): Promise<void> {
  const [field, value] = match.payloadField;
  await db
    .update(jobs)
    .set({ state: 'failed', error: reason, payload: null, updatedAt: new Date(), finishedAt: new Date() })
    .where(
      and(
        eq(jobs.accountId, match.accountId),
        eq(jobs.type, match.type),
        inArray(jobs.state, ['queued', 'active']),
        sql`${jobs.payload} ->> ${field} = ${value}`,
      ),
    );
}

/** Job errors are shown to users: keep the message, never a stack. */
function publicMessage(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.split('\n')[0]!.slice(0, 500) || 'Job failed';
}
