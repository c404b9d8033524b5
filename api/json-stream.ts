import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/**
 * Answers a page, `{"data":[…],"meta":{…}}`, written as its items arrive: `items` yields JSON text
 * of one or more comma-separated items at a time. The stream asks for the next piece only once
 * the client has taken the last one (backpressure through the socket), so a big page never sits
 * whole in memory, and the event loop serves other requests between pieces. The bytes are those
 * JSON.stringify gives for the whole page (the route's response schema still documents it).
 */
export function sendJsonPage(reply: FastifyReply, items: AsyncIterable<string>, meta: unknown): FastifyReply {
  async function* body() {
    yield '{"data":[';
    let first = true;
    for await (const piece of items) {
      yield first ? piece : `,${piece}`;
      first = false;
    }
    yield `],"meta":${JSON.stringify(meta)}}`;
  }
  // Byte mode with the smallest buffer: one piece is read ahead, never more.
  const stream = Readable.from(body(), { objectMode: false, highWaterMark: 1 });
  return reply.type('application/json; charset=utf-8').send(stream);
}
