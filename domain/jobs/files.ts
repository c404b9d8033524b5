/**
 * Files a job leaves for its account (exports, ZIPs): where they are stored and where they are
 * downloaded. A job's result names its file by `fileName`; the object lives at a key made of the
 * account, the job id and that name, so a retry of the job overwrites the same object.
 */
import { pipeline, Transform, type Readable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import type { Config } from '#platform/config/index.js';
import { accounts, jobs } from '../schema.js';
import { STORAGE_QUOTA_BYTES, type Plan } from '../accounts/plans.js';
import type { DomainContext } from '../context.js';
import { formatStorageSize } from '../files/quota.js';
import type { ObjectStorage, GetResult, StoredObjectInfo } from '#platform/storage/index.js';
import { isValidSegment } from '#platform/storage/keys.js';
import { AppError, NotFoundError } from '../errors.js';
import { getJobView, PermanentJobError, type JobViewer } from './records.js';
import type { Database } from '../database.js';

/** Everything a job stores lives in this folder, and goes with it (domain/jobs/retention.ts). */
export function jobFolder(accountId: string, jobId: string): string {
  return `accounts/${accountId}/exports/${jobId}/`;
}

export function jobFileKey(accountId: string, jobId: string, fileName: string): string {
  return `${jobFolder(accountId, jobId)}${fileName}`;
}

function apiBase(config: Pick<Config, 'PUBLIC_API_URL'>): string {
  return config.PUBLIC_API_URL.replace(/\/+$/, '');
}

/** GET /jobs/:jobId, as a client reaches it. */
export function jobStatusUrl(config: Pick<Config, 'PUBLIC_API_URL'>, jobId: string): string {
  return `${apiBase(config)}/jobs/${jobId}`;
}

/** GET /jobs/:jobId/download, as a client reaches it. */
export function jobDownloadUrl(config: Pick<Config, 'PUBLIC_API_URL'>, jobId: string): string {
  return `${apiBase(config)}/jobs/${jobId}/download`;
}

export interface JobFile extends GetResult {
  fileName: string;
}

/**
 * The file of one of the account's completed jobs. Another account's job is "Job not found" (as
 * GET /jobs/:jobId); a job still running is a 409; a job that leaves no file, or whose file is
 * gone, "Job file not found".
 */
export async function openJobFile(db: Database, storage: ObjectStorage, who: JobViewer, jobId: string): Promise<JobFile> {
  const { accountId } = who;
  const view = await getJobView(db, who, jobId);
  if (view.state !== 'completed') {
    throw new AppError('job_not_completed', { message: `The job is ${view.state}; its file can be downloaded once it has completed` });
  }
  const fileName = (view.result as { fileName?: unknown } | undefined)?.fileName;
  if (typeof fileName !== 'string' || !isValidSegment(fileName)) throw new NotFoundError('Job file');
  const file = await storage.get(jobFileKey(accountId, jobId, fileName));
  if (!file) throw new NotFoundError('Job file');
  return { ...file, fileName };
}

/**
 * The job-file quota (docs/decisions/0067-job-file-quota.md): the files an account's jobs leave
 * (exports, ZIPs) may take as many bytes as its plan's storage quota, apart from its uploads, until
 * they expire with their jobs (JOB_RETENTION_MS). Checked before an export is queued (413 when
 * already full) and while a file is written (the job fails for good at the first byte past it,
 * leaving nothing).
 */
function quotaMessage(plan: Plan, usedBytes: number): string {
  const quota = STORAGE_QUOTA_BYTES[plan];
  return (
    `Job file quota reached: the ${plan} plan keeps up to ${formatStorageSize(quota)} (${quota} bytes) of export and ZIP files, ` +
    `and this account's take ${formatStorageSize(usedBytes)} (${usedBytes} bytes). ` +
    'Each is deleted with its job, a while after the job finished; try again then.'
  );
}

class JobFilesQuotaExceededError extends AppError {
  constructor(plan: Plan, usedBytes: number) {
    super('job_files_quota_exceeded', { message: quotaMessage(plan, usedBytes) });
  }
}

/** The account's plan and the bytes its kept job files take. */
async function jobFileUsage(db: Database, accountId: string): Promise<{ plan: Plan; usedBytes: number }> {
  const [account] = await db.select({ plan: accounts.plan }).from(accounts).where(eq(accounts.id, accountId));
  if (!account) throw new NotFoundError('Account');
  const [row] = await db
    .select({ used: sql<string>`coalesce(sum(${jobs.fileBytes}), 0)` })
    .from(jobs)
    .where(eq(jobs.accountId, accountId));
  return { plan: account.plan, usedBytes: Number(row?.used ?? 0) };
}

/** 413 when the account's job files fill its quota already: a job making another would only fail. */
export async function assertJobFilesFit(db: Database, accountId: string): Promise<void> {
  const { plan, usedBytes } = await jobFileUsage(db, accountId);
  if (usedBytes >= STORAGE_QUOTA_BYTES[plan]) throw new JobFilesQuotaExceededError(plan, usedBytes);
}

/**
 * Stores a job's file at its key, no larger than the room left in the account's job-file quota:
 * past it the upload is abandoned (storage keeps nothing of it) and the job fails without another
 * attempt (it would fail the same way), with the quota's message. The file's size is recorded on
 * the jobs row, where the quota counts it. Jobs of one account running at once each get the room
 * left when they started.
 */
export async function putJobFile(
  ctx: Pick<DomainContext, 'db' | 'storage'>,
  job: { accountId: string; jobId: string; fileName: string },
  body: Readable,
  contentType: string,
): Promise<StoredObjectInfo> {
  const { plan, usedBytes } = await jobFileUsage(ctx.db, job.accountId);
  const room = STORAGE_QUOTA_BYTES[plan] - usedBytes;
  if (room <= 0) throw new PermanentJobError(quotaMessage(plan, usedBytes));
  let written = 0;
  const overQuota = () => new PermanentJobError(quotaMessage(plan, usedBytes + written));
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      written += chunk.length;
      if (written > room) done(overQuota());
      else done(null, chunk);
    },
  });
  const key = jobFileKey(job.accountId, job.jobId, job.fileName);
  // The upload reads the limited stream; an error on either side ends both and rejects the put
  // (whatever error the driver then reports, going past the quota is the reason).
  const stored = await ctx.storage
    .put(
      key,
      pipeline(body, limit, () => undefined),
      { contentType },
    )
    .catch((err: unknown) => {
      throw written > room ? overQuota() : err;
    });
  await ctx.db.update(jobs).set({ fileBytes: stored.size }).where(eq(jobs.id, job.jobId));
  return stored;
}
