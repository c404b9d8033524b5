import type { FastifyReply } from 'fastify';
import { acceptedCoding, COMPRESS_MIN_BYTES } from '#platform/http/accept-encoding.js';
import { compress } from './compression.js';
import { pageHeaders } from './layout.js';
import type { EncodedPage } from './types.js';

/**
 * Answers with a page: its status, the default page headers (CSP and all) plus its own, the body
 * compressed for the client (compression.ts) unless the page is already encoded or says how it
 * varies (a page that set `Vary` chose its encoding itself).
 */
export function sendPage(reply: FastifyReply, page: EncodedPage) {
  const headers: Record<string, string> = { ...pageHeaders, ...page.headers };
  const body = page.body;
  if (typeof body !== 'string' || headers.Vary || body.length < COMPRESS_MIN_BYTES)
    return reply.code(page.status).headers(headers).send(body);
  headers.Vary = 'Accept-Encoding';
  const encoding = acceptedCoding(reply.request.headers['accept-encoding']);
  if (encoding === null) return reply.code(page.status).headers(headers).send(body);
  headers['Content-Encoding'] = encoding;
  const encoded = compress(body, encoding);
  if (Buffer.isBuffer(encoded)) return reply.code(page.status).headers(headers).send(encoded);
  return encoded.then((buffer) => reply.code(page.status).headers(headers).send(buffer));
}
