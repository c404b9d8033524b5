/**
 * Cafes: the cafe and its link, PUT, profile (multipart), theme, delete, cache invalidation,
 * scopes, tenancy and hostile text. The menu (groups, categories, items) is in cafes-menu.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX } from '#api/prefix.js';
import { MENU_THEME_KEYS } from '#domain/cafes/themes.js';
import { linkCacheKeys } from '#domain/links/resolve/keys.js';
import { pdfBytes, pngBytes, pngPart, sendForm, textPart } from '../../support/fixtures.js';
import { addKey, call, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';

let api: TestApi;
let me: TestAccount;
let other: TestAccount;

const url = (path = '') => `${API_PREFIX}/cafes${path}`;

beforeAll(async () => {
  api = await startTestApi();
  // Cafes are on every plan: the starter plan is enough.
  me = await createTestAccount(api.ctx, { plan: 'starter' });
  other = await createTestAccount(api.ctx, { plan: 'pro' });
}, 60_000);
afterAll(async () => {
  await api?.close();
});

type Cafe = {
  id: string;
  link: { id: string; dynamic_link_id: string; full_dynamic_url: string; qr_options: Record<string, unknown> };
} & Record<string, unknown>;

async function newCafe(key = me.key, body: Record<string, unknown> = { name: 'Blue Bottle' }): Promise<Cafe> {
  const res = await call(api.app, key, 'POST', url(), body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

function paths(res: { statusCode: number; json(): { errors?: Array<{ path: string }> } }): string[] {
  expect(res.statusCode).toBe(400);
  return (res.json().errors ?? []).map((e) => e.path);
}

async function fileRow(fileId: string) {
  const { rows } = await api.ctx.database.pool.query<{ link_id: string | null; attached_at: Date | null }>(
    'select link_id, attached_at from files where id = $1',
    [fileId],
  );
  return rows[0];
}

const fileIdOf = (fileUrl: string) => fileUrl.split('/').pop()!;

describe('POST /cafes', () => {
  it('makes the cafe and its menu link together; GET /links?menu=<id> finds the link', async () => {
    const cafe = await newCafe(me.key, { name: 'Blue Bottle', description: 'Coffee & cake' });
    expect(cafe).toMatchObject({
      name: 'Blue Bottle',
      description: 'Coffee & cake',
      timezone: 'UTC',
      operating_hours: [],
      facilities: [],
      social_links: [],
      title: null,
      logo: null,
      cover: null,
      themeImage: 'classic',
      primaryColor: null,
      secondaryColor: null,
      showDietarySection: true,
    });
    expect(new Date(cafe.created_at as string).toISOString()).toBe(cafe.created_at);
    expect(cafe.link.full_dynamic_url).toBe(`${api.ctx.config.SHORT_URL_BASE.replace(/\/+$/, '')}/${cafe.link.dynamic_link_id}`);
    const links = (await call(api.app, me.key, 'GET', `${API_PREFIX}/links?menu=${cafe.id}`)).json().data;
    expect(links).toHaveLength(1);
    expect(links[0]).toMatchObject({
      id: cafe.link.id,
      dynamic_link_id: cafe.link.dynamic_link_id,
      type: 'menu',
      menu: cafe.id,
      name: 'Blue Bottle',
    });
    expect((await call(api.app, me.key, 'GET', url(`/${cafe.id}`))).json().data).toEqual(cafe);
    const list = (await call(api.app, me.key, 'GET', url())).json().data as Cafe[];
    expect(list.map((c) => c.id)).toContain(cafe.id);
  });

  it('names each bad field', async () => {
    expect(paths(await call(api.app, me.key, 'POST', url(), {}))).toEqual(['name']);
    expect(paths(await call(api.app, me.key, 'POST', url(), { name: '   ' }))).toEqual(['name']);
    expect(
      paths(await call(api.app, me.key, 'POST', url(), { name: 'x'.repeat(256), description: 'd'.repeat(2001), extra: 1 })).sort(),
    ).toEqual(['description', 'extra', 'name']);
    await newCafe(me.key, { name: 'x'.repeat(255), description: 'd'.repeat(2000) });
    // Contact fields are the profile's: not accepted here.
    expect(paths(await call(api.app, me.key, 'POST', url(), { name: 'a', phone: '1' }))).toEqual(['phone']);
  });

  it('a cafe that does not exist, or is not a UUID, is "Cafe not found"', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope', 'x'.repeat(100)]) {
      const res = await call(api.app, me.key, 'GET', url(`/${id}`));
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: 'cafe_not_found', message: 'Cafe not found' });
    }
  });
});

describe('PUT /cafes/:id', () => {
  it('updates the cafe, restyles its link and renames it', async () => {
    const cafe = await newCafe();
    const body = {
      name: 'Blue Bottle Shibuya',
      description: null,
      timezone: 'Asia/Tokyo',
      operating_hours: [
        {
          day: 'monday',
          enabled: true,
          ranges: [
            { from: '08:00', to: '12:00' },
            { from: '13:00', to: '17:30' },
          ],
        },
        { day: 'friday', enabled: true, ranges: [{ from: '18:00', to: '02:00' }] },
        { day: 'sunday', enabled: false, ranges: [] },
      ],
      facilities: ['wifi', 'terrace'],
      social_links: [{ platform: 'instagram', url: 'https://instagram.com/bluebottle' }],
      qr_options: { dotsOptions: { type: 'dots', color: '#123456' } },
    };
    const res = await call(api.app, me.key, 'PUT', url(`/${cafe.id}`), body);
    expect(res.statusCode, res.body).toBe(200);
    const updated = res.json().data;
    const { qr_options: _qr, ...fields } = body;
    expect(updated).toMatchObject(fields);
    expect(updated.link.qr_options.dotsOptions).toMatchObject({ type: 'dots', color: '#123456' });
    expect(updated.link.qr_options.data).toBe(cafe.link.full_dynamic_url);
    const link = (await call(api.app, me.key, 'GET', `${API_PREFIX}/links/${cafe.link.dynamic_link_id}`)).json().data;
    expect(link).toMatchObject({ name: 'Blue Bottle Shibuya', meta_data: { name: 'Blue Bottle Shibuya' } });
    // Members left out keep their values.
    const again = (await call(api.app, me.key, 'PUT', url(`/${cafe.id}`), { facilities: [] })).json().data;
    expect(again).toMatchObject({ name: 'Blue Bottle Shibuya', timezone: 'Asia/Tokyo', facilities: [], social_links: body.social_links });
  });

  it('names every bad field, and changes nothing', async () => {
    const cafe = await newCafe();
    const bad = {
      name: '',
      timezone: 'Mars/Olympus',
      operating_hours: [
        { day: 'funday', enabled: true, ranges: [] },
        {
          day: 'monday',
          enabled: 'yes',
          ranges: [
            { from: '25:00', to: '10:00' },
            { from: '10:00', to: '10:00' },
          ],
        },
        { day: 'monday', enabled: true },
      ],
      facilities: ['ok', ''],
      social_links: [{ platform: 'x', url: 'javascript:alert(1)' }],
      qr_options: { dotsOptions: { type: 'hexagons' } },
      title: 'profile only',
    };
    const got = paths(await call(api.app, me.key, 'PUT', url(`/${cafe.id}`), bad));
    for (const p of [
      'name',
      'timezone',
      'operating_hours[0].day',
      'operating_hours[1].enabled',
      'operating_hours[1].ranges[0].from',
      'operating_hours[1].ranges[1].to',
      'facilities[1]',
      'social_links[0].url',
      'qr_options.dotsOptions.type',
      'title',
    ]) {
      expect(got, p).toContain(p);
    }
    const dup = paths(
      await call(api.app, me.key, 'PUT', url(`/${cafe.id}`), {
        operating_hours: [
          { day: 'monday', enabled: true },
          { day: 'monday', enabled: false },
        ],
      }),
    );
    expect(dup).toEqual(['operating_hours[1].day']);
    expect((await call(api.app, me.key, 'GET', url(`/${cafe.id}`))).json().data).toEqual(cafe);
  });
});

describe('PUT /cafes/:id/theme', () => {
  it('takes every theme key and hex colors; null colors return to the theme’s', async () => {
    expect(MENU_THEME_KEYS.length).toBeGreaterThanOrEqual(6);
    const cafe = await newCafe();
    for (const key of MENU_THEME_KEYS) {
      const res = await call(api.app, me.key, 'PUT', url(`/${cafe.id}/theme`), { themeImage: key });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.themeImage).toBe(key);
    }
    const styled = await call(api.app, me.key, 'PUT', url(`/${cafe.id}/theme`), {
      themeImage: 'dark',
      primaryColor: '#FFAA00',
      secondaryColor: '#abc',
      showDietarySection: false,
    });
    expect(styled.json().data).toMatchObject({
      themeImage: 'dark',
      primaryColor: '#ffaa00',
      secondaryColor: '#abc',
      showDietarySection: false,
    });
    const kept = await call(api.app, me.key, 'PUT', url(`/${cafe.id}/theme`), { themeImage: 'modern', secondaryColor: null });
    expect(kept.json().data).toMatchObject({
      themeImage: 'modern',
      primaryColor: '#ffaa00',
      secondaryColor: null,
      showDietarySection: false,
    });
  });

  it('the cafe reads back what the theme wrote, under the names it was written with', async () => {
    const cafe = await newCafe();
    const written = { themeImage: 'elegant', primaryColor: '#0b3d91', secondaryColor: '#ffee00', showDietarySection: false };
    expect((await call(api.app, me.key, 'PUT', url(`/${cafe.id}/theme`), written)).statusCode).toBe(200);
    for (const read of [
      (await call(api.app, me.key, 'GET', url(`/${cafe.id}`))).json().data,
      ...(await call(api.app, me.key, 'GET', url())).json().data.filter((c: Cafe) => c.id === cafe.id),
    ]) {
      expect(read).toMatchObject(written);
      // One name per field: the contract's.
      for (const snake of ['theme_image', 'primary_color', 'secondary_color', 'show_dietary_section'])
        expect(read).not.toHaveProperty(snake);
    }
  });

  it('an unknown theme is a 400 listing the themes; bad colors name their field', async () => {
    const cafe = await newCafe();
    const res = await call(api.app, me.key, 'PUT', url(`/${cafe.id}/theme`), {
      themeImage: 'neon',
      primaryColor: 'red',
      secondaryColor: '#12345',
    });
    expect(paths(res).sort()).toEqual(['primaryColor', 'secondaryColor', 'themeImage']);
    const message = res.json().errors.find((e: { path: string }) => e.path === 'themeImage').message;
    for (const key of MENU_THEME_KEYS) expect(message).toContain(key);
    expect(paths(await call(api.app, me.key, 'PUT', url(`/${cafe.id}/theme`), { primaryColor: '#fff' }))).toEqual(['themeImage']);
  });
});

describe('PUT /cafes/:id/profile (multipart)', () => {
  it('sets contact fields, logo and cover; replaces and deletes images; empty text clears', async () => {
    const cafe = await newCafe();
    const res = await sendForm(api.app, me.key, 'PUT', url(`/${cafe.id}/profile`), [
      textPart('name', 'Blue Bottle Kyoto'),
      textPart('title', 'Coffee roasters'),
      textPart('subtitle', 'Since 2002'),
      textPart('address', '64 Nanzenji, Kyoto'),
      textPart('phone', '+81 75 000 0000'),
      textPart('email', 'kyoto@example.com'),
      textPart('website', 'https://bluebottle.example/kyoto'),
      textPart('description', 'A café in a machiya'),
      pngPart('logo'),
      pngPart('cover', 8, 4),
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const profile = res.json().data;
    expect(profile).toMatchObject({
      name: 'Blue Bottle Kyoto',
      title: 'Coffee roasters',
      subtitle: 'Since 2002',
      address: '64 Nanzenji, Kyoto',
      phone: '+81 75 000 0000',
      email: 'kyoto@example.com',
      website: 'https://bluebottle.example/kyoto',
      description: 'A café in a machiya',
    });
    const logo = fileIdOf(profile.logo);
    const cover = fileIdOf(profile.cover);
    expect(profile.logo).toBe(`${api.ctx.config.SHORT_URL_BASE.replace(/\/+$/, '')}/files/${logo}`);
    expect(await fileRow(logo)).toMatchObject({ link_id: cafe.link.id });
    expect(await fileRow(cover)).toMatchObject({ link_id: cafe.link.id });

    // A new logo replaces the old one, which is released for the orphan sweep.
    const replaced = (await sendForm(api.app, me.key, 'PUT', url(`/${cafe.id}/profile`), [pngPart('logo', 5, 5)])).json().data;
    expect(replaced.logo).not.toBe(profile.logo);
    expect(replaced.cover).toBe(profile.cover);
    expect(await fileRow(logo)).toMatchObject({ link_id: null, attached_at: null });

    const cleared = await sendForm(api.app, me.key, 'PUT', url(`/${cafe.id}/profile`), [
      textPart('delete_logo', 'true'),
      textPart('delete_cafe-cover', 'true'),
      textPart('title', ''),
    ]);
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json().data).toMatchObject({ logo: null, cover: null, title: null, subtitle: 'Since 2002' });
    expect(await fileRow(cover)).toMatchObject({ link_id: null });

    const withCover = (await sendForm(api.app, me.key, 'PUT', url(`/${cafe.id}/profile`), [pngPart('cover', 6, 6)])).json().data;
    const removed = await sendForm(api.app, me.key, 'PUT', url(`/${cafe.id}/profile`), [textPart('delete_cover', 'true')]);
    expect(removed.json().data.cover).toBeNull();
    expect(withCover.cover).not.toBeNull();

    // An empty form changes nothing.
    const same = await sendForm(api.app, me.key, 'PUT', url(`/${cafe.id}/profile`), []);
    expect(same.statusCode).toBe(200);
    expect(same.json().data.name).toBe('Blue Bottle Kyoto');
  });

  it('a non-image is 415, a bad field a 400 naming it, JSON a 415, a file past the limit 413', async () => {
    const cafe = await newCafe();
    const pdf = await sendForm(api.app, me.key, 'PUT', url(`/${cafe.id}/profile`), [
      { name: 'logo', data: pdfBytes('menu'), filename: 'logo.png', contentType: 'image/png' },
    ]);
    expect(pdf.statusCode).toBe(415);
    expect(pdf.json()).toEqual({ code: 'unsupported_image_type', message: expect.stringContaining('PNG') });
    const junk = await sendForm(api.app, me.key, 'PUT', url(`/${cafe.id}/profile`), [{ name: 'cover', data: 'hello', filename: 'c.jpg' }]);
    expect(junk.statusCode).toBe(415);
    expect(paths(await sendForm(api.app, me.key, 'PUT', url(`/${cafe.id}/profile`), [textPart('colour', 'red')]))).toEqual(['colour']);
    expect(paths(await sendForm(api.app, me.key, 'PUT', url(`/${cafe.id}/profile`), [pngPart('photo')]))).toEqual(['photo']);
    const badValues = await sendForm(api.app, me.key, 'PUT', url(`/${cafe.id}/profile`), [
      textPart('email', 'not-an-email'),
      textPart('website', 'ftp://example.com'),
      textPart('delete_logo', 'yes'),
      textPart('name', ''),
      textPart('phone', 'p'.repeat(51)),
    ]);
    expect(paths(badValues).sort()).toEqual(['delete_logo', 'email', 'name', 'phone', 'website']);
    const twice = await sendForm(api.app, me.key, 'PUT', url(`/${cafe.id}/profile`), [textPart('title', 'a'), textPart('title', 'b')]);
    expect(paths(twice)).toEqual(['title']);
    const both = await sendForm(api.app, me.key, 'PUT', url(`/${cafe.id}/profile`), [pngPart('logo'), textPart('delete_logo', 'true')]);
    expect(paths(both)).toEqual(['delete_logo']);
    const json = await call(api.app, me.key, 'PUT', url(`/${cafe.id}/profile`), { title: 'x' });
    expect(json.statusCode).toBe(415);
    const big = Buffer.concat([pngBytes(2, 2), Buffer.alloc(api.ctx.config.FILE_SIZE_LIMIT_BYTES)]);
    const tooBig = await sendForm(api.app, me.key, 'PUT', url(`/${cafe.id}/profile`), [{ name: 'logo', data: big, filename: 'big.png' }]);
    expect(tooBig.statusCode).toBe(413);
    expect((await call(api.app, me.key, 'GET', url(`/${cafe.id}`))).json().data).toEqual(cafe);
  });
});

describe('DELETE /cafes/:id', () => {
  it('removes the cafe, its menu, its images and its link', async () => {
    const cafe = await newCafe();
    await sendForm(api.app, me.key, 'PUT', url(`/${cafe.id}/profile`), [pngPart('logo', 7, 7)]);
    const group = (
      await sendForm(api.app, me.key, 'POST', url(`/${cafe.id}/groups`), [textPart('name', 'Breakfast'), pngPart('image', 4, 9)])
    ).json().data;
    const category = (await call(api.app, me.key, 'POST', url(`/${cafe.id}/categories`), { name: 'Coffee', group_id: group.id })).json()
      .data;
    const item = (
      await sendForm(api.app, me.key, 'POST', url(`/${cafe.id}/items`), [
        textPart('category_id', category.id),
        textPart('name', 'Latte'),
        textPart('price', '4.5'),
        pngPart('image', 9, 4),
      ])
    ).json().data;
    const res = await call(api.app, me.key, 'DELETE', url(`/${cafe.id}`));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Cafe deleted' });
    expect((await call(api.app, me.key, 'GET', url(`/${cafe.id}`))).statusCode).toBe(404);
    expect((await call(api.app, me.key, 'GET', `${API_PREFIX}/links/${cafe.link.dynamic_link_id}`)).statusCode).toBe(404);
    expect((await call(api.app, me.key, 'GET', `${API_PREFIX}/links?menu=${cafe.id}`)).json().data).toEqual([]);
    const { pool } = api.ctx.database;
    for (const table of ['cafe_groups', 'cafe_categories', 'cafe_items']) {
      expect((await pool.query(`select 1 from ${table} where cafe_id = $1`, [cafe.id])).rowCount, table).toBe(0);
    }
    expect(await fileRow(fileIdOf(group.image))).toBeUndefined();
    expect(await fileRow(fileIdOf(item.image))).toBeUndefined();
    expect((await call(api.app, me.key, 'DELETE', url(`/${cafe.id}`))).statusCode).toBe(404);
  });

  it('deleting the cafe’s link through /links deletes the cafe', async () => {
    const cafe = await newCafe();
    expect((await call(api.app, me.key, 'DELETE', `${API_PREFIX}/links/${cafe.link.dynamic_link_id}`)).statusCode).toBe(200);
    expect((await call(api.app, me.key, 'GET', url(`/${cafe.id}`))).statusCode).toBe(404);
  });
});

describe('the cafe’s link through /links', () => {
  it('PUT keeps the cafe’s images and its type; a duplicate is a link of no cafe', async () => {
    const cafe = await newCafe();
    const profile = (await sendForm(api.app, me.key, 'PUT', url(`/${cafe.id}/profile`), [pngPart('logo', 11, 3)])).json().data;
    const linkUrl = `${API_PREFIX}/links/${cafe.link.dynamic_link_id}`;
    const put = await call(api.app, me.key, 'PUT', linkUrl, {
      name: 'Menu',
      type: 'menu',
      data: { name: 'Menu' },
      linkConfigurations: { scanLimitActive: true, scanLimit: 100 },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(await fileRow(fileIdOf(profile.logo))).toMatchObject({ link_id: cafe.link.id });
    const retyped = await call(api.app, me.key, 'PUT', linkUrl, { name: 'Menu', type: 'website', data: { url: 'https://example.com/' } });
    expect(paths(retyped)).toEqual(['type']);
    const copy = await call(api.app, me.key, 'POST', `${linkUrl}/duplicate`, {});
    expect(copy.statusCode, copy.body).toBe(200);
    expect(
      (await call(api.app, me.key, 'GET', `${API_PREFIX}/links?menu=${cafe.id}`)).json().data.map((l: { id: string }) => l.id),
    ).toEqual([cafe.link.id]);
    expect((await call(api.app, me.key, 'GET', url(`/${cafe.id}`))).json().data.logo).toBe(profile.logo);
  });
});

describe('the link cache', () => {
  it('every write to the cafe or its menu invalidates the link’s cached copy', async () => {
    const cafe = await newCafe();
    const keys = linkCacheKeys(api.ctx.config.REDIS_NAMESPACE);
    const slug = cafe.link.dynamic_link_id;
    const version = async () => Number((await api.ctx.redis.get(keys.version(slug))) ?? 0);
    const writes: Array<() => Promise<{ statusCode: number; body: string }>> = [
      () => call(api.app, me.key, 'PUT', url(`/${cafe.id}`), { description: 'new' }),
      () => call(api.app, me.key, 'PUT', url(`/${cafe.id}/theme`), { themeImage: 'rustic' }),
      () => sendForm(api.app, me.key, 'PUT', url(`/${cafe.id}/profile`), [textPart('title', 'T')]),
      () => sendForm(api.app, me.key, 'POST', url(`/${cafe.id}/groups`), [textPart('name', 'G')]),
      () => call(api.app, me.key, 'POST', url(`/${cafe.id}/categories`), { name: 'C' }),
    ];
    for (const write of writes) {
      await api.ctx.redis.set(keys.entry(slug), 'stale');
      const before = await version();
      const res = await write();
      expect(res.statusCode, res.body).toBe(200);
      expect(await version()).toBe(before + 1);
      expect(await api.ctx.redis.get(keys.entry(slug))).toBeNull();
    }
  });
});

describe('scopes and tenancy', () => {
  it('each endpoint needs its scope (403 otherwise)', async () => {
    const cafe = await newCafe();
    const group = (await sendForm(api.app, me.key, 'POST', url(`/${cafe.id}/groups`), [textPart('name', 'G')])).json().data;
    const category = (await call(api.app, me.key, 'POST', url(`/${cafe.id}/categories`), { name: 'C' })).json().data;
    const read = (await addKey(api.ctx, me.accountId, ['cafe.read'])).key;
    const create = (await addKey(api.ctx, me.accountId, ['cafe.create'])).key;
    const update = (await addKey(api.ctx, me.accountId, ['cafe.update'])).key;
    const del = (await addKey(api.ctx, me.accountId, ['cafe.delete'])).key;
    const links = (await addKey(api.ctx, me.accountId, ['links.read', 'links.create', 'links.update', 'links.delete'])).key;
    const status = async (key: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) =>
      (await call(api.app, key, method, url(path), body)).statusCode;
    expect(await status(read, 'GET', '')).toBe(200);
    expect(await status(read, 'GET', `/${cafe.id}/groups`)).toBe(200);
    expect(await status(links, 'GET', '')).toBe(403);
    expect(await status(read, 'POST', '', { name: 'n' })).toBe(403);
    expect(await status(create, 'POST', '', { name: 'n' })).toBe(200);
    expect(await status(create, 'PUT', `/${cafe.id}`, { name: 'n' })).toBe(403);
    expect(await status(update, 'PUT', `/${cafe.id}`, { name: 'n' })).toBe(200);
    expect(await status(update, 'DELETE', `/${cafe.id}/groups/${group.id}`)).toBe(403);
    expect(await status(update, 'DELETE', `/${cafe.id}`)).toBe(403);
    expect(await status(update, 'DELETE', `/${cafe.id}/categories/${category.id}`)).toBe(200);
    expect(await status(del, 'PUT', `/${cafe.id}/theme`, { themeImage: 'dark' })).toBe(403);
    expect(await status(del, 'DELETE', `/${cafe.id}/groups/${group.id}`)).toBe(200);
    expect(await status(del, 'DELETE', `/${cafe.id}`)).toBe(200);
  });

  it("another account's cafe is 404 on every cafe route, and is left as it was", async () => {
    const theirs = await newCafe(other.key, { name: 'Theirs' });
    const id = theirs.id;
    const attempts: Array<Promise<{ statusCode: number; body: string }>> = [
      call(api.app, me.key, 'GET', url(`/${id}`)),
      call(api.app, me.key, 'PUT', url(`/${id}`), { name: 'mine now' }),
      call(api.app, me.key, 'PUT', url(`/${id}/theme`), { themeImage: 'dark' }),
      sendForm(api.app, me.key, 'PUT', url(`/${id}/profile`), [textPart('title', 'x'), pngPart('logo')]),
      call(api.app, me.key, 'GET', url(`/${id}/groups`)),
      call(api.app, me.key, 'GET', url(`/${id}/categories`)),
      call(api.app, me.key, 'GET', url(`/${id}/items`)),
      call(api.app, me.key, 'DELETE', url(`/${id}`)),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.statusCode, res.body).toBe(404);
      expect(JSON.parse(res.body)).toEqual({ code: 'cafe_not_found', message: 'Cafe not found' });
    }
    expect((await call(api.app, other.key, 'GET', url(`/${id}`))).json().data).toEqual(theirs);
    expect((await call(api.app, me.key, 'GET', url())).json().data.map((c: Cafe) => c.id)).not.toContain(id);
  });
});

describe('hostile text', () => {
  it('markup, emoji and bidi controls are stored verbatim', async () => {
    const name = '<script>alert("x")</script> 😀 \u202eevil';
    const description = "'; drop table cafes; -- <img src=x onerror=alert(1)>";
    const cafe = await newCafe(me.key, { name, description });
    expect(cafe).toMatchObject({ name, description });
    const profile = await sendForm(api.app, me.key, 'PUT', url(`/${cafe.id}/profile`), [
      textPart('title', '<b onmouseover=alert(1)>hi</b>'),
      textPart('address', '日本語 \u0007 bell'),
    ]);
    expect(profile.json().data).toMatchObject({ title: '<b onmouseover=alert(1)>hi</b>', address: '日本語 \u0007 bell' });
  });

  it('NUL and lone surrogates are 400s naming the field; 1 MB strings are 413 (JSON) or 400 (a form field)', async () => {
    const cafe = await newCafe();
    expect(paths(await call(api.app, me.key, 'POST', url(), { name: 'a\u0000b' }))).toEqual(['name']);
    const surrogate = await api.app.inject({
      method: 'POST',
      url: url(),
      headers: { authorization: `Basic ${me.key}`, 'content-type': 'application/json' },
      payload: '{"name":"x\\ud800y"}',
    });
    expect(paths(surrogate)).toEqual(['name']);
    expect(paths(await sendForm(api.app, me.key, 'PUT', url(`/${cafe.id}/profile`), [textPart('title', 'a\u0000b')]))).toEqual(['title']);
    const huge = 'm'.repeat(1024 * 1024);
    expect((await call(api.app, me.key, 'PUT', url(`/${cafe.id}`), { description: huge })).statusCode).toBe(413);
    expect(paths(await sendForm(api.app, me.key, 'PUT', url(`/${cafe.id}/profile`), [textPart('description', huge)]))).toEqual([
      'description',
    ]);
    expect(paths(await sendForm(api.app, me.key, 'PUT', url(`/${cafe.id}/profile`), [textPart('description', 'd'.repeat(2001))]))).toEqual([
      'description',
    ]);
    expect((await call(api.app, me.key, 'GET', url(`/${cafe.id}`))).json().data).toEqual(cafe);
  });
});
