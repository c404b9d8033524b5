import { type Readable, pipeline } from 'node:stream';
import { promisify } from 'node:util';
import { brotliCompress, constants, createBrotliCompress, createGzip, gzip } from 'node:zlib';
import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { acceptedCoding, COMPRESS_MIN_BYTES, type ContentCoding } from '#platform/http/accept-encoding.js';

/**
 * Compresses the api's JSON answers for clients that accept it (decision 0376): brotli when the
 * client takes it, else gzip, at fast levels, since every answer is compressed anew. Only JSON:
 * downloads (files, QR PNGs, ZIPs, CSV exports, anything sent as an attachment) are sent as they
 * are, and the console's files come already compressed from its build (api/console.ts). No
 * Accept-Encoding, an answer under COMPRESS_MIN_BYTES or one already encoded: identity, as before.
 */

const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\b/i;

// Fast levels: brotli 4 compresses JSON about as well as gzip 9 at gzip 5's speed. The window is
// kept at 256 KB (lgwin 18) so a stream's compressor holds little native memory per answer.
const BROTLI_PARAMS = {
  [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
  [constants.BROTLI_PARAM_QUALITY]: 4,
  [constants.BROTLI_PARAM_LGWIN]: 18,
};
const GZIP_LEVEL = 5;

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** A whole answer, compressed on libuv's threads (not the event loop). */
function compressWhole(coding: ContentCoding, body: Buffer): Promise<Buffer> {
  return coding === 'br'
    ? brotliAsync(body, { params: { ...BROTLI_PARAMS, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } })
    : gzipAsync(body, { level: GZIP_LEVEL });
}

/**
 * A streamed answer (api/json-stream.ts), compressed piece by piece: each piece written is flushed
 * out, so the client still gets the page as it is read, and the compressor pulls the next piece
 * only as the socket takes its output, which keeps the stream's backpressure and its turns. A
 * client that goes away destroys the compressor, and `pipeline` the source with it.
 */
function compressStream(coding: ContentCoding, source: Readable): Readable {
  const compressor =
    coding === 'br'
      ? createBrotliCompress({ params: BROTLI_PARAMS, flush: constants.BROTLI_OPERATION_FLUSH })
      : createGzip({ level: GZIP_LEVEL, flush: constants.Z_SYNC_FLUSH });
  // Errors reach the reply through the compressor, which pipeline destroys with them.
  return pipeline(source, compressor, () => {});
}

const isStream = (payload: unknown): payload is Readable =>
  typeof payload === 'object' && payload !== null && typeof (payload as Readable).pipe === 'function';

export default fp(async (app) => {
  app.addHook('onSend', async (request, reply, payload) => {
    const type = reply.getHeader('content-type');
    if (typeof type !== 'string' || !JSON_TYPE.test(type)) return payload;
    // A JSON file sent as a download, or an answer some route already encoded, stays as it is.
    if (reply.hasHeader('content-encoding') || reply.hasHeader('content-disposition')) return payload;
    reply.header('vary', varyWithAcceptEncoding(reply.getHeader('vary')));
    const coding = acceptedCoding(request.headers['accept-encoding']);
    if (coding === null || payload === null || payload === undefined) return payload;
    if (isStream(payload)) {
      reply.header('content-encoding', coding).removeHeader('content-length');
      return compressStream(coding, payload);
    }
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
    if (body.length < COMPRESS_MIN_BYTES) return payload;
    const compressed = await compressWhole(coding, body);
    reply.header('content-encoding', coding).removeHeader('content-length');
    return compressed;
  });
});

/** `vary` with Accept-Encoding added, once. */
export function varyWithAcceptEncoding(vary: ReturnType<FastifyReply['getHeader']>): string {
  const names = (Array.isArray(vary) ? vary.join(',') : vary === undefined ? '' : String(vary))
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  if (names.some((n) => n === '*' || n.toLowerCase() === 'accept-encoding')) return names.join(', ');
  return [...names, 'Accept-Encoding'].join(', ');
}
