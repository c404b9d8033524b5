/**
 * The print-sheets job: the chosen links' codes drawn into one print PDF (domain/qr/print/
 * sheets.ts) on a render thread, stored as the job's file (`print-sheet.pdf`) for
 * GET /jobs/:jobId/download. Progress: the links read and their logos loaded (to 20 %), the sheet
 * drawn (to 95 %), stored (100 %). A retry draws and stores the same file under the same key.
 */
import { Readable } from 'node:stream';
import type { AppContext } from '#infra/context.js';
import type { QueueProcessor } from '#infra/jobs/queues.js';
import { trackAccountJob } from '#infra/jobs/account-jobs.js';
import { jobDownloadUrl, putJobFile } from '#domain/jobs/files.js';
import { prepareSheet, PRINT_SHEET_FILE, type PrintSheetPayload, type PrintSheetResult } from '#domain/qr/print/sheet-job.js';

/** A sheet is one render (one thread): it may take this long per code on top of the usual bound (~12 ms each measured). */
const SHEET_MS_PER_CODE = 60;

export function printSheetsProcessor(ctx: AppContext): QueueProcessor<'print-sheets'> {
  return trackAccountJob<PrintSheetPayload, PrintSheetResult>(ctx.db, async (job, payload, reportProgress) => {
    const { accountId } = job.data;
    const total = Math.max(1, payload.linkIds.length);
    const { request, skipped, pages } = await prepareSheet(ctx, accountId, payload, (ready) => reportProgress((ready / total) * 20));
    const codes = request.template === 'grid' ? request.codes.length : request.tents.length;
    // The thread draws for seconds: the job's progress moves on while it does, so a client sees it alive.
    const estimateMs = 200 + codes * 12;
    const startedAt = Date.now();
    let drawing = true;
    // A tick still writing when the draw ends may land after the 95 % below: `drawing` keeps new ones from starting.
    const ticker = setInterval(() => {
      if (drawing) reportProgress(20 + Math.min(74, ((Date.now() - startedAt) / estimateMs) * 75)).catch(() => undefined);
    }, 500);
    let pdf: Buffer;
    try {
      pdf = await ctx.qr.sheet(request, { accountId, timeoutMs: ctx.config.QR_RENDER_TIMEOUT_MS + codes * SHEET_MS_PER_CODE });
    } finally {
      drawing = false;
      clearInterval(ticker);
    }
    await reportProgress(95);
    const stored = await putJobFile(
      ctx,
      { accountId, jobId: job.id!, fileName: PRINT_SHEET_FILE },
      Readable.from([pdf]),
      'application/pdf',
    );
    await reportProgress(100);
    return {
      fileName: PRINT_SHEET_FILE,
      downloadUrl: jobDownloadUrl(ctx.config, job.id!),
      count: codes,
      pages,
      bytes: stored.size,
      skipped,
    };
  });
}
