/**
 * The qr-render job: a batch of links' QR codes, each as PNG and SVG, in one ZIP in object
 * storage (`accounts/<account>/exports/<job>/qr-codes.zip`). Renders go through the thread pool
 * (and fill the same cache GET /links/:id/qr reads); the ZIP streams into storage as it is built.
 * A retry rebuilds the same ZIP under the same key, so it never leaves duplicates. The result names
 * it for GET /jobs/:jobId/download (domain/jobs/files.ts). `writeQrZip` is the ZIP builder, shared
 * with bulk generation's render phase.
 */
import { markedShortUrl } from '#domain/links/attribution.js';
import { and, eq, inArray } from 'drizzle-orm';
import { cafes, domains, links } from '#domain/schema.js';
import type { AppContext } from '#infra/context.js';
import type { QrRenderPayload, QrRenderResult } from '#domain/jobs/job-kinds.js';
import type { QueueProcessor } from '#infra/jobs/queues.js';
import { BulkPacer } from '#domain/jobs/pacing.js';
import { jobDownloadUrl, jobFileKey, putJobFile } from '#domain/jobs/files.js';
import { trackAccountJob } from '#infra/jobs/account-jobs.js';
import { linkShortUrl } from '#domain/links/link-addresses.js';
import { planQr, QR_FORMATS, renderQr, renderQrCached } from '#domain/qr/qr-images.js';
import type { ScanTraffic } from '#domain/scans/traffic.js';
import { onFirstUse } from '#platform/on-first-use.js';

const READ_BATCH = 500;

export const QR_ZIP_NAME = 'qr-codes.zip';

/** archiver and the stream and glob packages under it: ~1.6 MB of source a worker holds from its first ZIP on. */
const loadArchiver = onFirstUse(() => import('archiver').then((m) => m.default));

export function qrZipKey(accountId: string, jobId: string): string {
  return jobFileKey(accountId, jobId, QR_ZIP_NAME);
}

/** One link of a ZIP: its codes are stored as `<entryName>.png` and `<entryName>.svg`. */
export interface QrZipLink {
  id: string;
  slug: string;
  /** Its brand domain; null: the default domain (the code encodes the short URL on it). */
  host: string | null;
  qrOptions: Record<string, unknown>;
  entryName: string;
  /** The code of the placement its image is of (`?q=<code>`); absent: the link's own code. */
  placementCode?: string | null;
  /** The language of the link's page (a menu link's: its cafe's), which a frame's default text speaks. */
  language: string | null;
}

/** The columns of a link a ZIP's entry is drawn from (with `domains` left-joined for the host). */
export const QR_ZIP_LINK_COLUMNS = {
  id: links.id,
  slug: links.slug,
  host: domains.hostname,
  qrOptions: links.qrOptions,
  pageStyle: links.pageStyle,
};

export interface QrZipInput {
  accountId: string;
  /** The job whose file the ZIP is (QR_ZIP_NAME in its folder). */
  jobId: string;
  /** How many links the batches hold in all (for progress). */
  total: number;
  /** The links, a batch at a time, in ZIP order; a batch may hold fewer (links deleted meanwhile). */
  batches: AsyncIterable<{ size: number; links: QrZipLink[] }>;
  /** Whether renders fill the cache GET /links/:id/qr reads (qr-render: yes; a new bulk batch: no, see renderQr). */
  fillCache: boolean;
  /** Files appended after the codes (a manifest). */
  trailer?: () => Array<{ name: string; body: Buffer }>;
  /** Links done so far, from 0 to `total`; called every 25 links and at the end. */
  onProgress: (done: number) => Promise<void>;
}

/**
 * Renders every link's PNG and SVG through the render threads (and their cache) and streams them,
 * in order, into one ZIP, the job's file (putJobFile: within the account's job-file quota). Storage makes the object appear whole or not at all, so a
 * ZIP is never seen half-written; a retry writes the same key again.
 */
