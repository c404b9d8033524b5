/**
 * The bulk-generate job, in two phases over one jobs row:
 * 1. the batch's links, inserted in one transaction (domain/bulk/bulk.ts); their ids go into the
 *    jobs row as the result at once (`publishInterimResult`), which is what the api answers;
 * 2. their QR codes, PNG and SVG each in the link's own style, into one ZIP with manifest.csv
 *    (`writeQrZip`, shared with qr-render); the result then gains `qrZipUrl` and the job completes.
 * Progress runs over both: the insert is the first INSERT_PROGRESS percent, the render the rest.
 * A retry (a worker killed in either phase) finds the committed batch instead of inserting it
 * again, and rebuilds the ZIP under the same key (codes already rendered come from the cache).
 */
import { UnrecoverableError } from 'bullmq';
import { and, asc, eq, gte, lt } from 'drizzle-orm';
import { AppError } from '#domain/errors.js';
import { domains, links } from '#domain/schema.js';
import { bulkManifest, insertBulkLinks, zipEntryName } from '#domain/bulk/bulk.js';
import { BULK_PLACEMENT_CODE, type BulkGeneratePayload, type BulkGenerateResult, type BulkPrintResult } from '#domain/bulk/job.js';
import type { BulkPrint } from '#domain/bulk/schemas.js';
import { markedShortUrl } from '#domain/links/attribution.js';
import { linkShortUrl, shortUrlBaseOf } from '#domain/links/link-addresses.js';
import { AUTO_SLUG_LENGTH } from '#domain/links/slugs.js';
import { applyPatch } from '#domain/qr/print/design-patch.js';
import { reportQr } from '#domain/qr/qr-images.js';
import type { AppContext } from '#infra/context.js';
import { jobDownloadUrl } from '#domain/jobs/files.js';
import { BulkPacer } from '#domain/jobs/pacing.js';
import type { QueueProcessor } from '#infra/jobs/queues.js';
import { publishInterimResult, trackAccountJob, type CompletionEvent } from '#infra/jobs/account-jobs.js';
import type { ScanTraffic } from '#domain/scans/traffic.js';
import { QR_ZIP_LINK_COLUMNS, QR_ZIP_NAME, writeQrZip } from './qr-render.js';

const INSERT_PROGRESS = 10;
const READ_BATCH = 500;

