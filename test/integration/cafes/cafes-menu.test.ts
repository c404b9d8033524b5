/**
 * A cafe's menu: groups (forms), categories (JSON, unique names ignoring case, concurrently too),
 * items (forms), images, reorder, hide/show, and ids from another cafe or account.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX } from '#api/prefix.js';
import { pdfBytes, pngPart, sendForm, textPart, type Part } from '../../support/fixtures.js';
import { call, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';

let api: TestApi;
let me: TestAccount;
let other: TestAccount;

const url = (cafeId: string, path = '') => `${API_PREFIX}/cafes/${cafeId}${path}`;

beforeAll(async () => {
  api = await startTestApi();
  me = await createTestAccount(api.ctx, { plan: 'starter' });
  other = await createTestAccount(api.ctx, { plan: 'pro' });
}, 60_000);
afterAll(async () => {
  await api?.close();
});

type Row = { id: string; order: number; image: string | null } & Record<string, unknown>;

async function newCafe(key = me.key): Promise<string> {
  const res = await call(api.app, key, 'POST', `${API_PREFIX}/cafes`, { name: 'Menu test' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id;
}

function ok(res: { statusCode: number; body: string; json(): { data: Row } }): Row {
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

function paths(res: { statusCode: number; body: string; json(): { errors?: Array<{ path: string }> } }): string[] {
  expect(res.statusCode, res.body).toBe(400);
  return (res.json().errors ?? []).map((e) => e.path);
}

const newGroup = (cafeId: string, name: string, parts: Part[] = []) =>
  sendForm(api.app, me.key, 'POST', url(cafeId, '/groups'), [textPart('name', name), ...parts]);
const newCategory = (cafeId: string, body: Record<string, unknown>, key = me.key) =>
  call(api.app, key, 'POST', url(cafeId, '/categories'), body);
const newItem = (cafeId: string, parts: Part[], key = me.key) => sendForm(api.app, key, 'POST', url(cafeId, '/items'), parts);
const list = async (cafeId: string, kind: string, query = '') => {
  const res = await call(api.app, me.key, 'GET', url(cafeId, `/${kind}${query}`));
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as Row[];
};

async function linkIdOfFile(fileUrl: string): Promise<string | null | undefined> {
  const { rows } = await api.ctx.database.pool.query<{ link_id: string | null }>('select link_id from files where id = $1', [
    fileUrl.split('/').pop(),
  ]);
  return rows[0]?.link_id;
}

describe('groups', () => {
  it('create, read, update, delete; images attach to the cafe’s link and are released when replaced', async () => {
    const cafeId = await newCafe();
    const breakfast = ok(await newGroup(cafeId, 'Breakfast', [pngPart('image')]));
    expect(breakfast).toMatchObject({ cafe_id: cafeId, name: 'Breakfast', visible: true, order: 0 });
    expect(breakfast.image).toMatch(/\/files\/[0-9a-f-]{36}$/);
    const cafe = (await call(api.app, me.key, 'GET', `${API_PREFIX}/cafes/${cafeId}`)).json().data;
    expect(await linkIdOfFile(breakfast.image!)).toBe(cafe.link.id);
    const lunch = ok(await newGroup(cafeId, 'Lunch', [textPart('visible', 'false')]));
    expect(lunch).toMatchObject({ visible: false, order: 1, image: null });
    const early = ok(await newGroup(cafeId, 'Early', [textPart('order', '0')]));
    // By order, then creation.
    expect((await list(cafeId, 'groups')).map((g) => g.name)).toEqual(['Breakfast', 'Early', 'Lunch']);
    expect(ok(await call(api.app, me.key, 'GET', url(cafeId, `/groups/${early.id}`)))).toEqual(early);

    const renamed = ok(
      await sendForm(api.app, me.key, 'PUT', url(cafeId, `/groups/${breakfast.id}`), [
        textPart('name', 'Brunch'),
        textPart('visible', 'false'),
        pngPart('image', 5, 5),
      ]),
    );
    expect(renamed).toMatchObject({ name: 'Brunch', visible: false, order: 0 });
    expect(renamed.image).not.toBe(breakfast.image);
    expect(await linkIdOfFile(breakfast.image!)).toBeNull();
    const noImage = ok(await sendForm(api.app, me.key, 'PUT', url(cafeId, `/groups/${breakfast.id}`), [textPart('delete_image', 'true')]));
    expect(noImage).toMatchObject({ name: 'Brunch', image: null });
    // A form with nothing in it changes nothing.
    expect(ok(await sendForm(api.app, me.key, 'PUT', url(cafeId, `/groups/${lunch.id}`), []))).toMatchObject({
      name: 'Lunch',
      visible: false,
    });

    // Deleting a group keeps its categories, ungrouped.
    const category = ok(await newCategory(cafeId, { name: 'Eggs', group_id: lunch.id }));
    const del = await call(api.app, me.key, 'DELETE', url(cafeId, `/groups/${lunch.id}`));
    expect(del.statusCode).toBe(200);
    expect(ok(await call(api.app, me.key, 'GET', url(cafeId, `/categories/${category.id}`)))).toMatchObject({ group_id: null });
    const gone = await call(api.app, me.key, 'GET', url(cafeId, `/groups/${lunch.id}`));
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ code: 'group_not_found', message: 'Group not found' });
  });

  it('validation: names each bad field; non-images are 415; JSON is 415', async () => {
    const cafeId = await newCafe();
    expect(
      paths(
        await sendForm(api.app, me.key, 'POST', url(cafeId, '/groups'), [textPart('visible', 'maybe'), textPart('order', '-1')]),
      ).sort(),
    ).toEqual(['name', 'order', 'visible']);
    expect(paths(await newGroup(cafeId, 'x'.repeat(256)))).toEqual(['name']);
    expect(paths(await newGroup(cafeId, 'ok', [textPart('order', '2147483648')]))).toEqual(['order']);
    const pdf = await newGroup(cafeId, 'pdf', [{ name: 'image', data: pdfBytes('x'), filename: 'x.png', contentType: 'image/png' }]);
    expect(pdf.statusCode).toBe(415);
    expect((await call(api.app, me.key, 'POST', url(cafeId, '/groups'), { name: 'json' })).statusCode).toBe(415);
    // A part with an empty name is named as such.
    expect(paths(await newGroup(cafeId, 'g', [pngPart('')]))).toEqual(['""']);
    expect(paths(await newGroup(cafeId, 'g', [textPart('', 'x')]))).toEqual(['""']);
    expect(await list(cafeId, 'groups')).toEqual([]);
  });

  it('reorder: {orders: [...]}; an id not in the cafe is a 400 and nothing changes', async () => {
    const cafeId = await newCafe();
    const [a, b, c] = [ok(await newGroup(cafeId, 'A')), ok(await newGroup(cafeId, 'B')), ok(await newGroup(cafeId, 'C'))];
    const res = await call(api.app, me.key, 'PATCH', url(cafeId, '/groups/reorder'), {
      orders: [
        { id: c.id, order: 0 },
        { id: a.id, order: 1 },
        { id: b.id, order: 2 },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await list(cafeId, 'groups')).map((g) => g.name)).toEqual(['C', 'A', 'B']);
    const otherCafe = await newCafe();
    const foreign = ok(await newGroup(otherCafe, 'Foreign'));
    const bad = await call(api.app, me.key, 'PATCH', url(cafeId, '/groups/reorder'), {
      orders: [
        { id: a.id, order: 9 },
        { id: foreign.id, order: 0 },
        { id: 'nope', order: 1 },
        { id: a.id, order: 3 },
      ],
    });
    expect(paths(bad)).toEqual(['orders[1].id', 'orders[2].id', 'orders[3].id']);
    expect((await list(cafeId, 'groups')).map((g) => g.name)).toEqual(['C', 'A', 'B']);
    // 150 unknown ids: the first 100 named, the other 50 counted.
    const many = await call(api.app, me.key, 'PATCH', url(cafeId, '/groups/reorder'), {
      orders: Array.from({ length: 150 }, (_, i) => ({ id: randomUUID(), order: i })),
    });
    expect(many.json().errors).toHaveLength(100);
    expect(many.json().omittedErrors).toBe(50);
    expect(paths(await call(api.app, me.key, 'PATCH', url(cafeId, '/groups/reorder'), [{ id: a.id, order: 0 }]))).toEqual(['(body)']);
    expect(paths(await call(api.app, me.key, 'PATCH', url(cafeId, '/groups/reorder'), { orders: [{ id: a.id, order: 1.5 }] }))).toEqual([
      'orders[0].order',
    ]);
  });
});

describe('categories', () => {
  it('create, read, update, image, delete (with its items)', async () => {
    const cafeId = await newCafe();
    const group = ok(await newGroup(cafeId, 'Drinks'));
    const coffee = ok(await newCategory(cafeId, { name: 'Coffee', description: 'Hot', group_id: group.id, type: 'drinks' }));
    expect(coffee).toMatchObject({
      cafe_id: cafeId,
      group_id: group.id,
      name: 'Coffee',
      description: 'Hot',
      type: 'drinks',
      order: 0,
      visible: true,
      image: null,
    });
    const tea = ok(await newCategory(cafeId, { name: 'Tea', visible: false }));
    expect(tea).toMatchObject({ order: 1, visible: false, group_id: null });
    expect((await list(cafeId, 'categories')).map((c) => c.name)).toEqual(['Coffee', 'Tea']);

    const updated = ok(
      await call(api.app, me.key, 'PUT', url(cafeId, `/categories/${tea.id}`), {
        name: 'Teas',
        group_id: group.id,
        description: null,
        order: 0,
      }),
    );
    expect(updated).toMatchObject({ name: 'Teas', group_id: group.id, description: null, order: 0, visible: false });
    const withImage = ok(await sendForm(api.app, me.key, 'PUT', url(cafeId, `/categories/${coffee.id}/image`), [pngPart('image')]));
    expect(withImage.image).toMatch(/\/files\//);
    expect(paths(await sendForm(api.app, me.key, 'PUT', url(cafeId, `/categories/${coffee.id}/image`), []))).toEqual(['image']);
    expect(
      (
        await sendForm(api.app, me.key, 'PUT', url(cafeId, `/categories/${coffee.id}/image`), [
          { name: 'image', data: 'plain text', filename: 'a.png' },
        ])
      ).statusCode,
    ).toBe(415);
    const noImage = ok(await call(api.app, me.key, 'PUT', url(cafeId, `/categories/${coffee.id}`), { delete_image: true }));
    expect(noImage.image).toBeNull();
    expect(await linkIdOfFile(withImage.image!)).toBeNull();

    const item = ok(
      await newItem(cafeId, [
        textPart('category_id', coffee.id),
        textPart('name', 'Espresso'),
        textPart('price', '2.5'),
        pngPart('image', 6, 2),
      ]),
    );
    expect((await call(api.app, me.key, 'DELETE', url(cafeId, `/categories/${coffee.id}`))).statusCode).toBe(200);
    expect((await call(api.app, me.key, 'GET', url(cafeId, `/items/${item.id}`))).json()).toEqual({
      code: 'item_not_found',
      message: 'Item not found',
    });
    expect(await linkIdOfFile(item.image!)).toBeNull();
    expect((await call(api.app, me.key, 'GET', url(cafeId, `/categories/${coffee.id}`))).json()).toEqual({
      code: 'category_not_found',
      message: 'Category not found',
    });
  });

  it('names are unique within a cafe ignoring case, on create and rename; other cafes may reuse them', async () => {
    const cafeId = await newCafe();
    ok(await newCategory(cafeId, { name: 'Drinks' }));
    for (const name of ['Drinks', 'drinks', 'DRINKS', 'dRiNkS']) {
      const res = await newCategory(cafeId, { name });
      expect(paths(res)).toEqual(['name']);
      expect(res.json().errors[0].message).toMatch(/already exists/);
    }
    const food = ok(await newCategory(cafeId, { name: 'Food' }));
    expect(paths(await call(api.app, me.key, 'PUT', url(cafeId, `/categories/${food.id}`), { name: 'DRINKS' }))).toEqual(['name']);
    // Renaming to its own name in another case is fine.
    expect(ok(await call(api.app, me.key, 'PUT', url(cafeId, `/categories/${food.id}`), { name: 'FOOD' }))).toMatchObject({ name: 'FOOD' });
    ok(await newCategory(await newCafe(), { name: 'drinks' }));
    // Non-ASCII case folding is the database's lower().
    ok(await newCategory(cafeId, { name: 'Ärger' }));
    expect(paths(await newCategory(cafeId, { name: 'ärger' }))).toEqual(['name']);
  });

  it('concurrent creates of one name in different cases: exactly one wins', async () => {
    const cafeId = await newCafe();
    const names = ['Desserts', 'desserts', 'DESSERTS', 'DeSsErTs', 'dessertS', 'Desserts'];
    const results = await Promise.all(names.map((name) => newCategory(cafeId, { name })));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    for (const r of results.filter((r) => r.statusCode !== 200)) expect(paths(r)).toEqual(['name']);
    expect(await list(cafeId, 'categories')).toHaveLength(1);
  });

  it('validation: limits, group from another cafe, reorder', async () => {
    const cafeId = await newCafe();
    const foreignGroup = ok(await newGroup(await newCafe(), 'Elsewhere'));
    const bad = await newCategory(cafeId, {
      name: 'n'.repeat(256),
      description: 'd'.repeat(1001),
      order: -1,
      visible: 'yes',
      type: 't'.repeat(51),
    });
    expect(paths(bad).sort()).toEqual(['description', 'name', 'order', 'type', 'visible']);
    expect(paths(await newCategory(cafeId, { name: 'ok', group_id: foreignGroup.id }))).toEqual(['group_id']);
    expect(paths(await newCategory(cafeId, { name: 'ok', group_id: 'not-a-uuid' }))).toEqual(['group_id']);
    ok(await newCategory(cafeId, { name: 'n'.repeat(255), description: 'd'.repeat(1000) }));
    const [x, y] = [ok(await newCategory(cafeId, { name: 'X' })), ok(await newCategory(cafeId, { name: 'Y' }))];
    expect(
      (
        await call(api.app, me.key, 'PATCH', url(cafeId, '/categories/reorder'), {
          orders: [
            { id: y.id, order: 0 },
            { id: x.id, order: 5 },
          ],
        })
      ).statusCode,
    ).toBe(200);
    // Y ties with the long-named category at 0 and was made after it.
    expect((await list(cafeId, 'categories')).map((c) => c.name)).toEqual(['n'.repeat(255), 'Y', 'X']);
    expect(
      paths(await call(api.app, me.key, 'PATCH', url(cafeId, '/categories/reorder'), { orders: [{ id: foreignGroup.id, order: 0 }] })),
    ).toEqual(['orders[0].id']);
  });
});

describe('items', () => {
  async function menu() {
    const cafeId = await newCafe();
    const category = ok(await newCategory(cafeId, { name: 'Coffee' }));
    return { cafeId, categoryId: category.id };
  }

  it('create with every field (multipart), read, update, delete', async () => {
    const { cafeId, categoryId } = await menu();
    const res = await newItem(cafeId, [
      textPart('category_id', categoryId),
      textPart('name', 'Flat white'),
      textPart('price', '4.125'),
      textPart('currency', 'kwd'),
      textPart('description', 'Double ristretto'),
      textPart('is_featured', 'true'),
      textPart('is_new', 'true'),
      textPart('is_recommended', 'false'),
      textPart('spice_level', 'mild'),
      textPart('ingredients', 'espresso'),
      textPart('ingredients', 'milk'),
      textPart('tags', '["hot","signature"]'),
      textPart('allergens', 'milk'),
      pngPart('image'),
    ]);
    const item = ok(res);
    expect(item).toMatchObject({
      cafe_id: cafeId,
      category_id: categoryId,
      name: 'Flat white',
      price: 4.125,
      currency: 'KWD',
      description: 'Double ristretto',
      visible: true,
      is_featured: true,
      is_new: true,
      is_recommended: false,
      spice_level: 'mild',
      ingredients: ['espresso', 'milk'],
      tags: ['hot', 'signature'],
      allergens: ['milk'],
      order: 0,
    });
    expect(item.image).toMatch(/\/files\//);
    const plain = ok(await newItem(cafeId, [textPart('category_id', categoryId), textPart('name', 'Water'), textPart('price', '0')]));
    expect(plain).toMatchObject({
      price: 0,
      currency: 'USD',
      spice_level: 'none',
      ingredients: [],
      tags: [],
      allergens: [],
      is_featured: false,
      visible: true,
      order: 1,
      image: null,
      description: null,
    });
    expect(ok(await call(api.app, me.key, 'GET', url(cafeId, `/items/${item.id}`)))).toEqual(item);

    const tea = ok(await newCategory(cafeId, { name: 'Tea' }));
    const moved = ok(
      await sendForm(api.app, me.key, 'PUT', url(cafeId, `/items/${item.id}`), [
        textPart('category_id', tea.id),
        textPart('price', '5'),
        textPart('tags', '[]'),
        textPart('description', ''),
        textPart('delete_image', 'true'),
      ]),
    );
    expect(moved).toMatchObject({
      category_id: tea.id,
      price: 5,
      tags: [],
      description: null,
      image: null,
      name: 'Flat white',
      ingredients: ['espresso', 'milk'],
    });
    expect(await linkIdOfFile(item.image!)).toBeNull();
    expect((await list(cafeId, 'items', `?category_id=${tea.id}`)).map((i) => i.id)).toEqual([item.id]);
    expect(await list(cafeId, 'items', '?category_id=nope')).toEqual([]);

    expect((await call(api.app, me.key, 'DELETE', url(cafeId, `/items/${plain.id}`))).json()).toEqual({ message: 'Item deleted' });
    expect((await call(api.app, me.key, 'DELETE', url(cafeId, `/items/${plain.id}`))).json()).toEqual({
      code: 'item_not_found',
      message: 'Item not found',
    });
  });

  it('names every bad field', async () => {
    const { cafeId, categoryId } = await menu();
    // A list that is not strings is refused while the form is read, before the other fields are checked.
    expect(paths(await newItem(cafeId, [textPart('price', '-1'), textPart('tags', '["ok", 3]')]))).toEqual(['tags']);
    const badValues = await newItem(cafeId, [
      textPart('price', '-1'),
      textPart('currency', 'ABC'),
      textPart('spice_level', 'volcanic'),
      textPart('is_new', 'yes'),
      textPart('visible', 'TRUE!'),
      textPart('description', 'd'.repeat(2001)),
      textPart('order', 'first'),
      textPart('allergens', ''),
    ]);
    expect(paths(badValues).sort()).toEqual([
      'allergens[0]',
      'category_id',
      'currency',
      'description',
      'is_new',
      'name',
      'order',
      'price',
      'spice_level',
      'visible',
    ]);
    for (const price of ['1.2345', '1e3', 'NaN', '', '1000000000', '0x10', ' 1']) {
      expect(
        paths(await newItem(cafeId, [textPart('category_id', categoryId), textPart('name', 'n'), textPart('price', price)])),
        price,
      ).toEqual(['price']);
    }
    const foreignCategory = ok(await newCategory(await newCafe(), { name: 'Elsewhere' }));
    expect(
      paths(await newItem(cafeId, [textPart('category_id', foreignCategory.id), textPart('name', 'n'), textPart('price', '1')])),
    ).toEqual(['category_id']);
    expect(
      paths(
        await newItem(cafeId, [
          textPart('category_id', categoryId),
          textPart('name', 'n'),
          textPart('price', '1'),
          textPart('name', 'again'),
        ]),
      ),
    ).toEqual(['name']);
    const many = Array.from({ length: 51 }, (_, i) => textPart('tags', `t${i}`));
    expect(
      paths(await newItem(cafeId, [textPart('category_id', categoryId), textPart('name', 'n'), textPart('price', '1'), ...many])),
    ).toEqual(['tags']);
    expect(
      (
        await newItem(cafeId, [
          textPart('category_id', categoryId),
          textPart('name', 'n'),
          textPart('price', '1'),
          { name: 'image', data: pdfBytes('p'), filename: 'p.jpg' },
        ])
      ).statusCode,
    ).toBe(415);
    expect(await list(cafeId, 'items')).toEqual([]);
  });

  it('form edges: a JSON-typed list part, too many fields, too many files', async () => {
    const { cafeId, categoryId } = await menu();
    const base = [textPart('category_id', categoryId), textPart('name', 'n'), textPart('price', '1')];
    const typed = ok(await newItem(cafeId, [...base, { name: 'allergens', data: '["gluten","nuts"]', contentType: 'application/json' }]));
    expect(typed.allergens).toEqual(['gluten', 'nuts']);
    const fields = Array.from({ length: 201 }, (_, i) => textPart('tags', `t${i}`));
    expect(paths(await newItem(cafeId, [...base, ...fields]))).toEqual(['(body)']);
    const files = Array.from({ length: 5 }, (_, i) => pngPart('image', 2, 40 + i));
    expect(paths(await newItem(cafeId, [...base, ...files]))).toEqual(['(body)']);
    expect(paths(await newItem(cafeId, [...base, pngPart('image', 2, 50), pngPart('image', 2, 51)]))).toEqual(['(body)']);
    expect(
      paths(await sendForm(api.app, me.key, 'PUT', url(cafeId, '/profile'), [pngPart('logo', 2, 52), pngPart('logo', 2, 53)])),
    ).toEqual(['logo']);
    expect((await list(cafeId, 'items')).map((i) => i.id)).toEqual([typed.id]);
  });

  it('hide and show', async () => {
    const { cafeId, categoryId } = await menu();
    const item = ok(await newItem(cafeId, [textPart('category_id', categoryId), textPart('name', 'Mocha'), textPart('price', '3')]));
    expect((await call(api.app, me.key, 'POST', url(cafeId, `/items/${item.id}/hide`))).json()).toEqual({ message: 'Item hidden' });
    expect(ok(await call(api.app, me.key, 'GET', url(cafeId, `/items/${item.id}`))).visible).toBe(false);
    // Hidden items stay in the API's list.
    expect((await list(cafeId, 'items')).map((i) => i.visible)).toEqual([false]);
    expect((await call(api.app, me.key, 'POST', url(cafeId, `/items/${item.id}/show`))).json()).toEqual({ message: 'Item shown' });
    expect(ok(await call(api.app, me.key, 'GET', url(cafeId, `/items/${item.id}`))).visible).toBe(true);
    const missing = await call(api.app, me.key, 'POST', url(cafeId, '/items/00000000-0000-4000-8000-000000000000/hide'));
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ code: 'item_not_found', message: 'Item not found' });
  });

  it('reorder takes the bare array', async () => {
    const { cafeId, categoryId } = await menu();
    const ids: string[] = [];
    for (const name of ['a', 'b', 'c'])
      ids.push(ok(await newItem(cafeId, [textPart('category_id', categoryId), textPart('name', name), textPart('price', '1')])).id);
    const res = await call(api.app, me.key, 'PATCH', url(cafeId, '/items/reorder'), [
      { id: ids[2], order: 0 },
      { id: ids[0], order: 1 },
      { id: ids[1], order: 2 },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect((await list(cafeId, 'items')).map((i) => i.name)).toEqual(['c', 'a', 'b']);
    expect(paths(await call(api.app, me.key, 'PATCH', url(cafeId, '/items/reorder'), { orders: [{ id: ids[0], order: 0 }] }))).toEqual([
      '(body)',
    ]);
    expect(
      paths(
        await call(api.app, me.key, 'PATCH', url(cafeId, '/items/reorder'), [
          { id: ids[0], order: 0 },
          { id: categoryId, order: 1 },
        ]),
      ),
    ).toEqual(['[1].id']);
    expect(paths(await call(api.app, me.key, 'PATCH', url(cafeId, '/items/reorder'), []))).toEqual(['(body)']);
  });

  it('hostile text is stored verbatim; NUL is a 400; a 1 MB field is a 400', async () => {
    const { cafeId, categoryId } = await menu();
    const name = '<svg onload=alert(1)>🍕\u202e';
    const item = ok(
      await newItem(cafeId, [
        textPart('category_id', categoryId),
        textPart('name', name),
        textPart('price', '1'),
        textPart('ingredients', '"quoted", <b>'),
      ]),
    );
    expect(item).toMatchObject({ name, ingredients: ['"quoted", <b>'] });
    expect(
      paths(await newItem(cafeId, [textPart('category_id', categoryId), textPart('name', 'a\u0000'), textPart('price', '1')])),
    ).toEqual(['name']);
    expect(
      paths(
        await newItem(cafeId, [
          textPart('category_id', categoryId),
          textPart('name', 'n'),
          textPart('price', '1'),
          textPart('description', 'm'.repeat(1024 * 1024)),
        ]),
      ),
    ).toEqual(['description']);
    expect(paths(await newCategory(cafeId, { name: 'x\ud800' }))).toEqual(['name']);
    expect((await newCategory(cafeId, { name: 'n', description: 'm'.repeat(1024 * 1024) })).statusCode).toBe(413);
  });
});

describe('ids from another cafe or account', () => {
  it('a group, category or item of another cafe is its 404 in this one; another account’s cafe is "Cafe not found"', async () => {
    const mine = await newCafe();
    const theirs = await newCafe(other.key);
    const theirCategory = ok(await newCategory(theirs, { name: 'Theirs' }, other.key));
    const theirGroup = ok(await sendForm(api.app, other.key, 'POST', url(theirs, '/groups'), [textPart('name', 'Theirs')]));
    const theirItem = ok(
      await newItem(theirs, [textPart('category_id', theirCategory.id), textPart('name', 'Theirs'), textPart('price', '1')], other.key),
    );
    const expectations: Array<[Promise<{ statusCode: number; body: string }>, string]> = [
      [call(api.app, me.key, 'GET', url(mine, `/groups/${theirGroup.id}`)), 'Group not found'],
      [sendForm(api.app, me.key, 'PUT', url(mine, `/groups/${theirGroup.id}`), [textPart('name', 'x')]), 'Group not found'],
      [call(api.app, me.key, 'DELETE', url(mine, `/groups/${theirGroup.id}`)), 'Group not found'],
      [call(api.app, me.key, 'GET', url(mine, `/categories/${theirCategory.id}`)), 'Category not found'],
      [call(api.app, me.key, 'PUT', url(mine, `/categories/${theirCategory.id}`), { name: 'x' }), 'Category not found'],
      [sendForm(api.app, me.key, 'PUT', url(mine, `/categories/${theirCategory.id}/image`), [pngPart('image')]), 'Category not found'],
      [call(api.app, me.key, 'DELETE', url(mine, `/categories/${theirCategory.id}`)), 'Category not found'],
      [call(api.app, me.key, 'GET', url(mine, `/items/${theirItem.id}`)), 'Item not found'],
      [sendForm(api.app, me.key, 'PUT', url(mine, `/items/${theirItem.id}`), [textPart('name', 'x')]), 'Item not found'],
      [call(api.app, me.key, 'POST', url(mine, `/items/${theirItem.id}/hide`)), 'Item not found'],
      [call(api.app, me.key, 'DELETE', url(mine, `/items/${theirItem.id}`)), 'Item not found'],
      [call(api.app, me.key, 'GET', url(theirs, `/items/${theirItem.id}`)), 'Cafe not found'],
      [
        sendForm(api.app, me.key, 'POST', url(theirs, '/items'), [
          textPart('category_id', theirCategory.id),
          textPart('name', 'x'),
          textPart('price', '1'),
        ]),
        'Cafe not found',
      ],
      [call(api.app, me.key, 'PATCH', url(theirs, '/items/reorder'), [{ id: theirItem.id, order: 3 }]), 'Cafe not found'],
      [call(api.app, me.key, 'DELETE', url(theirs, `/groups/${theirGroup.id}`)), 'Cafe not found'],
    ];
    for (const [pending, message] of expectations) {
      const res = await pending;
      expect(res.statusCode, `${message}: ${res.body}`).toBe(404);
      // `Item not found` is `item_not_found`: the code names the same resource.
      expect(JSON.parse(res.body)).toEqual({ code: `${message.replace(' not found', '').toLowerCase()}_not_found`, message });
    }
    expect(ok(await call(api.app, other.key, 'GET', url(theirs, `/items/${theirItem.id}`)))).toEqual(theirItem);
    expect(ok(await call(api.app, other.key, 'GET', url(theirs, `/groups/${theirGroup.id}`)))).toEqual(theirGroup);
  });
});

describe('concurrent writes', () => {
  it('menu writes racing the cafe’s deletion answer 200 or "Cafe not found", never a 5xx', async () => {
    for (let round = 0; round < 5; round++) {
      const cafeId = await newCafe();
      const category = ok(await newCategory(cafeId, { name: 'Cakes' }));
      const items: Row[] = [];
      for (let i = 0; i < 4; i++)
        items.push(
          ok(
            await newItem(cafeId, [
              textPart('category_id', category.id),
              textPart('name', `cake ${i}`),
              textPart('price', '3'),
              pngPart('image', 10 + i, 3 + round),
            ]),
          ),
        );
      const writes = [
        ...items.map((item, i) =>
          sendForm(api.app, me.key, 'PUT', url(cafeId, `/items/${item.id}`), [
            textPart('name', 'renamed'),
            pngPart('image', 20 + i, 5 + round),
          ]),
        ),
        call(api.app, me.key, 'DELETE', url(cafeId)),
        newItem(cafeId, [
          textPart('category_id', category.id),
          textPart('name', 'late'),
          textPart('price', '1'),
          pngPart('image', 30, 7 + round),
        ]),
        call(
          api.app,
          me.key,
          'PATCH',
          url(cafeId, '/items/reorder'),
          items.map((item, i) => ({ id: item.id, order: 10 - i })),
        ),
      ];
      for (const res of await Promise.all(writes)) {
        expect([200, 404], res.body).toContain(res.statusCode);
        if (res.statusCode === 404) expect(['Cafe not found', 'Item not found']).toContain(JSON.parse(res.body).message);
      }
      expect((await call(api.app, me.key, 'GET', url(cafeId))).statusCode).toBe(404);
      // Nothing the cafe had stays attached to a link that no longer exists.
      const { rows } = await api.ctx.database.pool.query(
        'select 1 from files where account_id = $1 and link_id is null and attached_at is not null',
        [me.accountId],
      );
      expect(rows).toEqual([]);
    }
  });
});

describe('the cafe row lock', () => {
  it('every menu write waits while another transaction holds the cafe row (as a bulk replacement will)', async () => {
    const cafeId = await newCafe();
    const group = ok(await newGroup(cafeId, 'G'));
    const category = ok(await newCategory(cafeId, { name: 'C' }));
    const item = ok(await newItem(cafeId, [textPart('category_id', category.id), textPart('name', 'I'), textPart('price', '1')]));
    const writes: Array<() => Promise<{ statusCode: number; body: string }>> = [
      () => call(api.app, me.key, 'POST', url(cafeId, `/items/${item.id}/hide`)),
      () => newItem(cafeId, [textPart('category_id', category.id), textPart('name', 'J'), textPart('price', '2')]),
      () => sendForm(api.app, me.key, 'PUT', url(cafeId, `/items/${item.id}`), [textPart('name', 'I2')]),
      () => call(api.app, me.key, 'PATCH', url(cafeId, '/items/reorder'), [{ id: item.id, order: 4 }]),
      () => call(api.app, me.key, 'DELETE', url(cafeId, `/groups/${group.id}`)),
      () => newCategory(cafeId, { name: 'D' }),
      () => call(api.app, me.key, 'PUT', url(cafeId, '/theme'), { themeImage: 'dark' }),
    ];
    for (const write of writes) {
      const holder = await api.ctx.database.pool.connect();
      try {
        await holder.query('begin');
        await holder.query('select id from cafes where id = $1 for update', [cafeId]);
        let settled = false;
        const pending = write().finally(() => (settled = true));
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(settled).toBe(false);
        await holder.query('commit');
        const res = await pending;
        expect(res.statusCode, res.body).toBe(200);
      } finally {
        holder.release();
      }
    }
  });
});
