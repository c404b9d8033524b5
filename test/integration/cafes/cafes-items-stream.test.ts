/**
 * GET /cafes/:id/items is streamed like the links list (decision 0106): the items are read from
 * Postgres a chunk at a time as the client takes the answer, so 5000 items with long descriptions
 * never sit whole in the api's memory nor are serialized in one turn of its event loop. Over real
 * HTTP: the bytes are exactly what serializing the whole list with the route's response schema
 * gives, and a client that pauses holds the rest of the list back.
 */
import { and, eq, sql } from 'drizzle-orm';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cafeItems } from '#domain/schema.js';
import { menuOrder } from '#domain/cafes/menu.js';
import { itemResponse } from '#api/routes/cafes/schemas.js';
import { itemView } from '#api/routes/cafes/view.js';
import { cafeUrl, createCafe, createMenu, SAMPLE_MENU } from '../../support/cafe-menus.js';
import { call, createTestAccount, listenOnLoopback, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';
import { streamedGet } from '../../support/streamed-get.js';

let api: TestApi;
let origin: string;

beforeAll(async () => {
  api = await startTestApi();
  origin = await listenOnLoopback(api);
});
afterAll(() => api?.close());

/** A GET over HTTP; `onFirstBytes` runs (with the response paused) when the first body bytes arrive. */
function get(acct: TestAccount, path: string, onFirstBytes?: () => Promise<void>) {
  return streamedGet(`${origin}${path}`, acct.key, onFirstBytes);
}

// What the route's response schema made of the whole list before it streamed.
const serializeList = serializerCompiler({ schema: z.object({ data: z.array(itemResponse) }), method: 'GET', url: '/cafes/:id/items' });

describe('GET /cafes/:id/items streams the list', () => {
  it('writes exactly the JSON the whole list serializes to, whole or of one category', async () => {
    const me = await createTestAccount(api.ctx);
    const cafe = await createCafe(api.app, me.key, 'Streamed');
    const menu = await createMenu(api.app, me.key, cafe.id, SAMPLE_MENU);
    const categoryId = [...menu.categories.values()][0]!;
    for (const [query, where] of [
      ['', eq(cafeItems.cafeId, cafe.id)],
      [`?category_id=${categoryId}`, and(eq(cafeItems.cafeId, cafe.id), eq(cafeItems.categoryId, categoryId))],
      ['?category_id=not-a-uuid', sql`false`],
    ] as const) {
      const { res, body } = await get(me, `${cafeUrl(cafe.id, '/items')}${query}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      const rows = await api.ctx.db
        .select()
        .from(cafeItems)
        .where(where)
        .orderBy(...menuOrder(cafeItems));
      expect(body.toString('utf8')).toBe(serializeList({ data: rows.map((r) => itemView(api.ctx, r)) }));
    }
    expect(JSON.parse((await get(me, cafeUrl(cafe.id, '/items'))).body.toString('utf8')).data.length).toBeGreaterThan(5);
    // Another account's cafe is a 404, as before.
    const other = await createTestAccount(api.ctx);
    const theirs = await call(api.app, other.key, 'GET', cafeUrl(cafe.id, '/items'));
    expect(theirs.statusCode).toBe(404);
  });

  it('5000 long items are read as the client reads: a client that pauses holds the rest back', async () => {
    const me = await createTestAccount(api.ctx);
    const cafe = await createCafe(api.app, me.key, 'Five thousand');
    const made = await createMenu(api.app, me.key, cafe.id, [{ name: 'G', categories: [{ name: 'C', items: [] }] }]);
    const categoryId = made.categories.get('C')!;
    // ~15 MB of JSON: far more than the socket buffers between the api and this client hold.
    await api.ctx.db.execute(sql`
      insert into cafe_items (account_id, cafe_id, category_id, name, price, description, ingredients, sort_order)
      select ${me.accountId}, ${cafe.id}, ${categoryId}, 'Dish ' || g, 9.5, repeat('A long description. ', 100),
        array['flour', 'water', 'salt', 'yeast'], g
      from generate_series(1, 5000) g`);
    const { res, body } = await get(me, cafeUrl(cafe.id, '/items'), async () => {
      // The first bytes are here and the client reads no more: the last item is renamed now.
      await api.ctx.db
        .update(cafeItems)
        .set({ name: 'renamed after the first bytes' })
        .where(and(eq(cafeItems.cafeId, cafe.id), eq(cafeItems.name, 'Dish 5000')));
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBeUndefined();
    expect(res.headers['transfer-encoding']).toBe('chunked');
    const list = JSON.parse(body.toString('utf8')) as { data: Array<{ name: string; description: string }> };
    expect(list.data).toHaveLength(5000);
    expect(list.data[0]!.description).toHaveLength(2000);
    // Built whole before sending, the list would still carry the old name.
    expect(list.data[4999]!.name).toBe('renamed after the first bytes');
    expect(list.data[4998]!.name).toBe('Dish 4999');
  }, 60_000);
});