export function bulkGenerateProcessor(ctx: AppContext, scanTraffic: ScanTraffic): QueueProcessor<'bulk-generate'> {
  const pacing = { scansPerSecond: ctx.config.BULK_PACE_SCANS_PER_SEC, share: ctx.config.BULK_PACE_SHARE_PERCENT / 100 };
  return trackAccountJob<BulkGeneratePayload, BulkGenerateResult>(
    ctx.db,
    async (job, payload, reportProgress) => {
      const { accountId } = job.data;
      const jobId = job.id!;
      // Judged before the links are made, so they are stored with the design their codes show. The
      // gate is seeded: a retry finds the same verdict and the same fix.
      const judged = payload.print ? await judgeBulkDesign(ctx, accountId, payload, payload.print) : null;
      const stored = judged ? { ...payload, qrStyle: judged.qrStyle } : payload;
      const made = await insertBulkLinks(ctx, accountId, jobId, stored).catch((err: unknown) => {
        // Past the plan's link limits: another attempt would be refused the same way.
        throw err instanceof AppError ? new UnrecoverableError(err.message) : err;
      });
      const result: BulkGenerateResult = { jobId, count: made.length, links: made, ...(judged && { print: judged.result }) };
      await publishInterimResult(ctx.db, job, result, INSERT_PROGRESS);

      const total = made.length;
      async function* batches() {
        for (let from = 0; from < total; from += READ_BATCH) {
          const to = Math.min(total, from + READ_BATCH);
          // By the job's key, in record order; a link deleted since is simply not there.
          const rows = await ctx.db
            .select({ ...QR_ZIP_LINK_COLUMNS, index: links.sourceIndex })
            .from(links)
            .leftJoin(domains, eq(domains.id, links.domainId))
            .where(
              and(eq(links.sourceJobId, jobId), eq(links.accountId, accountId), gte(links.sourceIndex, from), lt(links.sourceIndex, to)),
            )
            .orderBy(asc(links.sourceIndex));
          const batch = rows.map((r) => ({
            id: r.id,
            slug: r.slug,
            host: r.host,
            qrOptions: r.qrOptions,
            entryName: zipEntryName(payload.records[r.index!]!.name, r.slug),
            placementCode: payload.placement ? BULK_PLACEMENT_CODE : null,
            // Bulk makes no menu links, so a page's own language is the only one.
            language: r.pageStyle?.language ?? null,
          }));
          yield { size: to - from, links: batch };
        }
      }
      const pacer = new BulkPacer(scanTraffic, pacing);
      const zip = await writeQrZip(ctx, pacer, {
        accountId,
        jobId,
        total,
        // A new batch's codes are rendered, not cached (renderQr): GET /links/:id/qr caches each when asked.
        fillCache: false,
        batches: batches(),
        trailer: () => [
          {
            name: 'manifest.csv',
            body: bulkManifest(
              shortUrlBaseOf(ctx.config, payload.domain?.hostname ?? null),
              made.map((l, i) => ({ name: payload.records[i]!.name, slug: l.dynamicLinkId })),
            ),
          },
          ...(judged ? [{ name: 'print-report.json', body: Buffer.from(`${JSON.stringify(judged.report, null, 2)}\n`) }] : []),
        ],
        onProgress: (done) => reportProgress(INSERT_PROGRESS + (done / total) * (99 - INSERT_PROGRESS)),
      });
      if (pacer.pausedMs > 0)
        await job.log(`paused ${Math.round(pacer.pausedMs)} ms in all while scans were arriving (BULK_PACE_SCANS_PER_SEC)`);
      return { ...result, qrZipUrl: jobDownloadUrl(ctx.config, jobId), fileName: QR_ZIP_NAME, zipBytes: zip.bytes };
    },
    bulkCompleted,
  );
}

/**
 * The batch's design judged at its print size on a short URL of the batch's length (every random
 * slug has the same length, so one sample stands for all of them), and fixed when it does not scan
 * well and auto-fix was asked.
 */
async function judgeBulkDesign(ctx: AppContext, accountId: string, payload: BulkGeneratePayload, print: BulkPrint) {
  const sample = markedShortUrl(
    linkShortUrl(ctx.config, payload.domain?.hostname ?? null, 'a'.repeat(AUTO_SLUG_LENGTH)),
    payload.placement ? BULK_PLACEMENT_CODE : null,
  );
  const report = await reportQr(
    ctx,
    { accountId, options: payload.qrStyle, data: sample, pathPrefix: 'qrOptions' },
    { sizeMm: print.sizeMm, ...(print.distanceMm !== undefined && { distanceMm: print.distanceMm }), proposeFix: print.autoFix },
  );
  const fix = print.autoFix ? report.fix : null;
  const result: BulkPrintResult = {
    verdict: fix ? fix.verdict : report.gate.verdict,
    score: fix ? fix.score : report.gate.score,
    fixed: fix ? fix.changes.map((c) => c.text) : [],
  };
  return { report, result, qrStyle: fix ? applyPatch(payload.qrStyle, fix.qrOptionsPatch) : payload.qrStyle };
}

/** `bulk.completed`: how many links, their ids, and the ZIP (with manifest.csv) to download. */
const bulkCompleted: CompletionEvent<BulkGeneratePayload, BulkGenerateResult> = async (_tx, { jobId, accountId }, payload, result) => ({
  accountId,
  type: 'bulk.completed',
  data: {
    job_id: jobId,
    count: result.count,
    requested: payload.records.length,
    domain: payload.domain?.hostname ?? null,
    link_ids: result.links.map((l) => l.dynamicLinkId),
    zip_url: result.qrZipUrl ?? null,
    file_name: result.fileName ?? null,
    zip_bytes: result.zipBytes ?? null,
  },
});
