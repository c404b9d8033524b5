import type { FastifyReply, FastifyRequest } from 'fastify';
import { planQr, renderQrCached, type QrImageInput } from '#domain/qr/qr-images.js';
import type { AppContext } from '#infra/context.js';

/**
 * Answers a QR picture: 304 when the client already holds it (the ETag is the content hash of
 * everything that decides the picture), else the cached or freshly rendered bytes. `no-cache`
 * makes clients revalidate, so a restyled code shows at once while unchanged ones cost a 304.
 * A render waits its account's turn for a thread: past QR_RENDER_ACCOUNT_QUEUE waiting renders of
 * the account it is a 429, and one not done in QR_RENDER_TIMEOUT_MS a 503 (both with Retry-After).
 */
export async function sendQr(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, input: QrImageInput) {
  const plan = planQr(input);
  const etag = `"${plan.etag}"`;
  reply.header('etag', etag).header('cache-control', 'private, no-cache');
  if (request.headers['if-none-match'] === etag) return reply.code(304).send();
  const rendered = await renderQrCached(ctx, plan, { maxWaiting: ctx.config.QR_RENDER_ACCOUNT_QUEUE });
  return reply
    .header('content-type', rendered.contentType)
    .header('x-qr-cache', rendered.cached ? 'hit' : 'miss')
    .send(rendered.body);
}
