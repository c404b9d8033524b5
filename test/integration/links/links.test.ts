import { randomBytes, randomUUID } from 'node:crypto';
import bcrypt from 'bcrypt';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files, linkCounters, links, scans, templates } from '#domain/schema.js';
import { findAccountFiles } from '#domain/files/files.js';
import { LINK_TYPES } from '#domain/links/data/index.js';
import { uploadFile, pdfBytes, pngBytes } from '../../support/fixtures.js';
import { exampleData, type ExampleFiles } from '../../support/link-examples.js';
import { addKey, call, createLinkVia, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';

let api: TestApi;
let me: TestAccount;
let other: TestAccount;
const SHORT = process.env.SHORT_URL_BASE ?? 'http://localhost:3001';

beforeAll(async () => {
  api = await startTestApi();
  me = await createTestAccount(api.ctx);
  other = await createTestAccount(api.ctx);
});
afterAll(() => api.close());

/** New files with contents of their own (identical bytes would share one stored blob). */
async function freshFiles(acct: TestAccount = me): Promise<ExampleFiles> {
  const up = (b: Buffer, n: string) => uploadFile(api.app, acct.key, b, n).then((r) => r.fileId);
  const color = () => [...randomBytes(3)] as [number, number, number];
  return {
    images: [await up(pngBytes(2, 2, color()), 'a.png'), await up(pngBytes(3, 3, color()), 'b.png')],
    pdfs: [await up(pdfBytes(`one ${randomUUID()}`), 'a.pdf'), await up(pdfBytes(`two ${randomUUID()}`), 'b.pdf')],
  };
}

async function storageKeyOf(acct: TestAccount, fileId: string): Promise<string> {
  const [file] = await findAccountFiles(api.ctx.db, acct.accountId, [fileId]);
  return file!.storageKey;
}

const createLink = async (acct: TestAccount, body: Record<string, unknown>) => (await createLinkVia(api.app, acct.key, body)).slug;
const website = (name = 'Site', extra: Record<string, unknown> = {}) => ({
  name,
  type: 'website',
  data: { url: 'https://example.com' },
  ...extra,
});
const getLink = async (acct: TestAccount, id: string) => (await call(api.app, acct.key, 'GET', `/api/v1/links/${id}`)).json().data;
/** Sets a link's counters as if its scans had been recorded. */
const setCounts = (slug: string, counts: { scanCount?: number; humanScanCount?: number; limitScanCount?: number }) =>
  api.ctx.db
    .update(linkCounters)
    .set(counts)
    .where(eq(linkCounters.linkId, sql`(select id from links where slug = ${slug})`));

describe('create and get: every type round-trips', () => {
  it.each(LINK_TYPES)('%s', async (type) => {
    const data = exampleData(type, await freshFiles());
    const res = await call(api.app, me.key, 'POST', '/api/v1/links', { name: `A ${type}`, type, data });
    expect(res.statusCode, res.body).toBe(200);
    const { id } = res.json();
    expect(Object.keys(res.json())).toEqual(['id']);
    expect(id).toMatch(/^[0-9A-Za-z]{7}$/);

    const got = await call(api.app, me.key, 'GET', `/api/v1/links/${id}`);
    expect(got.statusCode).toBe(200);
    const link = got.json().data;
    expect(link.meta_data).toEqual(data);
    expect(link).toMatchObject({
      dynamic_link_id: id,
      name: `A ${type}`,
      type,
      full_dynamic_url: `${SHORT}/${id}`,
      folder_id: null,
      status: 'active',
    });
    expect(link.qr_options.data).toBe(link.full_dynamic_url);
    // The API contract's defaults are applied to the stored options.
    expect(link.qr_options).toMatchObject({
      width: 300,
      height: 300,
      margin: 8,
      dotsOptions: { type: 'classy-rounded' },
      qrOptions: { errorCorrectionLevel: 'Q' },
    });
    expect(link.created_at).toMatch(/^[A-Z][a-z]{2} \d{2}, \d{4}$/);
    // Files the data names are listed on the link.
    const named = JSON.stringify(data).match(/[0-9a-f]{8}-[0-9a-f-]{27}/g) ?? [];
    expect(link.files.map((f: { fileId: string }) => f.fileId).sort()).toEqual([...new Set(named)].sort());
  });

  it('takes optional qrOptions at creation, keeping data the short URL', async () => {
    const id = await createLink(
      me,
      website('styled', { qrOptions: { data: 'https://evil.example', dotsOptions: { type: 'dots', color: '#123456' } } }),
    );
    const link = await getLink(me, id);
    expect(link.qr_options.dotsOptions).toMatchObject({ type: 'dots', color: '#123456' });
    expect(link.qr_options.data).toBe(`${SHORT}/${id}`);
  });
});

describe('linkConfigurations', () => {
  it('custom slug: used as the id, 409 when taken by anyone', async () => {
    const slug = `cafe-${Date.now()}`;
    const id = await createLink(me, website('custom', { linkConfigurations: { urlActive: true, customUrl: slug } }));
    expect(id).toBe(slug);
    const link = await getLink(me, slug);
    expect(link).toMatchObject({ url_active: true, custom_url: slug, full_dynamic_url: `${SHORT}/${slug}` });
    expect(link.qr_options.data).toBe(`${SHORT}/${slug}`);
    const again = await call(
      api.app,
      other.key,
      'POST',
      '/api/v1/links',
      website('dup', { linkConfigurations: { urlActive: true, customUrl: slug } }),
    );
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('Custom URL is already in use');
    expect(again.json().errors[0].path).toBe('linkConfigurations.customUrl');
  });

  it('custom slug ignored while urlActive is false', async () => {
    const id = await createLink(me, website('off', { linkConfigurations: { urlActive: false, customUrl: 'not used!' } }));
    expect(id).toMatch(/^[0-9A-Za-z]{7}$/);
    expect((await getLink(me, id)).custom_url).toBeNull();
  });

  it('folder: placed in a folder of the same account', async () => {
    const folder = (await call(api.app, me.key, 'POST', '/api/v1/folders', { name: 'f' })).json();
    const id = await createLink(me, website('in folder', { linkConfigurations: { folder_id: folder.id } }));
    expect((await getLink(me, id)).folder_id).toBe(folder.id);
  });

  it('schedule: dates read in the schedule timezone; a bare end date includes that whole day', async () => {
    const id = await createLink(
      me,
      website('sched', {
        linkConfigurations: { scheduleActive: true, startDate: '2030-01-01', endDate: '2030-01-31', scheduleTimezone: 'America/New_York' },
      }),
    );
    const link = await getLink(me, id);
    expect(link).toMatchObject({
      schedule_active: true,
      start_date: '2030-01-01T05:00:00.000Z',
      end_date: '2030-02-01T05:00:00.000Z',
      schedule_timezone: 'America/New_York',
      status: 'scheduled',
    });
  });

  it('scan limit and password: stored; the password only as a bcrypt hash', async () => {
    const id = await createLink(
      me,
      website('locked', {
        linkConfigurations: { scanLimitActive: true, scanLimit: 5, passwordProtectedActive: true, password: 's3cret-pass' },
      }),
    );
    const link = await getLink(me, id);
    expect(link).toMatchObject({ scan_limit_active: true, scan_limit: 5, password_protected_active: true });
    expect(link.password).toMatch(/^\$2[aby]\$10\$/);
    expect(await bcrypt.compare('s3cret-pass', link.password)).toBe(true);
    expect(JSON.stringify(link)).not.toContain('s3cret-pass');
    const list = (await call(api.app, me.key, 'GET', '/api/v1/links?size=1000')).body;
    expect(list).not.toContain('s3cret-pass');
  });

  it('PUT with protection on and no password keeps the stored one; with none stored it is a 400', async () => {
    const folder = (await call(api.app, me.key, 'POST', '/api/v1/folders', { name: 'Kept' })).json().id;
    const config = {
      folder_id: folder,
      urlActive: true,
      customUrl: `kept-${Date.now()}`,
      scheduleActive: true,
      startDate: '2030-01-01',
      endDate: '2030-06-30',
      scheduleTimezone: 'Europe/Lisbon',
      scanLimitActive: true,
      scanLimit: 9,
    };
    const id = await createLink(
      me,
      website('kept', { linkConfigurations: { ...config, passwordProtectedActive: true, password: 'keep-me' } }),
    );
    const before = await getLink(me, id);
    // What an editor that never saw the password sends back: the link's own settings, as answered.
    const again = {
      ...config,
      startDate: before.start_date,
      endDate: before.end_date,
      passwordProtectedActive: true,
    };
    const res = await call(api.app, me.key, 'PUT', `/api/v1/links/${id}`, website('kept, renamed', { linkConfigurations: again }));
    expect(res.statusCode).toBe(200);
    const after = await getLink(me, id);
    expect(after).toEqual({ ...before, name: 'kept, renamed', updated_at: after.updated_at, status: after.status });
    expect(await bcrypt.compare('keep-me', after.password)).toBe(true);

    const open = await createLink(me, website('open'));
    const bad = await call(
      api.app,
      me.key,
      'PUT',
      `/api/v1/links/${open}`,
      website('open', { linkConfigurations: { passwordProtectedActive: true } }),
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([{ path: 'linkConfigurations.password', message: 'Required when passwordProtectedActive is true' }]);
  });
});

describe('status values', () => {
  it('active, paused, scheduled, expired, limit_reached — in the link and as a filter', async () => {
    const acct = await createTestAccount(api.ctx);
    const active = await createLink(acct, website('active'));
    const paused = await createLink(acct, website('paused'));
    await call(api.app, acct.key, 'POST', `/api/v1/links/${paused}/pause`);
    const scheduled = await createLink(
      acct,
      website('scheduled', {
        linkConfigurations: { scheduleActive: true, startDate: '2099-01-01', endDate: '2099-12-31', scheduleTimezone: 'UTC' },
      }),
    );
    const expired = await createLink(
      acct,
      website('expired', {
        linkConfigurations: { scheduleActive: true, startDate: '2020-01-01', endDate: '2020-12-31', scheduleTimezone: 'UTC' },
      }),
    );
    const limited = await createLink(acct, website('limited', { linkConfigurations: { scanLimitActive: true, scanLimit: 3 } }));
    await setCounts(limited, { humanScanCount: 3, limitScanCount: 3, scanCount: 7 });
    const notYet = await createLink(acct, website('under limit', { linkConfigurations: { scanLimitActive: true, scanLimit: 3 } }));
    // Its visitors came back: more human scans than the limit, but only two visitors counted.
    await setCounts(notYet, { humanScanCount: 5, limitScanCount: 2, scanCount: 9 });

    const expected: Record<string, string> = {
      [active]: 'active',
      [paused]: 'paused',
      [scheduled]: 'scheduled',
      [expired]: 'expired',
      [limited]: 'limit_reached',
      [notYet]: 'active',
    };
    for (const [id, status] of Object.entries(expected)) expect((await getLink(acct, id)).status, id).toBe(status);

    const ids = async (q: string) =>
      (await call(api.app, acct.key, 'GET', `/api/v1/links?${q}`))
        .json()
        .data.map((l: { dynamic_link_id: string }) => l.dynamic_link_id)
        .sort();
    expect(await ids('status=active')).toEqual([active, notYet].sort());
    expect(await ids('status=paused')).toEqual([paused]);
    expect(await ids('status=scheduled')).toEqual([scheduled]);
    expect(await ids('status=expired')).toEqual([expired]);
    expect(await ids('status=limit_reached')).toEqual([limited]);
    expect(await ids('status=paused,expired')).toEqual([paused, expired].sort());
  });
});

describe('GET /links parameters', () => {
  let acct: TestAccount;
  let folderId: string;
  const made: Record<string, string> = {};

  beforeAll(async () => {
    acct = await createTestAccount(api.ctx);
    folderId = (await call(api.app, acct.key, 'POST', '/api/v1/folders', { name: 'Print' })).json().id;
    const specs: Array<[string, Record<string, unknown>]> = [
      ['Banana Bread', { type: 'website', data: { url: 'https://b.example' } }],
      ['apple pie', { type: 'sms', data: { phone: '+15550100' }, linkConfigurations: { folder_id: folderId } }],
      ['Cherry 100%_off', { type: 'email', data: { email: 'c@example.com' }, linkConfigurations: { folder_id: folderId } }],
      ['date loaf', { type: 'website', data: { url: 'https://d.example' } }],
      ['Elderflower', { type: 'menu', data: { name: 'E' } }],
    ];
    for (const [name, body] of specs) {
      made[name] = await createLink(acct, { name, ...body });
      await new Promise((r) => setTimeout(r, 5));
    }
    await api.ctx.db.update(links).set({ menu: 'cafe-1' }).where(eq(links.slug, made['Elderflower']!));
    await setCounts(made['date loaf']!, { scanCount: 50 });
    await setCounts(made['apple pie']!, { scanCount: 10 });
    await call(api.app, acct.key, 'POST', `/api/v1/links/${made['Banana Bread']}/favorite`);
    // Touch one so last_modified differs from creation order.
    await call(api.app, acct.key, 'PATCH', `/api/v1/links/${made['apple pie']}`, { qrCode: { dotsOptions: { type: 'dots' } } });
  });

  const names = async (q: string) =>
    (await call(api.app, acct.key, 'GET', `/api/v1/links?${q}`)).json().data.map((l: { name: string }) => l.name);

  it('defaults to page 1, size 20, newest first', async () => {
    const res = (await call(api.app, acct.key, 'GET', '/api/v1/links')).json();
    expect(res.meta).toEqual({ currentPage: 1, totalPages: 1 });
    expect(res.data.map((l: { name: string }) => l.name)).toEqual([
      'Elderflower',
      'date loaf',
      'Cherry 100%_off',
      'apple pie',
      'Banana Bread',
    ]);
  });

  it('pages with page and size', async () => {
    const p1 = (await call(api.app, acct.key, 'GET', '/api/v1/links?page=1&size=2')).json();
    const p3 = (await call(api.app, acct.key, 'GET', '/api/v1/links?page=3&size=2')).json();
    expect(p1.meta).toEqual({ currentPage: 1, totalPages: 3 });
    expect(p1.data.map((l: { name: string }) => l.name)).toEqual(['Elderflower', 'date loaf']);
    expect(p3.data.map((l: { name: string }) => l.name)).toEqual(['Banana Bread']);
    const past = (await call(api.app, acct.key, 'GET', '/api/v1/links?page=9&size=2')).json();
    expect(past).toEqual({ data: [], meta: { currentPage: 9, totalPages: 3 } });
    expect((await call(api.app, acct.key, 'GET', '/api/v1/links?size=1000')).statusCode).toBe(200);
  });

  it('search is a case-insensitive substring match on name, with % and _ taken literally', async () => {
    expect(await names('search=BREAD')).toEqual(['Banana Bread']);
    expect(await names('search=A')).toEqual(['date loaf', 'apple pie', 'Banana Bread']);
    expect(await names('search=100%25_')).toEqual(['Cherry 100%_off']);
    expect(await names('search=%25')).toEqual(['Cherry 100%_off']);
    expect(await names('search=zzz')).toEqual([]);
    // search is the name only, as the contract says: a slug or a destination is not a name.
    expect(await names(`search=${made['date loaf']}`)).toEqual([]);
    expect(await names('search=d.example')).toEqual([]);
  });

  it('q (an addition) also finds a link by its slug or its destination, ignoring case', async () => {
    expect(await names(`q=${made['date loaf']!.toLowerCase()}`)).toContain('date loaf');
    expect(await names('q=D.EXAMPLE')).toEqual(['date loaf']);
    expect(await names('q=bread')).toEqual(['Banana Bread']);
    expect(await names('q=https%3A%2F%2Fb.')).toEqual(['Banana Bread']);
    expect(await names('q=100%25_')).toEqual(['Cherry 100%_off']);
    expect(await names('q=zzz')).toEqual([]);
  });

  it('folder, qr_type (comma list), only_favorites and menu filter', async () => {
    expect(await names(`folder=${folderId}`)).toEqual(['Cherry 100%_off', 'apple pie']);
    expect(await names('folder=00000000-0000-4000-8000-000000000000')).toEqual([]);
    expect(await names('qr_type=website')).toEqual(['date loaf', 'Banana Bread']);
    expect(await names('qr_type=sms,email')).toEqual(['Cherry 100%_off', 'apple pie']);
    expect(await names('only_favorites=true')).toEqual(['Banana Bread']);
    expect(await names('only_favorites=false')).toHaveLength(5);
    expect(await names('menu=cafe-1')).toEqual(['Elderflower']);
    expect(await names(`qr_type=website&search=date`)).toEqual(['date loaf']);
  });

  it('sort_by most_recent, name, last_modified, most_visited', async () => {
    expect(await names('sort_by=most_recent')).toEqual(['Elderflower', 'date loaf', 'Cherry 100%_off', 'apple pie', 'Banana Bread']);
    expect(await names('sort_by=name')).toEqual(['apple pie', 'Banana Bread', 'Cherry 100%_off', 'date loaf', 'Elderflower']);
    expect((await names('sort_by=last_modified'))[0]).toBe('apple pie');
    expect((await names('sort_by=most_visited')).slice(0, 2)).toEqual(['date loaf', 'apple pie']);
  });

  it('GET /minimal-links: {name, dynamic_link_id} with the same filters and meta', async () => {
    const res = (await call(api.app, acct.key, 'GET', '/api/v1/minimal-links?qr_type=website&size=1')).json();
    expect(res).toEqual({ data: [{ name: 'date loaf', dynamic_link_id: made['date loaf'] }], meta: { currentPage: 1, totalPages: 2 } });
    const bad = await call(api.app, acct.key, 'GET', '/api/v1/minimal-links?menu=cafe-1');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].path).toBe('menu');
  });

  it.each([
    ['page=0', 'page'],
    ['page=abc', 'page'],
    ['size=1001', 'size'],
    ['size=0', 'size'],
    ['size=2.5', 'size'],
    ['qr_type=website,teleport', 'qr_type[1]'],
    ['status=archived', 'status[0]'],
    ['sort_by=oldest', 'sort_by'],
    ['only_favorites=maybe', 'only_favorites'],
    ['colour=red', 'colour'],
  ])('bad parameter %s → 400 naming %s', async (q, path) => {
    const res = await call(api.app, acct.key, 'GET', `/api/v1/links?${q}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.map((e: { path: string }) => e.path)).toContain(path);
  });
});

describe('updates and actions', () => {
  it('PUT replaces the link and answers it in full; changing type and slug keeps the QR data in step', async () => {
    const id = await createLink(me, website('before'));
    const slug = `moved-${Date.now()}`;
    const res = await call(api.app, me.key, 'PUT', `/api/v1/links/${id}`, {
      name: 'after',
      type: 'sms',
      data: { phone: '+15550111' },
      linkConfigurations: { urlActive: true, customUrl: slug },
    });
    expect(res.statusCode, res.body).toBe(200);
    const link = res.json().data;
    expect(link).toMatchObject({
      name: 'after',
      type: 'sms',
      meta_data: { phone: '+15550111' },
      dynamic_link_id: slug,
      full_dynamic_url: `${SHORT}/${slug}`,
    });
    expect(link.qr_options.data).toBe(`${SHORT}/${slug}`);
    expect((await call(api.app, me.key, 'GET', `/api/v1/links/${id}`)).statusCode).toBe(404);
    expect((await getLink(me, slug)).name).toBe('after');
  });

  it('PUT keeps the styling and the slug when the custom URL is turned off', async () => {
    const slug = `keep-${Date.now()}`;
    await createLink(
      me,
      website('k', { linkConfigurations: { urlActive: true, customUrl: slug }, qrOptions: { dotsOptions: { type: 'square' } } }),
    );
    const res = await call(api.app, me.key, 'PUT', `/api/v1/links/${slug}`, website('k2'));
    expect(res.json().data).toMatchObject({ dynamic_link_id: slug, url_active: false, custom_url: null });
    expect(res.json().data.qr_options.dotsOptions.type).toBe('square');
  });

  it('PUT to a custom slug in use → 409 and nothing changes', async () => {
    const taken = `taken-${Date.now()}`;
    await createLink(me, website('t', { linkConfigurations: { urlActive: true, customUrl: taken } }));
    const id = await createLink(me, website('mine'));
    const res = await call(
      api.app,
      me.key,
      'PUT',
      `/api/v1/links/${id}`,
      website('renamed', { linkConfigurations: { urlActive: true, customUrl: taken } }),
    );
    expect(res.statusCode).toBe(409);
    expect((await getLink(me, id)).name).toBe('mine');
  });

  it('PUT with new data releases files it no longer names', async () => {
    const f = await freshFiles();
    const id = await createLink(me, { name: 'g', type: 'gallery', data: { files: [{ fileId: f.images[0] }, { fileId: f.images[1] }] } });
    await call(api.app, me.key, 'PUT', `/api/v1/links/${id}`, { name: 'g', type: 'gallery', data: { files: [{ fileId: f.images[1] }] } });
    const link = await getLink(me, id);
    expect(link.files.map((x: { fileId: string }) => x.fileId)).toEqual([f.images[1]]);
    const [released] = await api.ctx.db.select().from(files).where(eq(files.id, f.images[0]!));
    expect(released).toMatchObject({ linkId: null, attachedAt: null });
  });

  it('PATCH sets qr_options and answers {data: {dynamic_link_id, qr_options}}', async () => {
    const id = await createLink(me, website('p'));
    const res = await call(api.app, me.key, 'PATCH', `/api/v1/links/${id}`, {
      qrCode: { width: 600, cornersSquareOptions: { type: 'dot', color: 'red' } },
    });
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(Object.keys(data).sort()).toEqual(['dynamic_link_id', 'qr_options']);
    expect(data.qr_options).toMatchObject({ width: 600, cornersSquareOptions: { type: 'dot', color: 'red' }, data: `${SHORT}/${id}` });
    const bad = await call(api.app, me.key, 'PATCH', `/api/v1/links/${id}`, { qrCode: { dotsOptions: { type: 'hexagon' } } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].path).toBe('qrCode.dotsOptions.type');
    expect((await call(api.app, me.key, 'PATCH', `/api/v1/links/${id}`, {})).json().errors[0].path).toBe('qrCode');
  });

  it('pause and resume answer their messages and flip the status', async () => {
    const id = await createLink(me, website('pr'));
    expect((await call(api.app, me.key, 'POST', `/api/v1/links/${id}/pause`)).json()).toEqual({ message: 'Link paused' });
    expect((await getLink(me, id)).status).toBe('paused');
    expect((await call(api.app, me.key, 'POST', `/api/v1/links/${id}/resume`)).json()).toEqual({ message: 'Link resumed' });
    expect((await getLink(me, id)).status).toBe('active');
  });

  it('favorite and unfavorite answer Success', async () => {
    const id = await createLink(me, website('fav'));
    expect((await call(api.app, me.key, 'POST', `/api/v1/links/${id}/favorite`)).json()).toEqual({ message: 'Success' });
    expect((await getLink(me, id)).favorite).toBe(true);
    expect((await call(api.app, me.key, 'DELETE', `/api/v1/links/${id}/favorite`)).json()).toEqual({ message: 'Success' });
    expect((await getLink(me, id)).favorite).toBe(false);
  });

  it('moving a link into a folder and out of it changes only its folder', async () => {
    const folder = (await call(api.app, me.key, 'POST', '/api/v1/folders', { name: 'Posters' })).json().id;
    const id = await createLink(
      me,
      website('mover', { linkConfigurations: { scanLimitActive: true, scanLimit: 5, passwordProtectedActive: true, password: 'secret' } }),
    );
    const before = await getLink(me, id);
    const move = await call(api.app, me.key, 'PUT', `/api/v1/links/${id}/folder`, { folder_id: folder });
    expect(move.json()).toEqual({ message: 'Link moved' });
    const moved = await getLink(me, id);
    expect(moved).toEqual({ ...before, folder_id: folder, updated_at: moved.updated_at });
    expect(
      (await call(api.app, me.key, 'GET', `/api/v1/links?folder=${folder}`))
        .json()
        .data.map((l: { dynamic_link_id: string }) => l.dynamic_link_id),
    ).toEqual([id]);
    expect((await call(api.app, me.key, 'PUT', `/api/v1/links/${id}/folder`, { folder_id: null })).statusCode).toBe(200);
    expect((await getLink(me, id)).folder_id).toBeNull();
    // Unknown, malformed and another account's folders are the same 400 at the field.
    const theirFolder = (await call(api.app, other.key, 'POST', '/api/v1/folders', { name: 'theirs' })).json().id;
    for (const folderId of [theirFolder, 'not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      const bad = await call(api.app, me.key, 'PUT', `/api/v1/links/${id}/folder`, { folder_id: folderId });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errors).toEqual([{ path: 'folder_id', message: 'Folder not found' }]);
    }
    expect((await call(api.app, me.key, 'PUT', `/api/v1/links/${id}/folder`, {})).statusCode).toBe(400);
  });

  it('duplicate: a new slug, the optional name, copied files; the original untouched', async () => {
    const f = await freshFiles();
    const id = await createLink(me, {
      name: 'orig',
      type: 'pdf',
      data: { files: [{ fileId: f.pdfs[0] }] },
      linkConfigurations: { scanLimitActive: true, scanLimit: 9 },
    });
    const res = await call(api.app, me.key, 'POST', `/api/v1/links/${id}/duplicate`, { name: 'copy of orig' });
    expect(res.json()).toEqual({ message: 'Link duplicated' });
    const list = (await call(api.app, me.key, 'GET', `/api/v1/links?search=${encodeURIComponent('copy of orig')}`)).json().data;
    expect(list).toHaveLength(1);
    const copy = list[0];
    expect(copy.dynamic_link_id).not.toBe(id);
    expect(copy).toMatchObject({ type: 'pdf', scan_limit: 9, scan_limit_active: true });
    expect(copy.qr_options.data).toBe(`${SHORT}/${copy.dynamic_link_id}`);
    const copiedId = copy.meta_data.files[0].fileId;
    expect(copiedId).not.toBe(f.pdfs[0]);
    expect(copy.files.map((x: { fileId: string }) => x.fileId)).toEqual([copiedId]);
    const original = await getLink(me, id);
    expect(original.meta_data.files[0].fileId).toBe(f.pdfs[0]);
    // The copy's file shares the original's stored bytes: nothing was copied.
    const [copiedRow] = await api.ctx.db.select().from(files).where(eq(files.id, copiedId));
    const [originalRow] = await api.ctx.db.select().from(files).where(eq(files.id, f.pdfs[0]!));
    expect(copiedRow!.blobId).toBe(originalRow!.blobId);
    const object = await api.ctx.storage.get(await storageKeyOf(me, copiedId));
    expect(object).not.toBeNull();
    object!.body.resume();
    // Without a name, "(copy)" is appended.
    const plain = await call(api.app, me.key, 'POST', `/api/v1/links/${id}/duplicate`);
    expect(plain.statusCode, plain.body).toBe(200);
    expect((await call(api.app, me.key, 'GET', `/api/v1/links?search=${encodeURIComponent('orig (copy)')}`)).json().data).toHaveLength(1);
  });

  it('save-template stores the styling without the data, answering Template Saved', async () => {
    const id = await createLink(me, website('tpl', { qrOptions: { dotsOptions: { type: 'rounded', color: '#ff0000' } } }));
    const res = await call(api.app, me.key, 'POST', `/api/v1/links/${id}/save-template`, { name: 'Red rounded' });
    expect(res.json()).toEqual({ message: 'Template Saved' });
    const [tpl] = await api.ctx.db.select().from(templates).where(eq(templates.name, 'Red rounded'));
    expect(tpl!.accountId).toBe(me.accountId);
    expect(tpl!.qrOptions).toMatchObject({ dotsOptions: { type: 'rounded', color: '#ff0000' } });
    expect(tpl!.qrOptions).not.toHaveProperty('data');
  });

  it.each(['DELETE', 'archive'])('%s removes the link, its files (objects and rows) and its scans: "Link archived"', async (how) => {
    const f = await freshFiles();
    const id = await createLink(me, { name: 'del', type: 'gallery', data: { files: [{ fileId: f.images[0] }, { fileId: f.images[1] }] } });
    const row = (await api.ctx.db.select().from(links).where(eq(links.slug, id)))[0]!;
    const fileKeys = await Promise.all(f.images.map((id) => storageKeyOf(me, id)));
    await api.ctx.db.insert(scans).values([
      { id: crypto.randomUUID(), linkId: row.id, accountId: me.accountId, createdAt: new Date() },
      { id: crypto.randomUUID(), linkId: row.id, accountId: me.accountId, createdAt: new Date() },
    ]);
    const res =
      how === 'DELETE'
        ? await call(api.app, me.key, 'DELETE', `/api/v1/links/${id}`)
        : await call(api.app, me.key, 'POST', `/api/v1/links/${id}/archive`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Link archived' });
    expect((await call(api.app, me.key, 'GET', `/api/v1/links/${id}`)).statusCode).toBe(404);
    expect(await api.ctx.db.select().from(scans).where(eq(scans.linkId, row.id))).toEqual([]);
    expect(await api.ctx.db.select().from(files).where(inArray(files.id, f.images))).toEqual([]);
    for (const key of fileKeys) expect(await api.ctx.storage.stat(key)).toBeNull();
  });
});

describe('isolation: another account’s link is a 404 everywhere, and stays unchanged', () => {
  it('every links endpoint', async () => {
    const theirs = await createLink(other, website('theirs'));
    const before = await getLink(other, theirs);
    const body = website('hijack');
    const attempts: Array<[string, string, unknown?]> = [
      ['GET', `/api/v1/links/${theirs}`],
      ['PUT', `/api/v1/links/${theirs}`, body],
      ['PATCH', `/api/v1/links/${theirs}`, { qrCode: { width: 400 } }],
      ['DELETE', `/api/v1/links/${theirs}`],
      ['POST', `/api/v1/links/${theirs}/archive`],
      ['POST', `/api/v1/links/${theirs}/pause`],
      ['POST', `/api/v1/links/${theirs}/resume`],
      ['POST', `/api/v1/links/${theirs}/favorite`],
      ['DELETE', `/api/v1/links/${theirs}/favorite`],
      ['POST', `/api/v1/links/${theirs}/duplicate`, {}],
      ['PUT', `/api/v1/links/${theirs}/folder`, { folder_id: null }],
      ['POST', `/api/v1/links/${theirs}/save-template`, {}],
    ];
    for (const [method, url, payload] of attempts) {
      const res = await call(api.app, me.key, method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toEqual({ code: 'link_not_found', message: 'Link not found' });
    }
    expect(await getLink(other, theirs)).toEqual(before);
    const mine = (await call(api.app, me.key, 'GET', '/api/v1/links?size=1000')).json().data;
    expect(mine.some((l: { dynamic_link_id: string }) => l.dynamic_link_id === theirs)).toBe(false);
    const minimal = (await call(api.app, me.key, 'GET', '/api/v1/minimal-links?size=1000')).json().data;
    expect(minimal.some((l: { dynamic_link_id: string }) => l.dynamic_link_id === theirs)).toBe(false);
  });

  it("another account's folder or files cannot be used", async () => {
    const theirFolder = (await call(api.app, other.key, 'POST', '/api/v1/folders', { name: 'x' })).json().id;
    const res = await call(api.app, me.key, 'POST', '/api/v1/links', website('w', { linkConfigurations: { folder_id: theirFolder } }));
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ path: 'linkConfigurations.folder_id', message: 'Folder not found' }]);
    const theirFiles = await freshFiles(other);
    const img = await call(api.app, me.key, 'POST', '/api/v1/links', {
      name: 'i',
      type: 'image',
      data: { files: [{ fileId: theirFiles.images[0] }] },
    });
    expect(img.statusCode).toBe(400);
    expect(img.json().errors).toEqual([{ path: 'data.files[0].fileId', message: 'File not found' }]);
  });
});

describe('scopes per endpoint', () => {
  const matrix: Array<[string, string, string, (id: string) => unknown]> = [
    ['links.read', 'GET', '/api/v1/links', () => undefined],
    ['links.read', 'GET', '/api/v1/minimal-links', () => undefined],
    ['links.read', 'GET', '/api/v1/links/:id', () => undefined],
    ['links.create', 'POST', '/api/v1/links', () => website('s')],
    ['links.update', 'PUT', '/api/v1/links/:id', () => website('s2')],
    ['links.update', 'PATCH', '/api/v1/links/:id', () => ({ qrCode: { width: 320 } })],
    ['links.update', 'POST', '/api/v1/links/:id/favorite', () => undefined],
    ['links.update', 'DELETE', '/api/v1/links/:id/favorite', () => undefined],
    ['links.pause', 'POST', '/api/v1/links/:id/pause', () => undefined],
    ['links.resume', 'POST', '/api/v1/links/:id/resume', () => undefined],
    ['links.create', 'POST', '/api/v1/links/:id/duplicate', () => ({})],
    ['templates.create', 'POST', '/api/v1/links/:id/save-template', () => ({})],
    ['links.delete', 'DELETE', '/api/v1/links/:id', () => undefined],
    ['links.delete', 'POST', '/api/v1/links/:id/archive', () => undefined],
  ];
  it.each(matrix)('%s for %s %s', async (scope, method, path, body) => {
    const id = await createLink(me, website('scoped'));
    const url = path.replace(':id', id);
    const { SCOPES } = await import('#domain/accounts/scopes.js');
    const without = await addKey(
      api.ctx,
      me.accountId,
      SCOPES.filter((s) => s !== scope && s !== 'all'),
    );
    const denied = await call(api.app, without.key, method, url, body(id));
    expect(denied.statusCode).toBe(403);
    const only = await addKey(api.ctx, me.accountId, [scope as 'links.read']);
    const allowed = await call(api.app, only.key, method, url, body(id));
    expect(allowed.statusCode, allowed.body).toBe(200);
  });
});
