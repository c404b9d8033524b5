/**
 * POST /cafes/:id/items/bulk-insert through the real api, queue and cafe-bulk-insert worker: the
 * menu replaced (groups, General, categories matched ignoring case and named as first written,
 * tags, allergens and spice levels, order, images released, cache
 * invalidated), validation of every entry before anything is queued, 5000 items, the 202 path and
 * GET /jobs, scopes and tenancy, single writes racing a bulk insert, and a worker killed with
 * SIGKILL mid-job (its transaction open), whose retry makes the new menu once.
 */
import { randomUUID } from 'node:crypto';
import { QueueEvents } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX } from '#api/prefix.js';
import { ITEM_BATCH } from '#domain/cafes/bulk-insert.js';
import { linkCacheKeys } from '#domain/links/resolve/keys.js';
import { startWorkers, type RunningWorkers } from '#workers/index.js';
import { pngPart, sendForm, textPart } from '../../support/fixtures.js';
import { addKey, call, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';
import { startEntry, stopProcess } from '../../support/processes.js';
import { pollUntil } from '../../support/until.js';

let api: TestApi;
let workers: RunningWorkers;
let me: TestAccount;
let other: TestAccount;

const url = (cafeId: string, path = '') => `${API_PREFIX}/cafes/${cafeId}${path}`;

beforeAll(async () => {
  api = await startTestApi();
  workers = await startWorkers(api.ctx);
  me = await createTestAccount(api.ctx, { plan: 'starter' });
  other = await createTestAccount(api.ctx, { plan: 'pro' });
}, 60_000);
afterAll(async () => {
  await workers?.close();
  await api?.close();
});

type Row = { id: string; name: string; order: number; image: string | null } & Record<string, unknown>;
type Entry = Record<string, unknown>;

async function newCafe(testApi = api, key = me.key): Promise<{ id: string; slug: string; linkId: string }> {
  const res = await call(testApi.app, key, 'POST', `${API_PREFIX}/cafes`, { name: 'Bulk test' });
  expect(res.statusCode, res.body).toBe(200);
  const cafe = res.json().data;
  return { id: cafe.id, slug: cafe.link.dynamic_link_id, linkId: cafe.link.id };
}

/** A menu of one group, category and item, each with an image. */
async function oldMenu(cafeId: string, testApi = api, key = me.key) {
  const group = await sendForm(testApi.app, key, 'POST', url(cafeId, '/groups'), [textPart('name', 'Old group'), pngPart('image')]);
  expect(group.statusCode, group.body).toBe(200);
  const category = await call(testApi.app, key, 'POST', url(cafeId, '/categories'), {
    name: 'Old category',
    group_id: group.json().data.id,
  });
  expect(category.statusCode, category.body).toBe(200);
  const item = await sendForm(testApi.app, key, 'POST', url(cafeId, '/items'), [
    textPart('category_id', category.json().data.id),
    textPart('name', 'Old item'),
    textPart('price', '1.5'),
    pngPart('image'),
  ]);
  expect(item.statusCode, item.body).toBe(200);
  return { group: group.json().data as Row, category: category.json().data as Row, item: item.json().data as Row };
}

const list = async (cafeId: string, kind: 'groups' | 'categories' | 'items', testApi = api) => {
  const res = await call(testApi.app, me.key, 'GET', url(cafeId, `/${kind}`));
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as Row[];
};

const menuNames = async (cafeId: string, testApi = api) => ({
  groups: (await list(cafeId, 'groups', testApi)).map((g) => g.name),
  categories: (await list(cafeId, 'categories', testApi)).map((c) => c.name),
  items: (await list(cafeId, 'items', testApi)).map((i) => i.name),
});

const bulk = (cafeId: string, body: unknown, key = me.key, headers: Record<string, string> = {}, testApi = api) =>
  call(testApi.app, key, 'POST', url(cafeId, '/items/bulk-insert'), body, headers);

async function fileLinkId(fileUrl: string): Promise<string | null | undefined> {
  const { rows } = await api.ctx.database.pool.query<{ link_id: string | null }>('select link_id from files where id = $1', [
    fileUrl.split('/').pop(),
  ]);
  return rows[0]?.link_id;
}

function errorsOf(res: {
  statusCode: number;
  body: string;
  json(): { message: string; errors: Array<{ path: string; message: string }> };
}) {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json().message).toBe('Validation failed');
  return res.json().errors;
}

