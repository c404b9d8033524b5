/**
 * Errors answered before a request reaches a route, in the redirect's own HTML pages rather than
 * Fastify's or Node's JSON: a path the router cannot decode or that is longer than it takes
 * (`frameworkErrors`), and requests Node's HTTP parser refuses (`clientError`: headers too large,
 * a malformed request line or header, a request that took too long).
 */
import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '../shared/logger.js';
import { renderClientErrorPage, renderServiceUnavailablePage, sendPage } from './pages/index.js';

/** Fastify's `frameworkErrors`: FST_ERR_BAD_URL (a malformed percent-encoding) and FST_ERR_MAX_PARAM_LENGTH. */
export function answerFrameworkError(logger: Logger) {
  return (err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (err.code === 'FST_ERR_BAD_URL') return sendPage(reply, renderClientErrorPage(400));
    if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') return sendPage(reply, renderClientErrorPage(414));
    logger.error({ err, url: request.url }, 'redirect request failed before routing');
    return sendPage(reply, renderServiceUnavailablePage());
  };
}

/**
 * The status for an error of Node's HTTP parser (the request never became one). Header overflow
 * is a 414 when the request line alone takes most of the limit (the URL is what is too long),
 * else a 431.
 */
export function clientErrorStatus(err: NodeJS.ErrnoException & { rawPacket?: unknown }, maxHeaderBytes = maxHeaderSize): number {
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  if (err.code !== 'HPE_HEADER_OVERFLOW') return 400;
  const packet = Buffer.isBuffer(err.rawPacket) ? err.rawPacket : undefined;
  if (!packet || !/^[A-Z]+ /.test(packet.subarray(0, 16).toString('latin1'))) return 431;
  const lineEnd = packet.indexOf('\r\n');
  return (lineEnd < 0 ? packet.length : lineEnd) > maxHeaderBytes / 2 ? 414 : 431;
}

/**
 * The server's `clientError` listener: there is no request or reply, so the page is written to the
 * socket by hand (its headers, the exact Content-Length), then the connection is closed.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  // A connection reset, or one already gone: nobody to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const page = renderClientErrorPage(clientErrorStatus(err));
    const headers = Object.entries({ ...page.headers, 'Content-Length': String(Buffer.byteLength(page.body)), Connection: 'close' })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(`HTTP/1.1 ${page.status} ${STATUS_CODES[page.status]}\r\n${headers}\r\n${page.body}`);
  }
  socket.destroy(err);
}
