/**
 * A bulk insert's body (up to 16 MiB) is parsed and checked in a thread, not on the api's event
 * loop (decision 0361): while one account's 14 MB body is read, another account's GET /me answers
 * as it does when the api is quiet. Over real HTTP, against the real api (no workers: the valid
 * body's job only waits in its queue). The answers are those the event loop gave: a 400 naming
 * the bad entry's field, "Body is not valid JSON", a prototype key named.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkInsertEntriesOf } from '#domain/cafes/bulk-insert-packing.js';
import { bulkInsertBody, type CafeBulkInsertPayload } from '#domain/cafes/bulk-insert-schema.js';
import { bigMenu } from '../../support/big-menu.js';
import { cafeUrl, createCafe } from '../../support/cafe-menus.js';
import { call, createTestAccount, listenOnLoopback, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';

let api: TestApi;
let origin: string;

beforeAll(async () => {
  api = await startTestApi();
  origin = await listenOnLoopback(api);
});
afterAll(() => api?.close());

const post = (acct: TestAccount, cafeId: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${origin}${cafeUrl(cafeId, '/items/bulk-insert')}`, {
    method: 'POST',
    headers: { authorization: `Basic ${acct.key}`, 'content-type': 'application/json', ...headers },
    body,
  });

/** Milliseconds GET /me takes for `acct`. */
async function meTime(acct: TestAccount): Promise<number> {
  const start = performance.now();
  const res = await fetch(`${origin}/api/v1/me`, { headers: { authorization: `Basic ${acct.key}` } });
  expect(res.status).toBe(200);
  await res.arrayBuffer();
  return performance.now() - start;
}

describe('a bulk insert body is read off the event loop', () => {
  it("another account's /me answers while a 14 MB body is parsed and checked", { timeout: 120_000 }, async () => {
    const a = await createTestAccount(api.ctx);
    const b = await createTestAccount(api.ctx);
    const cafe = await createCafe(api.app, a.key, 'Big body');
    const items = bigMenu();
    const valid = JSON.stringify({ items });
    expect(valid.length).toBeGreaterThan(13_000_000);
    // The last entry's price is wrong: the whole body is parsed and every entry checked.
    const invalid = JSON.stringify({ items: [...items.slice(0, -1), { ...items.at(-1), price: -1 }] });

    for (const [body, expected] of [
      [invalid, 400],
      [valid, 202],
    ] as const) {
      for (let i = 0; i < 3; i++) await meTime(b); // warm
      const quiet: number[] = [];
      for (let i = 0; i < 10; i++) quiet.push(await meTime(b));
      const during: number[] = [];
      let done = false;
      const started = performance.now();
      const answer = post(a, cafe.id, body, { prefer: 'respond-async' }).then(async (res) => {
        const took = performance.now() - started;
        done = true;
        return { res, json: await res.json(), took };
      });
      while (!done) during.push(await meTime(b));
      const { res, json, took } = await answer;
      expect(res.status, JSON.stringify(json)).toBe(expected);
      if (expected === 400) expect(json.errors).toEqual([{ path: 'items[4999].price', message: expect.any(String) }]);
      if (expected === 202) {
        // The job's input is the entries the thread checked, packed there: never 14 MB of JSON
        // written out again by the event loop.
        const { rows } = await api.ctx.database.pool.query<{ payload: CafeBulkInsertPayload; bytes: number }>(
          'select payload, octet_length(payload::text) as bytes from jobs where id = $1',
          [json.jobId],
        );
        expect(Object.keys(rows[0]!.payload).sort()).toEqual(['cafeId', 'packedItems']);
        expect(rows[0]!.bytes).toBeLessThan(valid.length / 4);
        expect(bulkInsertEntriesOf(rows[0]!.payload)).toEqual(bulkInsertBody.parse({ items }).items);
      }
      // On the event loop, /me waited for the whole parse and check: most of the body's time.
      // Off it, /me stays a small part of that, whatever the machine's load.
      const slowest = Math.max(...during);
      expect(during.length).toBeGreaterThan(2);
      expect(slowest, `quiet ${quiet.map(Math.round)} during ${during.map(Math.round)} body ${Math.round(took)} ms`).toBeLessThan(
        Math.max(took / 4, 5 * Math.max(...quiet)),
      );
    }
  });

  it('answers what the event loop answered for a body that is not JSON, a prototype key or text Postgres cannot store', async () => {
    const a = await createTestAccount(api.ctx);
    const cafe = await createCafe(api.app, a.key, 'Bad bodies');
    const good = { name: 'Espresso', price: 2.5, currency: 'EUR', category: 'Coffee' };
    const cases: Array<[string, unknown]> = [
      [
        '{"items": [',
        { code: 'validation_failed', message: 'Validation failed', errors: [{ path: '(body)', message: 'Body is not valid JSON' }] },
      ],
      [
        `{"items": [${JSON.stringify(good)}, {"__proto__": {"x": 1}}]}`,
        {
          code: 'validation_failed',
          message: 'Validation failed',
          errors: [{ path: 'items[1].__proto__', message: 'Field name not allowed' }],
        },
      ],
      [
        JSON.stringify({ items: [good, { ...good, name: 'a\u0000b' }] }),
        {
          code: 'validation_failed',
          message: 'Validation failed',
          errors: [{ path: 'items[1].name', message: 'Must not contain NUL characters (\\u0000) or unpaired UTF-16 surrogates' }],
        },
      ],
      ['', expect.objectContaining({ code: 'validation_failed' })],
    ];
    for (const [body, expected] of cases) {
      const res = await post(a, cafe.id, body);
      expect(res.status, body.slice(0, 40)).toBe(400);
      expect(await res.json()).toEqual(expected);
    }
    // Past 16 MiB: the 413 before any of it is parsed.
    const tooBig = await post(a, cafe.id, `{"items":"${'x'.repeat(17 * 1024 * 1024)}"}`);
    expect(tooBig.status).toBe(413);
    expect((await tooBig.json()).code).toBe('payload_too_large');
    // Another account's cafe: its 404, once the body is good.
    const other = await createTestAccount(api.ctx);
    const refused = await call(api.app, other.key, 'POST', cafeUrl(cafe.id, '/items/bulk-insert'), { items: [good] });
    expect(refused.statusCode).toBe(404);
  });
});