const manyItems = (n: number): Entry[] =>
  Array.from({ length: n }, (_, i) => ({
    name: `Item ${i}`,
    price: (i % 1000) / 4,
    currency: 'EUR',
    category: `Category ${i % 50}`,
    ...(i % 50 < 40 ? { group: `Group ${i % 5}` } : {}),
    description: `Dish number ${i}`,
    ingredients: ['salt', `spice ${i % 7}`],
  }));

describe('POST /cafes/:id/items/bulk-insert', () => {
  it('replaces the menu: old rows gone (images released), new groups, General, categories as first written, request order', async () => {
    const cafe = await newCafe();
    const old = await oldMenu(cafe.id);
    const keys = linkCacheKeys(api.ctx.config.REDIS_NAMESPACE);
    const version = async () => Number((await api.ctx.redis.get(keys.version(cafe.slug))) ?? 0);
    const before = await version();

    const res = await bulk(cafe.id, {
      items: [
        { name: 'Espresso', price: 2.5, currency: 'eur', category: 'Coffee', group: 'Drinks', ingredients: ['coffee'] },
        { name: 'Pastel de nata', price: 1.2, currency: 'EUR', category: 'Pastries' },
        { name: 'Latte', price: 3, currency: 'EUR', category: 'COFFEE', group: 'drinks', description: 'With milk' },
        { name: 'Tea', price: 0, currency: 'GBP', category: 'Tea', group: 'Drinks' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ data: { groups: 2, categories: 3, items: 4, deleted: { groups: 1, categories: 1, items: 1 } } });

    const groups = await list(cafe.id, 'groups');
    expect(groups.map((g) => [g.name, g.order])).toEqual([
      ['Drinks', 0],
      ['General', 1],
    ]);
    const categories = await list(cafe.id, 'categories');
    expect(categories.map((c) => [c.name, c.group_id, c.order])).toEqual([
      ['Coffee', groups[0]!.id, 0],
      ['Pastries', groups[1]!.id, 1],
      ['Tea', groups[0]!.id, 2],
    ]);
    const items = await list(cafe.id, 'items');
    expect(items.map((i) => [i.name, i.category_id, i.order, i.price, i.currency])).toEqual([
      ['Espresso', categories[0]!.id, 0, 2.5, 'EUR'],
      ['Pastel de nata', categories[1]!.id, 1, 1.2, 'EUR'],
      ['Latte', categories[0]!.id, 2, 3, 'EUR'],
      ['Tea', categories[2]!.id, 3, 0, 'GBP'],
    ]);
    expect(items[0]).toMatchObject({ ingredients: ['coffee'], description: null, visible: true, image: null });
    expect(items[2]).toMatchObject({ ingredients: [], description: 'With milk' });
    // Nothing of the old menu is left; its images are released to the orphan sweep.
    const ids = [...groups, ...categories, ...items].map((r) => r.id);
    expect(ids).not.toContain(old.group.id);
    expect(ids).not.toContain(old.category.id);
    expect(ids).not.toContain(old.item.id);
    expect(await fileLinkId(old.group.image!)).toBeNull();
    expect(await fileLinkId(old.item.image!)).toBeNull();
    expect(await version()).toBeGreaterThan(before);

    // Every entry naming a group: no General group.
    const again = await bulk(cafe.id, { items: [{ name: 'Soup', price: 4, currency: 'USD', category: 'Soups', group: 'Lunch' }] });
    expect(again.json().data).toEqual({ groups: 1, categories: 1, items: 1, deleted: { groups: 2, categories: 3, items: 4 } });
    expect(await menuNames(cafe.id)).toEqual({ groups: ['Lunch'], categories: ['Soups'], items: ['Soup'] });
  });

  it('keeps a category as first written (Coffee), merging later spellings (coffee, COFFEE) into it; stores tags, allergens, spice', async () => {
    const cafe = await newCafe();
    const res = await bulk(cafe.id, {
      items: [
        { name: 'Galão', price: 2.5, currency: 'EUR', category: 'Coffee', group: 'Bebidas', tags: ['vegetarian'], allergens: ['Milk'] },
        { name: 'Bica', price: 0.9, currency: 'EUR', category: 'coffee', group: 'bebidas' },
        {
          name: 'Chili',
          price: 8.9,
          currency: 'EUR',
          category: 'Pratos do Dia',
          spice_level: 'extra_hot',
          allergens: ['Celery', 'Gluten'],
        },
        { name: 'Abatanado', price: 1.2, currency: 'EUR', category: 'COFFEE', group: 'BEBIDAS' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ groups: 2, categories: 2, items: 4 });
    const categories = await list(cafe.id, 'categories');
    expect(categories.map((c) => c.name)).toEqual(['Coffee', 'Pratos do Dia']);
    expect((await list(cafe.id, 'groups')).map((g) => g.name)).toEqual(['Bebidas', 'General']);
    const items = await list(cafe.id, 'items');
    expect(items.map((i) => [i.name, i.category_id, i.tags, i.allergens, i.spice_level])).toEqual([
      ['Galão', categories[0]!.id, ['vegetarian'], ['Milk'], 'none'],
      ['Bica', categories[0]!.id, [], [], 'none'],
      ['Chili', categories[1]!.id, [], ['Celery', 'Gluten'], 'extra_hot'],
      ['Abatanado', categories[0]!.id, [], [], 'none'],
    ]);
    // A spice level the page does not know is refused with the entry's index.
    expect(
      errorsOf(await bulk(cafe.id, { items: [{ name: 'X', price: 1, currency: 'EUR', category: 'C', spice_level: 'volcanic' }] })),
    ).toEqual([{ path: 'items[0].spice_level', message: 'Must be one of: none, mild, medium, hot, extra_hot' }]);
  });

  it('checks every entry before anything is queued: each bad field named with its index, nothing changed', async () => {
    const cafe = await newCafe();
    await oldMenu(cafe.id);
    const good = { name: 'Espresso', price: 2.5, currency: 'EUR', category: 'Coffee' };
    const jobsBefore = (await api.ctx.database.pool.query('select count(*)::int n from jobs where account_id = $1', [me.accountId])).rows[0]
      .n;

    const errors = errorsOf(
      await bulk(cafe.id, {
        items: [
          good,
          { ...good, price: -1 },
          { ...good, currency: 'EURO', name: '   ' },
          { ...good, price: 1.2345, extra: true },
          { price: 1, currency: 'EUR' },
          { ...good, description: 'd'.repeat(2001), ingredients: ['ok', 3] },
          { ...good, name: 'n'.repeat(256), group: '' },
          good,
          { ...good, price: '2.50' },
          'not an entry',
        ],
      }),
    );
    expect(errors.map((e) => e.path).sort()).toEqual(
      [
        'items[1].price',
        'items[2].currency',
        'items[2].name',
        'items[3].price',
        'items[3].extra',
        'items[4].name',
        'items[4].category',
        'items[5].description',
        'items[5].ingredients[1]',
        'items[6].name',
        'items[6].group',
        'items[8].price',
        'items[9]',
      ].sort(),
    );
    expect(errors.find((e) => e.path === 'items[3].price')!.message).toMatch(/at most 3 decimals/);
    expect(errors.find((e) => e.path === 'items[2].currency')!.message).toMatch(/ISO 4217/);

    const count = async (n: number) => errorsOf(await bulk(cafe.id, { items: Array.from({ length: n }, () => good) }));
    expect(await count(0)).toEqual([{ path: 'items', message: 'Must have at least 1 item' }]);
    expect(await count(5001)).toEqual([{ path: 'items', message: 'Must have at most 5000 items' }]);
    expect(errorsOf(await bulk(cafe.id, {})).map((e) => e.path)).toEqual(['items']);
    expect(errorsOf(await bulk(cafe.id, { items: good })).map((e) => e.path)).toEqual(['items']);

    // One category under two groups (no group is the General group): a 400 on the later entry's group.
    const twoGroups = errorsOf(
      await bulk(cafe.id, {
        items: [
          { ...good, group: 'Drinks' },
          { ...good, category: 'COFFEE', group: 'drinks' },
          { ...good, category: 'coffee' },
          { ...good, category: 'Coffee', group: 'Breakfast' },
          { ...good, category: 'Tea', price: -1 },
        ],
      }),
    );
    // Listed with the entries' other errors (not with a blank text's, which stops the check).
    expect(twoGroups.map((e) => e.path)).toEqual(['items[4].price', 'items[2].group', 'items[3].group']);
    expect(twoGroups[1]!.message).toMatch(/already in group "Drinks" \(entry 0\)/);

    expect(await menuNames(cafe.id)).toEqual({ groups: ['Old group'], categories: ['Old category'], items: ['Old item'] });
    const jobsAfter = (await api.ctx.database.pool.query('select count(*)::int n from jobs where account_id = $1', [me.accountId])).rows[0]
      .n;
    expect(jobsAfter).toBe(jobsBefore);
  });

  it('inserts 5000 items in one request, in order', { timeout: 60_000 }, async () => {
    const cafe = await newCafe();
    await oldMenu(cafe.id);
    const entries = manyItems(5000);
    const res = await bulk(cafe.id, { items: entries });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ groups: 6, categories: 50, items: 5000, deleted: { groups: 1, categories: 1, items: 1 } });
    const items = await list(cafe.id, 'items');
    expect(items).toHaveLength(5000);
    const categories = new Map((await list(cafe.id, 'categories')).map((c) => [c.id, c.name]));
    // Listed by order: exactly the request's order, each in its category as written.
    items.forEach((item, i) => {
      expect([item.name, item.order, item.price, categories.get(item.category_id as string)]).toEqual([
        `Item ${i}`,
        i,
        (i % 1000) / 4,
        `Category ${i % 50}`,
      ]);
    });
    expect((await list(cafe.id, 'groups')).map((g) => g.name)).toEqual(['Group 0', 'Group 1', 'Group 2', 'Group 3', 'Group 4', 'General']);
  });

  it('a cafe holds at most 5000 items: one more is a 409 saying so, room made by a deletion is taken', { timeout: 60_000 }, async () => {
    const cafe = await newCafe();
    expect((await bulk(cafe.id, { items: manyItems(5000) })).statusCode).toBe(200);
    const items = await list(cafe.id, 'items');
    const add = () =>
      sendForm(api.app, me.key, 'POST', url(cafe.id, '/items'), [
        textPart('category_id', items[0]!.category_id as string),
        textPart('name', 'One more'),
        textPart('price', '2'),
      ]);
    const refused = await add();
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ code: 'menu_full', message: 'A cafe holds at most 5000 items; delete some first' });
    expect(await list(cafe.id, 'items')).toHaveLength(5000);
    expect((await call(api.app, me.key, 'DELETE', url(cafe.id, `/items/${items[0]!.id}`))).statusCode).toBe(200);
    const added = await add();
    expect(added.statusCode, added.body).toBe(200);
    expect(await list(cafe.id, 'items')).toHaveLength(5000);
  });

  it('takes bodies past BODY_LIMIT_BYTES up to 16 MiB (413 past that)', { timeout: 60_000 }, async () => {
    const cafe = await newCafe();
    // 5000 entries with 1000-character descriptions: about 5 MB.
    const long = manyItems(5000).map((e) => ({ ...e, description: 'd'.repeat(1000) }));
    expect(JSON.stringify({ items: long }).length).toBeGreaterThan(api.ctx.config.BODY_LIMIT_BYTES);
    const res = await bulk(cafe.id, { items: long });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.items).toBe(5000);
    // 5000 entries with 50 ingredients of 100 characters: past 16 MiB.
    const huge = manyItems(5000).map((e) => ({ ...e, ingredients: Array.from({ length: 50 }, () => 'i'.repeat(100)) }));
    const tooBig = await bulk(cafe.id, { items: huge });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().message).toEqual(expect.any(String));
    expect((await list(cafe.id, 'items')).length).toBe(5000);
  });

  it('Prefer: respond-async answers 202 with the job; GET /jobs/:jobId shows its progress and result', async () => {
    const cafe = await newCafe();
    const res = await bulk(cafe.id, { items: manyItems(20) }, me.key, { prefer: 'respond-async' });
    expect(res.statusCode, res.body).toBe(202);
    const { jobId, state, statusUrl } = res.json();
    expect(['queued', 'active']).toContain(state);
    expect(statusUrl).toMatch(new RegExp(`/api/v1/jobs/${jobId}$`));
    expect(res.headers.location).toBe(statusUrl);
    expect(res.headers['preference-applied']).toBe('respond-async');
    const job = await pollUntil(
      async () => (await call(api.app, me.key, 'GET', `${API_PREFIX}/jobs/${jobId}`)).json(),
      (j) => j.state === 'completed' || j.state === 'failed',
      30_000,
    );
    expect(job).toEqual({
      id: jobId,
      type: 'cafe-bulk-insert',
      state: 'completed',
      progress: 100,
      result: { groups: 5, categories: 20, items: 20, deleted: { groups: 0, categories: 0, items: 0 } },
    });
    // Another account does not see the job.
    expect((await call(api.app, other.key, 'GET', `${API_PREFIX}/jobs/${jobId}`)).statusCode).toBe(404);
  });

  it('the job reports progress after each batch of items, from 10 (old menu gone) to 99', { timeout: 60_000 }, async () => {
    const cafe = await newCafe();
    const events = new QueueEvents('cafe-bulk-insert', { connection: api.ctx.redis.duplicate(), prefix: api.ctx.config.REDIS_NAMESPACE });
    try {
      await events.waitUntilReady();
      const seen = new Map<string, number[]>();
      events.on('progress', ({ jobId, data }) => seen.set(jobId, [...(seen.get(jobId) ?? []), Number(data)]));
      const entries = 5 * ITEM_BATCH - 10;
      const res = await bulk(cafe.id, { items: manyItems(entries) }, me.key, { prefer: 'respond-async' });
      expect(res.statusCode, res.body).toBe(202);
      const { jobId } = res.json();
      await pollUntil(
        async () => (await call(api.app, me.key, 'GET', `${API_PREFIX}/jobs/${jobId}`)).json(),
        (j) => j.state === 'completed',
        30_000,
      );
      // The events of one job arrive in order; the last may trail the completion a little.
      const progress = await pollUntil(
        async () => seen.get(jobId) ?? [],
        (p) => p.at(-1) === 99,
        5_000,
      );
      // 10 once the old menu is gone, then one step per batch of ITEM_BATCH items (the last one short).
      expect(progress).toEqual([10, ...[1, 2, 3, 4].map((b) => Math.round(10 + (89 * b * ITEM_BATCH) / entries)), 99]);
    } finally {
      await events.close();
    }
  });

  it('Idempotency-Key: a retry answers the first job and replaces the menu once; another menu with the key is a 409', async () => {
    const cafe = await newCafe();
    const key = randomUUID();
    const first = await bulk(cafe.id, { items: manyItems(30) }, me.key, { 'idempotency-key': key, prefer: 'respond-async' });
    expect(first.statusCode, first.body).toBe(202);
    const retry = await bulk(cafe.id, { items: manyItems(30) }, me.key, { 'idempotency-key': key, prefer: 'respond-async' });
    // The first job's answer: its job again while it runs, its result once it has ended.
    if (retry.statusCode === 202) expect(retry.json().jobId).toBe(first.json().jobId);
    else {
      expect(retry.statusCode, retry.body).toBe(200);
      const job = (await call(api.app, me.key, 'GET', `${API_PREFIX}/jobs/${first.json().jobId}`)).json();
      expect(retry.json().data).toEqual(job.result);
    }
    const done = await pollUntil(
      async () => (await call(api.app, me.key, 'GET', `${API_PREFIX}/jobs/${first.json().jobId}`)).json(),
      (j) => j.state === 'completed',
      30_000,
    );
    expect(done.result).toEqual({ groups: 5, categories: 30, items: 30, deleted: { groups: 0, categories: 0, items: 0 } });
    // Waited for, the retry answers the finished job's result: the menu was not replaced again.
    const waited = await bulk(cafe.id, { items: manyItems(30) }, me.key, { 'idempotency-key': key });
    expect(waited.statusCode, waited.body).toBe(200);
    expect(waited.json().data).toEqual(done.result);
    expect(await list(cafe.id, 'items')).toHaveLength(30);
    const other = await bulk(cafe.id, { items: manyItems(31) }, me.key, { 'idempotency-key': key });
    expect(other.statusCode, other.body).toBe(409);
    expect(other.json().message).toMatch(/already used with a different request/);
    const otherCafe = await newCafe();
    expect((await bulk(otherCafe.id, { items: manyItems(30) }, me.key, { 'idempotency-key': key })).statusCode).toBe(409);
    const bad = await bulk(cafe.id, { items: manyItems(1) }, me.key, { 'idempotency-key': 'has space' });
    expect(bad.statusCode, bad.body).toBe(400);
    expect(bad.json().errors).toEqual([{ path: 'Idempotency-Key', message: 'Must be 1 to 255 visible ASCII characters' }]);
  });

  it('needs cafe.update; another account’s or no cafe is 404 "Cafe not found"', async () => {
    const cafe = await newCafe();
    const body = { items: [{ name: 'Espresso', price: 2.5, currency: 'EUR', category: 'Coffee' }] };
    const reader = await addKey(api.ctx, me.accountId, ['cafe.read', 'cafe.create', 'cafe.delete']);
    const denied = await bulk(cafe.id, body, reader.key);
    expect(denied.statusCode).toBe(403);
    const writer = await addKey(api.ctx, me.accountId, ['cafe.update']);
    expect((await bulk(cafe.id, body, writer.key)).statusCode).toBe(200);
    expect((await call(api.app, null, 'POST', url(cafe.id, '/items/bulk-insert'), body)).statusCode).toBe(401);

    const theirs = await newCafe(api, other.key);
    await oldMenu(theirs.id, api, other.key);
    for (const id of [theirs.id, randomUUID(), 'not-a-uuid']) {
      const res = await bulk(id, body);
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toEqual({ code: 'cafe_not_found', message: 'Cafe not found' });
    }
    const theirMenu = await call(api.app, other.key, 'GET', url(theirs.id, '/items'));
    expect(theirMenu.json().data.map((i: Row) => i.name)).toEqual(['Old item']);
  });

  it('never interleaves with single-item writes: the result is exactly the submitted menu', { timeout: 60_000 }, async () => {
    const cafe = await newCafe();
    const old = await oldMenu(cafe.id);
    const entries = manyItems(2000);
    const singles = Array.from({ length: 24 }, (_, i) =>
      i % 2 === 0
        ? sendForm(api.app, me.key, 'POST', url(cafe.id, '/items'), [
            textPart('category_id', old.category.id),
            textPart('name', `Single ${i}`),
            textPart('price', '1'),
          ])
        : sendForm(api.app, me.key, 'PUT', url(cafe.id, `/items/${old.item.id}`), [textPart('name', `Renamed ${i}`)]),
    );
    const [res, ...answers] = await Promise.all([bulk(cafe.id, { items: entries }), ...singles]);
    expect(res.statusCode, res.body).toBe(200);
    for (const a of answers) {
      // Before the bulk insert: done (and then replaced); after it: the category or item is gone.
      expect([200, 400, 404], a.body).toContain(a.statusCode);
      if (a.statusCode === 400) expect(a.json().errors).toEqual([{ path: 'category_id', message: 'Category not found in this cafe' }]);
      if (a.statusCode === 404) expect(a.json()).toEqual({ code: 'item_not_found', message: 'Item not found' });
    }
    const items = await list(cafe.id, 'items');
    expect(items.map((i) => i.name)).toEqual(entries.map((e) => e.name));
    // What it deleted is what the single writes had made before it: the old item and those created first.
    const created = answers.filter((a, i) => i % 2 === 0 && a.statusCode === 200).length;
    expect(res.json().data.deleted).toEqual({ groups: 1, categories: 1, items: 1 + created });
  });
});

