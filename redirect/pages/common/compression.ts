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
import type { ContentCoding } from '#platform/http/accept-encoding.js';

const COMPRESS_ASYNC_BYTES = 64 * 1024;

const BROTLI_OPTIONS = (size: number): zlib.BrotliOptions => ({
  params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size },
});
const GZIP_OPTIONS: zlib.ZlibOptions = { level: 6 };
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** `input` encoded, in this thread. */
export function compressSync(input: Uint8Array, encoding: ContentCoding): Buffer {
  return encoding === 'br' ? zlib.brotliCompressSync(input, BROTLI_OPTIONS(input.length)) : zlib.gzipSync(input, GZIP_OPTIONS);
}

/** `body` encoded; synchronously when small (see above). */
export function compress(body: string, encoding: ContentCoding): Buffer | Promise<Buffer> {
  const input = Buffer.from(body);
  if (input.length <= COMPRESS_ASYNC_BYTES) return compressSync(input, encoding);
  return encoding === 'br' ? brotli(input, BROTLI_OPTIONS(input.length)) : gzip(input, GZIP_OPTIONS);
}
