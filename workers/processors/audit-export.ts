/**
 * The audit-export job: the account's audit events matching the filters as one CSV in object
 * storage (domain/audit/export.ts), streamed into the upload a page at a time, stored whole or
 * not at all like the analytics exports (workers/processors/analytics-export.ts).
 */
import { Readable } from 'node:stream';
import { auditCsv, exportFilters, type AuditExportPayload, type AuditExportResult } from '#domain/audit/export.js';
import type { AppContext } from '#infra/context.js';
import { jobDownloadUrl, putJobFile } from '#domain/jobs/files.js';
import type { QueueProcessor } from '#infra/jobs/queues.js';
import { trackAccountJob } from '#infra/jobs/account-jobs.js';
import { EXPORT_CONTENT_TYPE } from './analytics-export.js';

export function auditExportProcessor(ctx: AppContext): QueueProcessor<'audit-export'> {
  return trackAccountJob<AuditExportPayload, AuditExportResult>(ctx.db, async (job, payload) => {
    const { accountId } = job.data;
    let rows = 0;
    const csv = auditCsv(ctx.db, accountId, exportFilters(payload), async (n) => {
      rows = n;
    });
    const stored = await putJobFile(
      ctx,
      { accountId, jobId: job.id!, fileName: payload.fileName },
      Readable.from(csv, { highWaterMark: 1 }),
      EXPORT_CONTENT_TYPE,
    );
    return { downloadUrl: jobDownloadUrl(ctx.config, job.id!), fileName: payload.fileName, rows, bytes: stored.size };
  });
}