describe('what a bulk insert leaves behind: no menu in Redis, none in Postgres once it ends', () => {
  // About 1.1 MB of menu: what Redis kept of a job was this whole body, for 1 h after it completed and 24 h after it failed.
  const bigMenu = () => ({ items: manyItems(2000).map((e) => ({ ...e, description: 'd'.repeat(500) })) });
  const JOB_KEPT_BYTES = 4096;

  /** Bytes Redis holds for the job: its hash and every key named after it (logs, locks, dependencies). */
  async function redisBytesOfJob(jobId: string): Promise<number> {
    const { redis, config } = api.ctx;
    const keys = await redis.keys(`${config.REDIS_NAMESPACE}:cafe-bulk-insert:${jobId}*`);
    expect(keys).toContain(`${config.REDIS_NAMESPACE}:cafe-bulk-insert:${jobId}`);
    let bytes = 0;
    // SAMPLES 0: every field counted (by default a hash's size is guessed from 5 of its fields).
    for (const key of keys) bytes += (await redis.memory('USAGE', key, 'SAMPLES', 0)) ?? 0;
    return bytes;
  }
  const jobRow = async (jobId: string) =>
    (await api.ctx.database.pool.query('select state, error, payload is null as "payloadGone" from jobs where id = $1', [jobId])).rows[0];

  it('completed: a few KB of the job in Redis, the jobs row without its input', { timeout: 60_000 }, async () => {
    const cafe = await newCafe();
    const res = await bulk(cafe.id, bigMenu(), me.key, { prefer: 'respond-async' });
    expect(res.statusCode, res.body).toBe(202);
    const { jobId } = res.json();
    // Queued or running: the input is in Postgres, not in the job's hash.
    expect(await redisBytesOfJob(jobId)).toBeLessThan(JOB_KEPT_BYTES);
    const done = await pollUntil(
      () => jobRow(jobId),
      (row) => row.state !== 'queued' && row.state !== 'active',
      30_000,
    );
    expect(done).toEqual({ state: 'completed', error: null, payloadGone: true });
    expect(await (await api.ctx.queues['cafe-bulk-insert'].getJob(jobId))!.getState()).toBe('completed');
    expect(await redisBytesOfJob(jobId)).toBeLessThan(JOB_KEPT_BYTES);
  });

  it(
    'failed because its cafe was deleted while it waited: a few KB in Redis, the input deleted with the cafe',
    { timeout: 60_000 },
    async () => {
      const queue = api.ctx.queues['cafe-bulk-insert'];
      const cafe = await newCafe();
      await queue.pause();
      let jobId: string;
      try {
        const res = await bulk(cafe.id, bigMenu(), me.key, { prefer: 'respond-async' });
        expect(res.statusCode, res.body).toBe(202);
        jobId = res.json().jobId;
        expect((await call(api.app, me.key, 'DELETE', url(cafe.id))).statusCode).toBe(200);
        // Gone with the cafe, before any worker got to the job.
        expect(await jobRow(jobId)).toEqual({ state: 'failed', error: 'The cafe was deleted', payloadGone: true });
      } finally {
        await queue.resume();
      }
      expect(
        await pollUntil(
          () => queue.getJobState(jobId),
          (state) => state === 'failed',
          30_000,
        ),
      ).toBe('failed');
      expect((await queue.getJob(jobId))!.failedReason).toBe('The cafe was deleted');
      expect(await redisBytesOfJob(jobId)).toBeLessThan(JOB_KEPT_BYTES);
      const view = (await call(api.app, me.key, 'GET', `${API_PREFIX}/jobs/${jobId}`)).json();
      expect(view).toMatchObject({ state: 'failed', error: 'The cafe was deleted' });
    },
  );
});

