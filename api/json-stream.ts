import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/**
 * Answers a page, `{"data":[…],"meta":{…}}` (without `meta` when it is undefined: a whole list),
 * written as its items arrive: `items` yields JSON text
 * of one or more comma-separated items at a time. The stream asks for the next piece only once
 * the client has taken the last one (backpressure through the socket), so a big page never sits
 * whole in memory, and the event loop serves other requests between pieces. The bytes are those
 * JSON.stringify gives for the whole page (the route's response schema still documents it).
 */
export function sendJsonPage(reply: FastifyReply, items: AsyncIterable<string>, meta?: unknown): FastifyReply {
  async function* body() {
    yield '{"data":[';
    let first = true;
    for await (const piece of items) {
      yield first ? piece : `,${piece}`;
      first = false;
    }
    yield meta === undefined ? ']}' : `],"meta":${JSON.stringify(meta)}}`;
  }
  // Byte mode with the smallest buffer: one piece is read ahead, never more.
  const stream = Readable.from(body(), { objectMode: false, highWaterMark: 1 });
  return reply.type('application/json; charset=utf-8').send(stream);
}

/** Per key (an account), the last chunk asked for in this process; the next one starts after it. */
const chunkTurns = new Map<string, Promise<unknown>>();

/**
 * Runs `work` after the chunks of `key` asked for before it: several big lists of one account
 * take turns, a chunk each, so together they take the event loop and the database like one list,
 * not like four (before, four 500 MB pages slowed another account's calls for seconds). Only
 * reading and serializing a chunk takes a turn; a client slow to read holds none.
 */
function inTurn<T>(key: string, work: () => Promise<T>): Promise<T> {
  const run = (chunkTurns.get(key) ?? Promise.resolve()).then(work);
  // The caller gets `run` and its error; this chain only marks when the turn is over.
  const done = run.catch(() => undefined);
  chunkTurns.set(key, done);
  void done.then(() => {
    if (chunkTurns.get(key) === done) chunkTurns.delete(key);
  });
  return run;
}

export interface JsonChunking<T> {
  /** Reads the items of these ids, in their order; an id with no item any more is left out. */
  read: (ids: string[]) => Promise<T[]>;
  /** What an item is on the wire (JSON.stringify's input). */
  view: (item: T) => unknown;
  /** Items in the first chunk; later chunks hold as many as make about `chunkBytes` of JSON. */
  firstChunkItems: number;
  chunkBytes: number;
  /** Whose turn a chunk takes (inTurn): an account's lists share one. */
  turnKey: string;
}

/**
 * The items of `ids` as JSON text for sendJsonPage, in that order, a chunk per `read`: the first
 * of `firstChunkItems`, each later one sized so that as many items as big as the biggest so far
 * make about `chunkBytes`. Items are read only as the consumer pulls, so memory holds one chunk.
 */
export async function* jsonChunks<T>(ids: readonly string[], o: JsonChunking<T>): AsyncGenerator<string, void, undefined> {
  let perChunk = o.firstChunkItems;
  let largest = 0;
  for (let at = 0; at < ids.length;) {
    const chunkIds = ids.slice(at, at + perChunk);
    at += chunkIds.length;
    const items = await inTurn(o.turnKey, async () => (await o.read(chunkIds)).map((item) => JSON.stringify(o.view(item))));
    if (items.length === 0) continue;
    for (const item of items) largest = Math.max(largest, item.length);
    perChunk = Math.max(1, Math.floor(o.chunkBytes / largest));
    yield items.join(',');
  }
}