export async function writeQrZip(ctx: AppContext, pacer: BulkPacer, input: QrZipInput): Promise<{ count: number; bytes: number }> {
  const { accountId } = input;
  const archiver = await loadArchiver();
  const archive = archiver('zip', { zlib: { level: 6 } });
  let archiveError: Error | null = null;
  archive.on('error', (err) => (archiveError = err));
  const stored = putJobFile(ctx, { accountId, jobId: input.jobId, fileName: QR_ZIP_NAME }, archive, 'application/zip');
  // If storage gives up early (the job-file quota reached, an error), stop rendering and feeding the archive.
  let storeFailed = false;
  stored.catch(() => {
    storeFailed = true;
    archive.abort();
  });

  let done = 0;
  let rendered = 0;
  // Enough renders in flight to keep every render thread busy, appended in link order; one at a
  // time while scans are arriving, each followed by the pause that keeps the job to its share.
  const window = Math.max(2, ctx.config.QR_RENDER_THREADS * 2);
  for await (const batch of input.batches) {
    if (storeFailed) break;
    const renders = batch.links.flatMap((link) =>
      QR_FORMATS.map((format) => () => {
        const data = markedShortUrl(linkShortUrl(ctx.config, link.host, link.slug), link.placementCode);
        const plan = planQr({ accountId, owner: `link-${link.id}`, options: link.qrOptions, data, format, language: link.language });
        const render = input.fillCache ? renderQrCached(ctx, plan) : renderQr(ctx, plan);
        return render.then((r) => ({ name: `${link.entryName}.${format}`, body: r.body }));
      }),
    );
    const inFlight: Array<Promise<{ name: string; body: Buffer }>> = [];
    let next = 0;
    // A render that fails while an earlier one is awaited (or during a pause) is not unhandled:
    // its error reaches the job when its turn comes to be awaited.
    const start = () => {
      const render = renders[next++]!();
      render.catch(() => undefined);
      inFlight.push(render);
    };
    while (next < renders.length && inFlight.length < window) start();
    while (inFlight.length && !storeFailed) {
      const entry = await inFlight.shift()!;
      const limit = (await pacer.betweenUnits()) ? 1 : window;
      while (next < renders.length && inFlight.length < limit) start();
      // A PNG is deflated already: stored as it is, not squeezed again for nothing (SVG text is).
      archive.append(entry.body, { name: entry.name, store: entry.name.endsWith('.png') });
      if (entry.name.endsWith('.svg')) {
        done++;
        rendered++;
        if (done % 25 === 0 || done === input.total) await input.onProgress(done);
      }
    }
    done += batch.size - batch.links.length; // links deleted since the job was made count as done
  }
  if (!storeFailed) {
    for (const file of input.trailer?.() ?? []) archive.append(file.body, { name: file.name });
    await archive.finalize();
  }
  const info = await stored;
  if (archiveError) throw archiveError;
  return { count: rendered, bytes: info.size };
}

export function qrRenderProcessor(ctx: AppContext, scanTraffic: ScanTraffic): QueueProcessor<'qr-render'> {
  const pacing = { scansPerSecond: ctx.config.BULK_PACE_SCANS_PER_SEC, share: ctx.config.BULK_PACE_SHARE_PERCENT / 100 };
  return trackAccountJob<QrRenderPayload, QrRenderResult>(ctx.db, async (job, payload, reportProgress) => {
    const pacer = new BulkPacer(scanTraffic, pacing);
    const { accountId } = job.data;
    const total = payload.linkIds.length;
    async function* batches() {
      for (let i = 0; i < total; i += READ_BATCH) {
        const ids = payload.linkIds.slice(i, i + READ_BATCH);
        const rows = await ctx.db
          .select({ ...QR_ZIP_LINK_COLUMNS, cafeLanguage: cafes.language })
          .from(links)
          .leftJoin(domains, eq(domains.id, links.domainId))
          .leftJoin(cafes, eq(cafes.linkId, links.id))
          .where(and(eq(links.accountId, accountId), inArray(links.id, ids)));
        const byId = new Map(rows.map((r) => [r.id, r]));
        const ordered = ids.flatMap((id) => {
          const row = byId.get(id);
          if (!row) return [];
          const { pageStyle, cafeLanguage, ...link } = row;
          return [{ ...link, entryName: row.slug, language: pageStyle?.language ?? cafeLanguage }];
        });
        yield { size: ids.length, links: ordered };
      }
    }
    const zip = await writeQrZip(ctx, pacer, {
      accountId,
      jobId: job.id!,
      total,
      fillCache: true,
      batches: batches(),
      onProgress: (done) => reportProgress((done / total) * 99),
    });
    if (pacer.pausedMs > 0)
      await job.log(`paused ${Math.round(pacer.pausedMs)} ms in all while scans were arriving (BULK_PACE_SCANS_PER_SEC)`);
    await reportProgress(100);
    return {
      zipKey: qrZipKey(accountId, job.id!),
      fileName: QR_ZIP_NAME,
      downloadUrl: jobDownloadUrl(ctx.config, job.id!),
      count: zip.count,
      bytes: zip.bytes,
    };
  });
}
