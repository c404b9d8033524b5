/**
 * Pages are sent compressed to clients that accept it: brotli (quality 5) where accepted, else
 * gzip (level 6). HTML compresses about tenfold, which is most of a phone's wait on a slow
 * network. A typical page (a few KB) takes tens of microseconds to compress, so it is done in the
 * request; past COMPRESS_ASYNC_BYTES (large landing pages) on zlib's thread pool, so no request
 * waits behind it. Landing and menu pages are compressed once, in the render thread, and kept
 * (redirect/page-cache.ts).
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';

export type Encoding = 'br' | 'gzip';

/** Bodies smaller than this are sent as they are: compressing them saves less than a packet. */
export const COMPRESS_MIN_BYTES = 1024;
const COMPRESS_ASYNC_BYTES = 64 * 1024;

const BROTLI_OPTIONS = (size: number): zlib.BrotliOptions => ({
  params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size },
});
const GZIP_OPTIONS: zlib.ZlibOptions = { level: 6 };
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** The best encoding the client accepts (`Accept-Encoding`, q-values honoured), brotli first; null for none. */
export function acceptedEncoding(header: string | string[] | undefined): Encoding | null {
  if (!header) return null;
  const weights = new Map<string, number>();
  for (const part of String(header).split(',')) {
    const [token, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    weights.set(token!, q ? Number(q.slice(2)) || 0 : 1);
  }
  const accepts = (name: Encoding) => (weights.get(name) ?? weights.get('*') ?? 0) > 0;
  return accepts('br') ? 'br' : accepts('gzip') ? 'gzip' : null;
}

/** `input` encoded, in this thread. */
export function compressSync(input: Uint8Array, encoding: Encoding): Buffer {
  return encoding === 'br' ? zlib.brotliCompressSync(input, BROTLI_OPTIONS(input.length)) : zlib.gzipSync(input, GZIP_OPTIONS);
}

/** `body` encoded; synchronously when small (see above). */
export function compress(body: string, encoding: Encoding): Buffer | Promise<Buffer> {
  const input = Buffer.from(body);
  if (input.length <= COMPRESS_ASYNC_BYTES) return compressSync(input, encoding);
  return encoding === 'br' ? brotli(input, BROTLI_OPTIONS(input.length)) : gzip(input, GZIP_OPTIONS);
}