describe('a worker killed with SIGKILL mid-job', () => {
  const PREFIX = `qrlinks-test-cafebulk-${randomUUID().slice(0, 8)}`;
  const WORKER_ENV = { REDIS_NAMESPACE: PREFIX, JOB_LOCK_MS: '1000', MIGRATE_ON_START: 'false', WORKER_NICE: '0' };
  let own: TestApi;

  beforeAll(async () => {
    own = await startTestApi({ REDIS_NAMESPACE: PREFIX });
  }, 60_000);
  afterAll(async () => {
    await own?.ctx.queues['cafe-bulk-insert'].obliterate({ force: true });
    await own?.close();
  });

  it('leaves the old menu whole; the retry makes the new menu once', { timeout: 120_000 }, async () => {
    const account = await createTestAccount(own.ctx);
    const cafe = await newCafe(own, account.key);
    await oldMenu(cafe.id, own, account.key);
    const names = async () => ({
      groups: (await call(own.app, account.key, 'GET', url(cafe.id, '/groups'))).json().data.map((r: Row) => r.name),
      categories: (await call(own.app, account.key, 'GET', url(cafe.id, '/categories'))).json().data.map((r: Row) => r.name),
      items: (await call(own.app, account.key, 'GET', url(cafe.id, '/items'))).json().data.map((r: Row) => r.name),
    });
    const oldNames = { groups: ['Old group'], categories: ['Old category'], items: ['Old item'] };
    const entries = manyItems(3000);
    const res = await bulk(cafe.id, { items: entries }, account.key, { prefer: 'respond-async' }, own);
    expect(res.statusCode, res.body).toBe(202);
    const { jobId } = res.json();
    const jobOf = async () => (await call(own.app, account.key, 'GET', `${API_PREFIX}/jobs/${jobId}`)).json();

    // Holding the account row stops the job at its first insert (the foreign key's check waits for
    // it), after its deletes: the worker is killed with its transaction open, half done.
    const holder = await own.ctx.database.pool.connect();
    const first = startEntry('workers/server.ts', [], WORKER_ENV);
    let killed = false;
    try {
      await holder.query('begin');
      await holder.query('select 1 from accounts where id = $1 for update', [account.accountId]);
      // Read outside the holder's transaction, whose view of pg_stat_activity stays as first read.
      const blocked = async () =>
        (
          await own.ctx.database.pool.query(
            `select count(*)::int n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like 'insert into "cafe_groups"%'`,
          )
        ).rows[0].n;
      expect(await pollUntil(blocked, (n) => n === 1, 60_000, 20)).toBe(1);
      expect(await jobOf()).toMatchObject({ state: 'active', progress: 10 });
      expect(await names()).toEqual(oldNames);
      await stopProcess(first, 'SIGKILL');
      killed = true;
    } finally {
      if (!killed) await stopProcess(first, 'SIGKILL');
      await holder.query('rollback');
      holder.release();
    }
    // The dead worker's transaction goes when Postgres notices its client is gone: the old menu stays.
    const dying = async () =>
      (
        await own.ctx.database.pool.query(
          `select count(*)::int n from pg_stat_activity where datname = current_database() and query like 'insert into "cafe_groups"%'`,
        )
      ).rows[0].n;
    expect(await pollUntil(dying, (n) => n === 0, 30_000)).toBe(0);
    expect(await names()).toEqual(oldNames);

    const second = startEntry('workers/server.ts', [], WORKER_ENV);
    try {
      const done = await pollUntil(jobOf, (j) => j.state === 'completed' || j.state === 'failed', 60_000, 100);
      // The retry deleted the old menu itself: the killed attempt's deletes never committed.
      expect(done).toMatchObject({
        state: 'completed',
        progress: 100,
        result: { groups: 6, categories: 50, items: 3000, deleted: { groups: 1, categories: 1, items: 1 } },
      });
    } finally {
      await stopProcess(second, 'SIGTERM');
    }
    const after = await names();
    expect(after.items).toEqual(entries.map((e) => e.name));
    expect(after.groups).toEqual(['Group 0', 'Group 1', 'Group 2', 'Group 3', 'Group 4', 'General']);
    expect(after.categories).toHaveLength(50);
  });
});
