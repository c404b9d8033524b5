/**
 * Requests Node's HTTP parser refuses never become requests: the server's `clientError` listener
 * gets the error and the raw socket. The api (JSON bodies) and the redirect (HTML pages) answer
 * them in their own shapes; what the status is, and how an answer is written to a bare socket, is
 * the same for both and lives here.
 */
import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

export type ParserError = Error & { code?: string; rawPacket?: unknown };

/**
 * The status for an error of Node's HTTP parser: 408 for a request that took too long; for header
 * overflow 414 when the request line alone takes most of the limit (the URL is what is too long),
 * else 431; anything else a malformed request (400).
 */
export function clientErrorStatus(err: ParserError, maxHeaderBytes = maxHeaderSize): 400 | 408 | 414 | 431 {
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  if (err.code !== 'HPE_HEADER_OVERFLOW') return 400;
  const packet = Buffer.isBuffer(err.rawPacket) ? err.rawPacket : undefined;
  if (!packet || !/^[A-Z]+ /.test(packet.subarray(0, 16).toString('latin1'))) return 431;
  const lineEnd = packet.indexOf('\r\n');
  return (lineEnd < 0 ? packet.length : lineEnd) > maxHeaderBytes / 2 ? 414 : 431;
}

/** True when there is nobody left to answer (a reset, or a socket already gone). */
export function clientIsGone(err: ParserError, socket: Socket): boolean {
  return err.code === 'ECONNRESET' || socket.destroyed;
}

/** Writes a whole response to a socket with no request or reply object, then closes the connection. */
export function answerOnSocket(socket: Socket, err: Error, status: number, headers: Record<string, string>, body: string): void {
  if (socket.writable) {
    const lines = Object.entries({ ...headers, 'Content-Length': String(Buffer.byteLength(body)), Connection: 'close' })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${lines}\r\n${body}`);
  }
  socket.destroy(err);
}
