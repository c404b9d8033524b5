import type { IncomingMessage } from 'node:http';

/** What is read and thrown away after an early answer before the connection is dropped. */
const LINGER_MAX_BYTES = 8 * 1024 * 1024;
const LINGER_MAX_MS = 2000;

const lingering = new WeakSet<IncomingMessage>();

/**
 * A lingering close, for an answer given before the request's body was read (a 413, a 415): the
 * answer says `Connection: close`, and once it is sent the server closes its side but goes on
 * reading, and discarding, what the client is still sending, up to `LINGER_MAX_BYTES` or
 * `LINGER_MAX_MS`, whichever comes first, before it drops the connection.
 *
 * Node closes such a connection as soon as the answer is written, with the client's bytes unread;
 * the kernel then resets it, and a client still sending its body (Node's fetch) sees EPIPE or
 * ECONNRESET and may lose the answer that had already arrived. A client that stops sending after
 * the bound gets that reset, as it would from any server; the bound keeps one client from holding
 * a connection (and bandwidth) for as long as it likes.
 *
 * Call before the answer is sent; the caller sets `Connection: close` on it (`mustClose`).
 */
export function lingerBeforeClose(request: IncomingMessage): { mustClose: boolean } {
  // An injected request (tests, light-my-request) has no socket of its own to close.
  if (request.complete || request.socket.destroyed || typeof request.socket.destroySoon !== 'function') return { mustClose: false };
  if (lingering.has(request)) return { mustClose: true };
  lingering.add(request);
  const socket = request.socket;
  const startedAt = socket.bytesRead;
  const destroySoon = socket.destroySoon.bind(socket);
  let answered = false;
  const drop = () => socket.destroy();
  const timer = setTimeout(drop, LINGER_MAX_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  // Node calls this once the answer is written to a connection that is to close: the server's side
  // ends (the client reads the answer and the end), the client's bytes are still read.
  socket.destroySoon = () => {
    answered = true;
    if (request.complete) return destroySoon();
    socket.end();
  };
  request.on('data', () => {
    if (socket.bytesRead - startedAt > LINGER_MAX_BYTES) drop();
  });
  request.once('end', () => {
    if (answered) destroySoon();
  });
  // The body is no one's now: read on (Fastify stopped at the limit and left the stream paused).
  request.resume();
  return { mustClose: true };
}
