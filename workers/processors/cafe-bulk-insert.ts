/**
 * The cafe-bulk-insert job: the submitted menu replaces the cafe's, all or nothing, in one
 * transaction (domain/cafes/bulk-insert.ts). A retry (after an error, or a worker killed mid-job,
 * whose transaction Postgres rolls back) runs the same replacement again and ends with the same menu.
 */
import { menuImportedEvent, replaceMenu } from '#domain/cafes/bulk-insert.js';
import type { CafeBulkInsertPayload } from '#domain/cafes/bulk-insert-schema.js';
import type { BulkInsertResult } from '#domain/cafes/bulk-insert-schema.js';
import type { AppContext } from '#infra/context.js';
import type { QueueProcessor } from '#infra/jobs/queues.js';
import { trackAccountJob } from '#infra/jobs/account-jobs.js';

export function cafeBulkInsertProcessor(ctx: AppContext): QueueProcessor<'cafe-bulk-insert'> {
  return trackAccountJob<CafeBulkInsertPayload, BulkInsertResult>(
    ctx.db,
    (job, payload, reportProgress) => replaceMenu(ctx, job.data.accountId, payload, reportProgress),
    (tx, done, payload, result) => menuImportedEvent(tx, done, payload.cafeId, result),
  );
}
