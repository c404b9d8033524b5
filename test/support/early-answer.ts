import { connect } from 'node:net';

/**
 * Sends a request head, then body bytes until the server's whole answer (`answeredWhen`) is in,
 * then `afterBytes` more, as a client still sending its body does. Half-open, as such a client
 * is: the server ending its side does not end the sending. Says what came back and whether a write
 * failed (EPIPE, ECONNRESET) or the connection closed before all was sent, then waits for the server
 * to drop the connection (its bound reached: writes from then on fail, as they may).
 */
export async function sendPastTheAnswer(
  port: number,
  head: string,
  opts: { answeredWhen: RegExp; afterBytes: number },
): Promise<{ answer: string; failure: Error | null; closedEarly: boolean }> {
  const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  await new Promise((resolve) => socket.once('connect', resolve));
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  let answer = '';
  let failure: Error | null = null;
  socket.on('data', (c: Buffer) => (answer += c.toString('latin1')));
  socket.on('error', (err) => (failure = err));
  const ended = new Promise<void>((resolve) => socket.once('end', resolve));
  const closed = new Promise((resolve) => socket.once('close', resolve));
  // A write waits for room, or for the connection to be gone (the error then says why).
  const write = (data: string | Buffer) =>
    new Promise<void>((resolve) => {
      if (socket.destroyed || socket.write(data)) return resolve();
      socket.once('drain', resolve);
      socket.once('close', resolve);
    });
  await write(head);
  for (let sent = 0; !opts.answeredWhen.test(answer) && !socket.destroyed && sent < 64 * 1024 * 1024; sent += chunk.length)
    await write(chunk);
  for (let sent = 0; sent < opts.afterBytes; sent += chunk.length) await write(chunk);
  await new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.write(Buffer.alloc(0), () => resolve())));
  const closedEarly = socket.destroyed;
  const failedEarly: Error | null = failure;
  if (!closedEarly) {
    await ended;
    // The server drops the connection once its bound is reached.
    while (!socket.destroyed) await write(chunk);
  }
  await closed;
  return { answer, failure: failedEarly, closedEarly };
}
