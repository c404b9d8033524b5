/**
 * The analytics-export job: the scans of a window (one link or the whole account) as one CSV in
 * object storage at `accounts/<account>/exports/<job>/<fileName>`. Postgres writes the CSV (a
 * COPY) and it streams into the storage upload a chunk at a time, so memory does not grow with the
 * rows. The storage drivers make the object appear whole or not at all (fs: a temporary file
 * renamed into place; s3: one PUT, or a multipart upload completed at the end), and the job's
 * result, with its downloadUrl, is written only after the upload finished: a partial file is never
 * served. A retry (after an error, or a worker killed mid-export) writes the same key again. The
 * file counts against the account's job-file quota (putJobFile).
 */
import { defaultHostname } from '#domain/links/link-addresses.js';
import { Readable } from 'node:stream';
import { scansCsv, type AnalyticsExportPayload, type AnalyticsExportResult } from '#domain/analytics/export.js';
import type { AppContext } from '#infra/context.js';
import { jobDownloadUrl, putJobFile } from '#domain/jobs/files.js';
import type { QueueProcessor } from '#infra/jobs/queues.js';
import { trackAccountJob, type CompletionEvent } from '#infra/jobs/account-jobs.js';

/** Progress goes to BullMQ (and, throttled again, to the jobs row) at most this often. */
const PROGRESS_INTERVAL_MS = 250;

export const EXPORT_CONTENT_TYPE = 'text/csv; charset=utf-8';

export function analyticsExportProcessor(ctx: AppContext): QueueProcessor<'analytics-export'> {
  return trackAccountJob<AnalyticsExportPayload, AnalyticsExportResult>(
    ctx.db,
    async (job, payload, reportProgress) => {
      const { accountId } = job.data;
      let rows = 0;
      let reportedAt = Date.now();
      const csv = scansCsv(
        ctx.database.pool,
        {
          accountId,
          defaultHost: defaultHostname(ctx.config),
          linkSlug: payload.linkSlug,
          ...(payload.folderIds && { folderIds: payload.folderIds }),
          from: new Date(payload.from),
          to: new Date(payload.to),
          includeBots: payload.includeBots === true,
          ...(payload.filters && { filters: payload.filters }),
        },
        async (progress) => {
          rows = progress.rows;
          if (Date.now() - reportedAt < PROGRESS_INTERVAL_MS) return;
          reportedAt = Date.now();
          await reportProgress(progress.fraction * 99);
        },
      );
      // One chunk read ahead at most: the upload pulls the next when it has written the last.
      const stored = await putJobFile(
        ctx,
        { accountId, jobId: job.id!, fileName: payload.fileName },
        Readable.from(csv, { highWaterMark: 1 }),
        EXPORT_CONTENT_TYPE,
      );
      return { downloadUrl: jobDownloadUrl(ctx.config, job.id!), fileName: payload.fileName, rows, bytes: stored.size };
    },
    exportCompleted,
  );
}

/** `export.completed`: where the CSV is and what it holds. */
const exportCompleted: CompletionEvent<AnalyticsExportPayload, AnalyticsExportResult> = async (
  _tx,
  { jobId, accountId },
  payload,
  result,
) => ({
  accountId,
  type: 'export.completed',
  data: {
    job_id: jobId,
    kind: 'scans',
    link_id: payload.linkSlug ?? null,
    from: payload.from,
    to: payload.to,
    rows: result.rows,
    bytes: result.bytes,
    file_name: result.fileName,
    download_url: result.downloadUrl,
  },
});
