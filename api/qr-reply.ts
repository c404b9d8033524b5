import type { FastifyReply, FastifyRequest } from 'fastify';
import { planQr, renderQrCached, type QrImageInput, type QrPrintInput } from '#domain/qr/qr-images.js';
import { DEFAULT_PRINT_SIZE_MM } from '#domain/qr/print/print-sizes.js';
import type { AppContext } from '#infra/context.js';

/**
 * Answers a QR picture: 304 when the client already holds it (the ETag is the content hash of
 * everything that decides the picture), else the cached or freshly rendered bytes. `no-cache`
 * makes clients revalidate, so a restyled code shows at once while unchanged ones cost a 304.
 * A render waits its account's turn for a thread: past QR_RENDER_ACCOUNT_QUEUE waiting renders of
 * the account it is a 429, and one not done in QR_RENDER_TIMEOUT_MS a 503 (both with Retry-After).
 */
export async function sendQr(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, input: QrImageInput, fileStem?: string) {
  const plan = planQr(input);
  const etag = `"${plan.etag}"`;
  reply.header('etag', etag).header('cache-control', 'private, no-cache');
  // A print PDF is a file to keep or send to a print shop: it is named for the link and its size.
  if (plan.print && input.format === 'pdf') {
    reply.header('content-disposition', `attachment; filename="${pdfFileName(fileStem ?? 'qr-code', plan.print.sizeMm)}"`);
  }
  if (request.headers['if-none-match'] === etag) return reply.code(304).send();
  const rendered = await renderQrCached(ctx, plan, { maxWaiting: ctx.config.QR_RENDER_ACCOUNT_QUEUE });
  return reply
    .header('content-type', rendered.contentType)
    .header('x-qr-cache', rendered.cached ? 'hit' : 'miss')
    .send(rendered.body);
}

/** `qr-<stem>-<size>mm.pdf`, in characters every file system and header keeps. */
function pdfFileName(stem: string, sizeMm: number): string {
  const safe =
    stem
      .replace(/[^A-Za-z0-9_-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80) || 'code';
  return `qr-${safe}-${String(sizeMm).replace('.', '_')}mm.pdf`;
}

/**
 * The print part of a QR query: present with format=pdf or any print parameter (planQr refuses
 * a PDF's options on a PNG or SVG rather than ignore them).
 */
export function printInputOf(
  query: { format: string; sizeMm?: number; colorSpace?: QrPrintInput['colorSpace']; bleedMm?: number; cropMarks?: boolean },
  title: string,
): QrPrintInput | undefined {
  const { sizeMm, colorSpace, bleedMm, cropMarks } = query;
  if (query.format !== 'pdf' && sizeMm === undefined && colorSpace === undefined && bleedMm === undefined && cropMarks === undefined)
    return undefined;
  return {
    sizeMm: sizeMm ?? DEFAULT_PRINT_SIZE_MM,
    ...(colorSpace !== undefined && { colorSpace }),
    ...(bleedMm !== undefined && { bleedMm }),
    ...(cropMarks !== undefined && { cropMarks }),
    title,
  };
}
