/**
 * Job retention (docs/decisions/0070-job-retention.md): a finished job (completed or failed) is
 * kept, with its file, for JOB_RETENTION_MS after it finished, then the maintenance queue deletes
 * both. Without it every export and ZIP an account ever made would stay in object storage for good,
 * and the temporary files of attempts killed mid-upload with them.
 */
import { and, inArray, lt } from 'drizzle-orm';
import type { Database } from '../database.js';
import { jobs } from '../schema.js';
import type { ObjectStorage } from '#platform/storage/index.js';
import { jobFolder } from './files.js';

/** Jobs deleted per transaction: their rows stay locked while their folders are deleted. */
const EXPIRE_BATCH = 100;

/**
 * Deletes the jobs that finished before `finishedBefore`, each job's folder first and then the
 * rows: when storage fails, the batch's rows stay (their transaction rolls back) and the next sweep
 * tries them again, so no job's files are left behind without a row to find them by. Safe to run
 * concurrently (locked rows are skipped). Returns how many jobs were deleted.
 */
export async function expireFinishedJobs(db: Database, storage: ObjectStorage, finishedBefore: Date): Promise<number> {
  let expired = 0;
  for (;;) {
    const n = await db.transaction(async (tx) => {
      const rows = await tx
        .select({ id: jobs.id, accountId: jobs.accountId })
        .from(jobs)
        .where(and(inArray(jobs.state, ['completed', 'failed']), lt(jobs.finishedAt, finishedBefore)))
        .orderBy(jobs.finishedAt)
        .limit(EXPIRE_BATCH)
        .for('update', { skipLocked: true });
      for (const row of rows) await storage.deleteFolder(jobFolder(row.accountId, row.id));
      if (rows.length > 0)
        await tx.delete(jobs).where(
          inArray(
            jobs.id,
            rows.map((r) => r.id),
          ),
        );
      return rows.length;
    });
    expired += n;
    if (n < EXPIRE_BATCH) return expired;
  }
}
