/**
 * The jobs rows: an account's background jobs as people see them (GET /jobs, /jobs/:id), who may
 * see which, and what a job's run may write. The queue that runs them is infra/jobs/.
 */
import { and, count, desc, eq, inArray, notInArray, sql, type SQL } from 'drizzle-orm';
import { preparedQuery, type Database } from '../database.js';
import { jobs, type JobState } from '../schema.js';
import { isUuid } from '#platform/format/ids.js';
import { NotFoundError } from '../errors.js';
import type { Principal } from '../accounts/api-keys.js';
import { hasScope } from '../accounts/scopes.js';
import { roleAtLeast } from '../people/roles.js';

/** A job as GET /jobs/:jobId shows it; `R` is its result's type where the queue is known. */
export interface JobView<R = unknown> {
  id: string;
  type: string;
  state: JobState;
  progress: number;
  result?: R;
  error?: string;
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

/** How a job's run reports how far it is, 0-100 (the queue's progress, and the jobs row's). */
export type ReportProgress = (percent: number) => Promise<void>;

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

/**
 * An error no retry of the job can mend (a job past its account's file quota would fail again):
 * the job fails at once, with this message, instead of being tried again.
 */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError';
}

/** Job errors are shown to users: keep the message, never a stack. */
export function publicJobError(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.split('\n')[0]!.slice(0, 500) || 'Job failed';
}
