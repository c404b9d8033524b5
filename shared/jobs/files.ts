/**
 * Files a job leaves for its account (exports, ZIPs): where they are stored and where they are
 * downloaded. A job's result names its file by `fileName`; the object lives at a key made of the
 * account, the job id and that name, so a retry of the job overwrites the same object.
 */
import type { Config } from '../config/index.js';
import type { ObjectStorage, GetResult } from '../files/storage/index.js';
import { isValidSegment } from '../files/storage/keys.js';
import { AppError, NotFoundError } from '../http/errors.js';
import { getJobView } from './records.js';
import type { Database } from '../../db/client.js';

/** Everything a job stores lives in this folder, and goes with it (shared/jobs/retention.ts). */
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
export async function openJobFile(db: Database, storage: ObjectStorage, accountId: string, jobId: string): Promise<JobFile> {
  const view = await getJobView(db, accountId, jobId);
  if (view.state !== 'completed') {
    throw new AppError(409, { message: `The job is ${view.state}; its file can be downloaded once it has completed` });
  }
  const fileName = (view.result as { fileName?: unknown } | undefined)?.fileName;
  if (typeof fileName !== 'string' || !isValidSegment(fileName)) throw new NotFoundError('Job file');
  const file = await storage.get(jobFileKey(accountId, jobId, fileName));
  if (!file) throw new NotFoundError('Job file');
  return { ...file, fileName };
}
