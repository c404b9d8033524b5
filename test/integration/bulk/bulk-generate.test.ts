/**
 * POST /bulk-generate through the real api, queue, bulk-generate worker and storage: each type with
 * 1 and 1200 records (stored data as POST /links stores it), every validation path (all-or-nothing,
 * every bad record named), dryRun, folder and template, Idempotency-Key (same key → same batch,
 * another body → 409, concurrent duplicates → one batch), the "answer now or 202" contract, the
 * ZIP (entries, manifest.csv, codes that decode to their short URLs) and the CSV form.
 */
import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, MAX_OBJECT_MEMBERS } from '#api/plugins/app/validation.js';
import { CSV_MAX_CELL_BYTES, CSV_MAX_CELLS, CSV_MAX_HEADER_BYTES } from '#domain/bulk/csv.js';
import { BULK_MAX_RECORDS } from '#domain/bulk/schemas.js';
import { MAX_LISTED_ERRORS } from '#domain/errors.js';
import { startWorkers, type RunningWorkers } from '#workers/index.js';
import { multipart } from '../../support/fixtures.js';
import { call, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';
import { unzip } from '../../support/images.js';
import { decodesAll, makeLogoPng } from '../../support/qr-reference.js';
import { pollUntil } from '../../support/until.js';

let api: TestApi;
let workers: RunningWorkers;
let me: TestAccount;

beforeAll(async () => {
  api = await startTestApi();
  workers = await startWorkers(api.ctx);
  me = await createTestAccount(api.ctx);
});
afterAll(async () => {
  await workers?.close();
  await api?.close();
});

const URL_BASE = '/api/v1/bulk-generate';

function bulk(body: unknown, headers: Record<string, string> = {}, account = me, query = '') {
  return call(api.app, account.key, 'POST', `${URL_BASE}${query}`, body, headers);
}

async function jobOf(jobId: string, account = me) {
  return (await call(api.app, account.key, 'GET', `/api/v1/jobs/${jobId}`)).json();
}

function finished(jobId: string, account = me) {
  return pollUntil(
    () => jobOf(jobId, account),
    (j) => j.state === 'completed' || j.state === 'failed',
    120_000,
    100,
  );
}

async function linkCount(accountId: string): Promise<number> {
  const { rows } = await api.ctx.database.pool.query<{ n: string }>('select count(*) as n from links where account_id = $1', [accountId]);
  return Number(rows[0]!.n);
}

async function storedLinks(jobId: string) {
  const { rows } = await api.ctx.database.pool.query<{
    id: string;
    slug: string;
    name: string;
    type: string;
    meta_data: Record<string, unknown>;
    folder_id: string | null;
    qr_options: Record<string, unknown>;
    source_index: number;
  }>(
    'select id, slug, name, type, meta_data, folder_id, qr_options, source_index from links where source_job_id = $1 order by source_index',
    [jobId],
  );
  return rows;
}

const RECORDS = {
  website: (i: number) => ({ name: `Table ${i}`, url: `https://example.com/menu?table=${i}` }),
  product: (i: number) => ({ name: `Shelf ${i}`, productName: `Tea ${i}` }),
  sms: (i: number) => ({ name: `Text ${i}`, phone: `+1 555 01${String(i % 100).padStart(2, '0')}`, message: 'Hello' }),
  vcard: (i: number) => ({
    name: `Card ${i}`,
    firstName: 'Ada',
    lastName: `Lovelace ${i}`,
    contact: '+44 20 7946 0000',
    email: `ada${i}@example.com`,
    company: 'Engines',
  }),
} as const;
type Kind = keyof typeof RECORDS;

describe('each type', () => {
  for (const type of Object.keys(RECORDS) as Kind[]) {
    for (const size of [1, BULK_MAX_RECORDS]) {
      it(`${type} × ${size}: the links in request order, stored as POST /links stores ${type} data`, { timeout: 180_000 }, async () => {
        const data = Array.from({ length: size }, (_, i) => RECORDS[type](i));
        const started = Date.now();
        const res = await bulk({ type, data });
        expect(res.statusCode, res.body.slice(0, 500)).toBe(200);
        const body = res.json();
        if (size === BULK_MAX_RECORDS) console.log(`bulk ${type} × ${size}: answered in ${Date.now() - started} ms`);
        expect(body.count).toBe(size);
        expect(body.links).toHaveLength(size);
        const stored = await storedLinks(body.jobId);
        expect(stored.map((l) => ({ id: l.id, dynamicLinkId: l.slug }))).toEqual(body.links);
        expect(new Set(stored.map((l) => l.slug.toLowerCase())).size).toBe(size);
        const first = stored[0]!;
        expect(first.name).toBe(data[0]!.name);
        expect(first.type).toBe(type);
        expect(first.qr_options.data).toBe(`${api.ctx.config.SHORT_URL_BASE}/${first.slug}`);
        // The same data a single link stores: GET /links/:id shows it as meta_data.
        const single = await call(api.app, me.key, 'GET', `/api/v1/links/${first.slug}`);
        const { name: _n, ...fields } = data[0]! as Record<string, unknown>;
        const expected = type === 'website' ? { url: fields.url as string } : type === 'product' ? { ...fields, currency: 'USD' } : fields;
        expect(single.json().data.meta_data).toEqual(expected);
        const done = await finished(body.jobId);
        expect(done).toMatchObject({ state: 'completed', progress: 100 });
        expect(done.result).toMatchObject({ jobId: body.jobId, count: size, links: body.links });
        expect(done.result.qrZipUrl).toMatch(new RegExp(`/jobs/${body.jobId}/download$`));
      });
    }
  }
});

describe('the ZIP', () => {
  it(
    'holds each link’s PNG and SVG named from its record, and a manifest; the codes decode to the short URLs',
    { timeout: 180_000 },
    async () => {
      const data = Array.from({ length: BULK_MAX_RECORDS }, (_, i) => ({
        name: i === 0 ? 'Café / Table "1", =SUM(A1)' : i === 1 ? '***' : `Table ${i}`,
        url: `https://example.com/${i}`,
      }));
      const res = await bulk({ type: 'website', data });
      expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
      const { jobId, links } = res.json();
      const started = Date.now();
      const done = await finished(jobId);
      console.log(`bulk ZIP of ${BULK_MAX_RECORDS} links ready ${Date.now() - started} ms after the answer`);
      expect(done.state).toBe('completed');
      const download = await api.app.inject({
        method: 'GET',
        url: `/api/v1/jobs/${jobId}/download`,
        headers: { authorization: `Basic ${me.key}` },
      });
      expect(download.statusCode).toBe(200);
      expect(download.headers['content-type']).toBe('application/zip');
      const entries = await unzip(download.rawPayload);
      expect(entries.size).toBe(2 * BULK_MAX_RECORDS + 1);
      const slug0 = links[0].dynamicLinkId;
      expect(entries.has(`Café_Table_1_SUM_A1-${slug0}.png`)).toBe(true);
      expect(entries.has(`Café_Table_1_SUM_A1-${slug0}.svg`)).toBe(true);
      expect(entries.has(`link-${links[1].dynamicLinkId}.png`)).toBe(true);
      const manifest = parse(entries.get('manifest.csv')!);
      expect(manifest[0]).toEqual(['index', 'name', 'slug', 'short_url', 'png', 'svg']);
      expect(manifest).toHaveLength(BULK_MAX_RECORDS + 1);
      const base = api.ctx.config.SHORT_URL_BASE;
      expect(manifest[1]).toEqual([
        '0',
        'Café / Table "1", =SUM(A1)',
        slug0,
        `${base}/${slug0}`,
        `Café_Table_1_SUM_A1-${slug0}.png`,
        `Café_Table_1_SUM_A1-${slug0}.svg`,
      ]);
      for (const [i, row] of manifest.slice(1).entries()) {
        expect(row[0]).toBe(String(i));
        expect(row[2]).toBe(links[i].dynamicLinkId);
        expect(entries.has(row[4]!) && entries.has(row[5]!)).toBe(true);
      }
      // A sample of the codes, spread over the batch, decodes to each link's short URL with the source marker.
      for (const i of [0, 1, 2, 299, 600, 901, BULK_MAX_RECORDS - 1]) {
        const row = manifest[i + 1]!;
        expect(await decodesAll([entries.get(row[4]!)!], `${row[3]!}?q`), `code ${i}`).toEqual([true]);
      }
    },
  );

  it('a manifest cell a spreadsheet would run is neutralised', async () => {
    const res = await bulk({ type: 'website', data: [{ name: '=HYPERLINK("http://x")', url: 'https://example.com/' }] });
    const done = await finished(res.json().jobId);
    const download = await api.app.inject({
      method: 'GET',
      url: `/api/v1/jobs/${done.id}/download`,
      headers: { authorization: `Basic ${me.key}` },
    });
    const manifest = parse((await unzip(download.rawPayload)).get('manifest.csv')!);
    expect(manifest[1]![1]).toBe(`'=HYPERLINK("http://x")`);
  });
});

describe('validation: all or nothing, every bad record named', () => {
  it('answers 400 listing every bad field of every record, and creates nothing', async () => {
    const before = await linkCount(me.accountId);
    const data: unknown[] = Array.from({ length: 40 }, (_, i) => RECORDS.website(i));
    data[3] = { name: 'x', url: 'javascript:alert(1)' };
    data[17] = { name: 'y', url: 'not a url' };
    data[20] = { url: 'https://example.com/' };
    data[25] = { name: 'z', url: 'https://example.com/', extra: 1 };
    data[30] = 'a string';
    const res = await bulk({ type: 'website', data });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'validation_failed',
      message: 'Validation failed',
      errors: [
        { path: 'data[3].url', message: 'Must be a valid URL' },
        { path: 'data[17].url', message: 'Must be a valid URL' },
        { path: 'data[20].name', message: 'Required' },
        { path: 'data[25].extra', message: 'Unknown field' },
        { path: 'data[30]', message: 'Must be an object' },
      ],
    });
    expect(await linkCount(me.accountId)).toBe(before);
  });

  it('per type: the bulk table’s required fields and formats', async () => {
    const cases: Array<[Kind, Record<string, unknown>, Array<{ path: string; message: string }>]> = [
      ['product', { name: 'p' }, [{ path: 'data[0].productName', message: 'Required' }]],
      [
        'product',
        { name: 'p', productName: 'Tea', currency: 'XXZ', subTotal: '3' },
        [
          { path: 'data[0].currency', message: 'Must be a currency code (ISO 4217, e.g. USD)' },
          { path: 'data[0].subTotal', message: 'Must be a number' },
        ],
      ],
      ['product', { name: 'p', productName: 'Tea', tax: -1 }, [{ path: 'data[0].tax', message: 'Must be >= 0' }]],
      ['sms', { name: 's' }, [{ path: 'data[0].phone', message: 'Required' }]],
      ['sms', { name: 's', phone: 'call me' }, [{ path: 'data[0].phone', message: 'Must be a valid phone number' }]],
      ['vcard', { name: 'v', firstName: 'A', lastName: 'B', email: 'a@example.com' }, [{ path: 'data[0].contact', message: 'Required' }]],
      [
        'vcard',
        { name: 'v', firstName: 'A', lastName: 'B', contact: '1', email: 'nope' },
        [{ path: 'data[0].email', message: 'Must be a valid email' }],
      ],
      ['website', { name: ' ', url: 'https://example.com/' }, [{ path: 'data[0].name', message: 'Name is required' }]],
    ];
    for (const [type, record, errors] of cases) {
      const res = await bulk({ type, data: [record] });
      expect(res.statusCode, JSON.stringify(record)).toBe(400);
      expect(res.json().errors, JSON.stringify(record)).toEqual(errors);
    }
  });

  it('0 and 1201 records, a missing or unknown type, data not a list', async () => {
    const many = Array.from({ length: BULK_MAX_RECORDS + 1 }, (_, i) => RECORDS.website(i));
    for (const [body, errors] of [
      [{ type: 'website', data: [] }, [{ path: 'data', message: 'Must have 1 to 1200 records' }]],
      [{ type: 'website', data: many }, [{ path: 'data', message: 'Must have 1 to 1200 records' }]],
      [{ data: [RECORDS.website(0)] }, [{ path: 'type', message: 'Required' }]],
      [{ type: 'wifi', data: [RECORDS.website(0)] }, [{ path: 'type', message: 'Must be one of: website, product, sms, vcard' }]],
      [{ type: 'website', data: 'x' }, [{ path: 'data', message: 'Must be an array of records' }]],
      [{ type: 'website', data: [RECORDS.website(0)], color: 1 }, [{ path: 'color', message: 'Unknown field' }]],
    ] as const) {
      const res = await bulk(body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 100)).toBe(400);
      expect(res.json().errors).toEqual(errors);
    }
  });

  it('a foreign or unknown folderId, an unknown templateId, options and a template together: 400 naming them', async () => {
    const other = await createTestAccount(api.ctx);
    const foreign = await call(api.app, other.key, 'POST', '/api/v1/folders', { name: 'theirs' });
    const before = await linkCount(me.accountId);
    for (const [extra, errors] of [
      [{ folderId: foreign.json().id }, [{ path: 'folderId', message: 'Folder not found' }]],
      [{ folderId: randomUUID() }, [{ path: 'folderId', message: 'Folder not found' }]],
      [{ folderId: 'nope' }, [{ path: 'folderId', message: 'Folder not found' }]],
      [{ templateId: randomUUID() }, [{ path: 'templateId', message: 'Template not found' }]],
      [{ templateId: randomUUID(), qrOptions: {} }, [{ path: 'templateId', message: 'Give either qrOptions or templateId, not both' }]],
      [{ qrOptions: { qrOptions: { mode: 'Numeric' } } }, [{ path: 'qrOptions.qrOptions.mode', message: expect.any(String) }]],
    ] as const) {
      const res = await bulk({ type: 'website', data: [RECORDS.website(0)], ...extra });
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      expect(res.json().errors, JSON.stringify(extra)).toEqual(errors);
    }
    expect(await linkCount(me.accountId)).toBe(before);
  });

  it('?dryRun=true answers the same check as a report and creates nothing', async () => {
    const before = await linkCount(me.accountId);
    const good = await bulk({ type: 'website', data: [RECORDS.website(0), RECORDS.website(1)] }, {}, me, '?dryRun=true');
    expect(good.statusCode).toBe(200);
    expect(good.json()).toEqual({ dryRun: true, valid: true, count: 2, errors: [] });
    const bad = await bulk(
      { type: 'website', data: [RECORDS.website(0), { name: 'b', url: 'ftp://x' }], folderId: randomUUID() },
      {},
      me,
      '?dryRun=true',
    );
    expect(bad.statusCode).toBe(200);
    expect(bad.json()).toEqual({ dryRun: true, valid: false, count: 2, errors: [{ path: 'data[1].url', message: 'Must be a valid URL' }] });
    expect(await linkCount(me.accountId)).toBe(before);
  });

  it('an answer lists at most 100 errors and counts the rest, whatever the body holds', async () => {
    // Every record missing its url: 1200 errors.
    const missing = Array.from({ length: BULK_MAX_RECORDS }, (_, i) => ({ name: `r${i}` }));
    const res = await bulk({ type: 'website', data: missing });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toHaveLength(MAX_LISTED_ERRORS);
    expect(res.json().errors[0]).toEqual({ path: 'data[0].url', message: 'Required' });
    expect(res.json().omittedErrors).toBe(BULK_MAX_RECORDS - MAX_LISTED_ERRORS);
    const report = await bulk({ type: 'website', data: missing }, {}, me, '?dryRun=true');
    expect(report.json()).toMatchObject({
      dryRun: true,
      valid: false,
      count: BULK_MAX_RECORDS,
      omittedErrors: BULK_MAX_RECORDS - MAX_LISTED_ERRORS,
    });
    expect(report.json().errors).toHaveLength(MAX_LISTED_ERRORS);
    // Unknown members of many records: 20 × 900.
    const record: Record<string, unknown> = { name: 'a', url: 'https://example.com/' };
    for (let i = 0; i < 900; i++) record[`k${i}`] = 0;
    const keys = await bulk({ type: 'website', data: Array.from({ length: 20 }, () => record) });
    expect(keys.statusCode).toBe(400);
    expect(keys.json().errors).toHaveLength(MAX_LISTED_ERRORS);
    expect(keys.json().errors[0]).toEqual({ path: 'data[0].k0', message: 'Unknown field' });
    expect(keys.json().omittedErrors).toBe(20 * 900 - MAX_LISTED_ERRORS);
    expect(keys.body.length).toBeLessThan(8 * 1024);
  });

  it('an object of more than 1000 members is refused before the body is parsed', async () => {
    const record: Record<string, unknown> = { name: 'a', url: 'https://example.com/' };
    for (let i = 0; i < 300_000; i++) record[`k${i}`] = 0;
    const res = await bulk({ type: 'website', data: [record] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'validation_failed',
      message: 'Validation failed',
      errors: [{ path: '(body)', message: `An object has more than ${MAX_OBJECT_MEMBERS} members` }],
    });
    // Colons and braces inside strings are text.
    const text = await bulk({ type: 'website', data: [{ name: '{:'.repeat(3000), url: 'https://example.com/' }] }, {}, me, '?dryRun=true');
    expect(text.json().errors).toEqual([{ path: 'data[0].name', message: 'Must be at most 255 characters' }]);
  });

  it('a body nested more than 64 levels deep is refused before it is parsed', async () => {
    const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
    const payload = (levels: number) => `{"type":"website","data":[{"name":"a","url":"https://example.com/","x":${deep(levels)}}]}`;
    const res = await api.app.inject({
      method: 'POST',
      url: `${URL_BASE}?dryRun=true`,
      headers: { authorization: `Basic ${me.key}`, 'content-type': 'application/json' },
      // Half a million levels: every walker after the parser would go that deep.
      payload: payload(500_000),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'validation_failed',
      message: 'Validation failed',
      errors: [{ path: '(body)', message: `Nested more than ${MAX_JSON_DEPTH} levels deep` }],
    });
    // At the limit (the body's object, data, the record and x count as four levels) the body is read.
    const atLimit = await api.app.inject({
      method: 'POST',
      url: `${URL_BASE}?dryRun=true`,
      headers: { authorization: `Basic ${me.key}`, 'content-type': 'application/json' },
      payload: payload(MAX_JSON_DEPTH - 3),
    });
    expect(atLimit.json().errors).toEqual([{ path: 'data[0].x', message: 'Unknown field' }]);
    // Brackets inside strings are text.
    const text = await bulk({ type: 'website', data: [{ name: '['.repeat(300), url: 'https://example.com/' }] }, {}, me, '?dryRun=true');
    expect(text.json().errors).toEqual([{ path: 'data[0].name', message: 'Must be at most 255 characters' }]);
  });

  it('needs the bulk.create scope', async () => {
    const { key } = await createTestAccount(api.ctx, { scopes: ['links.create'] });
    const res = await call(api.app, key, 'POST', URL_BASE, { type: 'website', data: [RECORDS.website(0)] });
    expect(res.statusCode).toBe(403);
  });
});

describe('folder and styling', () => {
  it('places every link in the folder and gives each the template’s style', async () => {
    const folder = (await call(api.app, me.key, 'POST', '/api/v1/folders', { name: 'print run' })).json();
    const template = (
      await call(api.app, me.key, 'POST', '/api/v1/templates', {
        name: 'red',
        qrOptions: { dotsOptions: { color: '#cc0000', type: 'dots' } },
      })
    ).json();
    const res = await bulk({
      type: 'website',
      data: [RECORDS.website(0), RECORDS.website(1)],
      folderId: folder.id,
      templateId: template.id,
    });
    expect(res.statusCode, res.body).toBe(200);
    const stored = await storedLinks(res.json().jobId);
    for (const link of stored) {
      expect(link.folder_id).toBe(folder.id);
      expect(link.qr_options).toMatchObject({ dotsOptions: { color: '#cc0000', type: 'dots' }, width: 300 });
    }
  });

  it('a placement gives every link of the batch that placement, and the ZIP its codes', { timeout: 120_000 }, async () => {
    const res = await bulk({ type: 'website', data: [RECORDS.website(1), RECORDS.website(2)], placement: 'Flyer A' });
    expect(res.statusCode, res.body).toBe(200);
    const { jobId, links } = res.json();
    expect((await finished(jobId)).state).toBe('completed');
    for (const link of links) {
      const placements = await call(api.app, me.key, 'GET', `/api/v1/links/${link.dynamicLinkId}/placements`);
      expect(placements.json().data.map((p: { name: string; code: string }) => [p.name, p.code])).toEqual([['Flyer A', '1']]);
    }
    const download = await call(api.app, me.key, 'GET', `/api/v1/jobs/${jobId}/download`);
    const entries = await unzip(download.rawPayload);
    const manifest: string[][] = parse(entries.get('manifest.csv')!);
    for (const row of manifest.slice(1)) expect(await decodesAll([entries.get(row[4]!)!], `${row[3]!}?q=1`)).toEqual([true]);
    // A control character in the name is refused, as a placement made alone refuses it.
    expect((await bulk({ type: 'website', data: [RECORDS.website(3)], placement: 'Flyer\u0007' })).json().errors).toEqual([
      { path: 'placement', message: 'Name must not contain control characters' },
    ]);
  });

  it('qrOptions apply to every link', async () => {
    const res = await bulk({ type: 'sms', data: [RECORDS.sms(0)], qrOptions: { backgroundOptions: { color: '#eeeeee' } } });
    const [link] = await storedLinks(res.json().jobId);
    expect(link!.qr_options).toMatchObject({ backgroundOptions: { color: '#eeeeee' } });
  });
});

describe('Idempotency-Key', () => {
  const body = { type: 'website', data: [RECORDS.website(1), RECORDS.website(2)] };

  it('a retry with the same key answers the first batch; another body with it is a 409', async () => {
    const key = randomUUID();
    const first = await bulk(body, { 'idempotency-key': key });
    expect(first.statusCode).toBe(200);
    const before = await linkCount(me.accountId);
    const again = await bulk({ data: body.data, type: 'website' }, { 'idempotency-key': key });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ jobId: first.json().jobId, links: first.json().links });
    expect(await linkCount(me.accountId)).toBe(before);
    const other = await bulk({ ...body, data: [RECORDS.website(3)] }, { 'idempotency-key': key });
    expect(other.statusCode).toBe(409);
    // Another account's same key is its own.
    const them = await createTestAccount(api.ctx);
    const theirs = await bulk(body, { 'idempotency-key': key }, them);
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json().jobId).not.toBe(first.json().jobId);
    // Without a key, every request is a new batch.
    const a = await bulk(body);
    const b = await bulk(body);
    expect(a.json().jobId).not.toBe(b.json().jobId);
  });

  it('concurrent duplicates make one batch', async () => {
    const key = randomUUID();
    const before = await linkCount(me.accountId);
    const answers = await Promise.all(Array.from({ length: 6 }, () => bulk(body, { 'idempotency-key': key })));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.json().jobId)).size).toBe(1);
    expect(await linkCount(me.accountId)).toBe(before + 2);
  });

  it('a malformed key is a 400', async () => {
    const res = await bulk(body, { 'idempotency-key': 'a b' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ path: 'Idempotency-Key', message: 'Must be 1 to 255 visible ASCII characters' }]);
  });
});

describe('answer now or 202', () => {
  it('Prefer: respond-async answers 202; GET /jobs/:jobId shows progress and then the same result', { timeout: 120_000 }, async () => {
    const data = Array.from({ length: 300 }, (_, i) => RECORDS.website(i));
    const res = await bulk({ type: 'website', data }, { prefer: 'respond-async' });
    expect(res.statusCode).toBe(202);
    const { jobId, state, statusUrl } = res.json();
    expect(['queued', 'active']).toContain(state);
    expect(statusUrl).toMatch(new RegExp(`/jobs/${jobId}$`));
    const seen: number[] = [];
    let job;
    do {
      job = await jobOf(jobId);
      seen.push(job.progress);
      await new Promise((r) => setTimeout(r, 50));
    } while (job.state !== 'completed' && job.state !== 'failed');
    expect(job.state).toBe('completed');
    expect(job.result.count).toBe(300);
    expect(await storedLinks(jobId)).toHaveLength(300);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
  });
});

describe('the CSV form', () => {
  const form = (csv: string | Buffer, fields: Record<string, string>) =>
    multipart([
      ...Object.entries(fields).map(([name, data]) => ({ name, data })),
      { name: 'file', data: csv, filename: 'batch.csv', contentType: 'text/csv' },
    ]);
  const send = (csv: string | Buffer, fields: Record<string, string>, query = '') => {
    const { body, contentType } = form(csv, fields);
    return api.app.inject({
      method: 'POST',
      url: `${URL_BASE}${query}`,
      headers: { authorization: `Basic ${me.key}`, 'content-type': contentType },
      payload: body,
    });
  };

  it('reads a BOM, CRLF line ends and quoted commas, and makes the links', async () => {
    const folder = (await call(api.app, me.key, 'POST', '/api/v1/folders', { name: 'csv' })).json();
    const csv = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('name,url\r\n"Table 1, window",https://example.com/a\r\nTable 2,"https://example.com/b?x=1,2"\r\n'),
    ]);
    const res = await send(csv, { type: 'website', folderId: folder.id });
    expect(res.statusCode, res.body).toBe(200);
    const stored = await storedLinks(res.json().jobId);
    expect(stored.map((l) => [l.name, l.meta_data.url, l.folder_id])).toEqual([
      ['Table 1, window', 'https://example.com/a', folder.id],
      ['Table 2', 'https://example.com/b?x=1,2', folder.id],
    ]);
  });

  it('vCard and product columns; numbers read as numbers; blank cells left out', async () => {
    const vcard = await send('name,firstName,lastName,contact,email,company\nAda,Ada,Lovelace,+44 1,ada@example.com,\n', { type: 'vcard' });
    expect(vcard.statusCode, vcard.body).toBe(200);
    expect((await storedLinks(vcard.json().jobId))[0]!.meta_data).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      contact: '+44 1',
      email: 'ada@example.com',
    });
    const product = await send('name,productName,subTotal,tax,totalNet,currency\nTea,Green tea,3.5,0.5,4,EUR\n', { type: 'product' });
    expect(product.statusCode, product.body).toBe(200);
    expect((await storedLinks(product.json().jobId))[0]!.meta_data).toEqual({
      productName: 'Green tea',
      subTotal: 3.5,
      tax: 0.5,
      totalNet: 4,
      currency: 'EUR',
    });
  });

  it('a bad row is a 400 naming its row in the file; nothing is made', async () => {
    const before = await linkCount(me.accountId);
    const res = await send(
      'name,url\r\nA,https://example.com/a\r\n"B, with comma",not-a-url\r\nC,https://example.com/c\r\n,https://example.com/d\r\n',
      { type: 'website' },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      { path: 'file.row[3].url', message: 'Must be a valid URL' },
      { path: 'file.row[5].name', message: 'Required' },
    ]);
    const report = await send('name,url\nA,nope\n', { type: 'website' }, '?dryRun=true');
    expect(report.json()).toEqual({
      dryRun: true,
      valid: false,
      count: 1,
      errors: [{ path: 'file.row[2].url', message: 'Must be a valid URL' }],
    });
    expect(await linkCount(me.accountId)).toBe(before);
  });

  it('unknown columns, an unreadable file, no file, no type', async () => {
    const unknown = await send('name,link,name\nA,https://example.com/,B\n', { type: 'website' });
    expect(unknown.statusCode).toBe(400);
    // The valid columns are said once, then each wrong column.
    expect(unknown.json().errors).toEqual([
      { path: 'file.header', message: 'Unknown or repeated columns; the columns of website records are: url, name' },
      { path: 'file.header[1]', message: 'Unknown column "link"' },
      { path: 'file.header[2]', message: 'Column "name" appears twice' },
    ]);
    const ragged = await send('name,url\n"A,https://example.com/\n', { type: 'website' });
    expect(ragged.statusCode).toBe(400);
    expect(ragged.json().errors[0].path).toBe('file');
    const noType = await send('name,url\nA,https://example.com/\n', {});
    expect(noType.json().errors).toEqual([{ path: 'type', message: 'Required' }]);
    const { body, contentType } = multipart([{ name: 'type', data: 'website' }]);
    const noFile = await api.app.inject({
      method: 'POST',
      url: URL_BASE,
      headers: { authorization: `Basic ${me.key}`, 'content-type': contentType },
      payload: body,
    });
    expect(noFile.json().errors).toEqual([{ path: 'file', message: 'A CSV file is required in the field `file`' }]);
  });

  it('a header or row too wide is one 400 before any column is read; the answer stays small', async () => {
    const columns = 'the columns of website records are: url, name';
    // 1,000,000 columns (a 2 MB header).
    const wide = await send(`name,url${',x'.repeat(1_000_000)}\nA,https://example.com/\n`, { type: 'website' });
    expect(wide.statusCode).toBe(400);
    expect(wide.json().errors).toEqual([{ path: 'file', message: `The header row has more than ${CSV_MAX_CELLS} cells; ${columns}` }]);
    const long = await send(`name,url,${'x'.repeat(CSV_MAX_HEADER_BYTES)}\nA,https://example.com/,\n`, { type: 'website' });
    expect(long.json().errors).toEqual([
      { path: 'file', message: `The header row is longer than ${CSV_MAX_HEADER_BYTES} bytes; ${columns}` },
    ]);
    expect(long.body.length).toBeLessThan(1024);
    const row = await send(`name,url\nA,https://example.com/${','.repeat(500_000)}\n`, { type: 'website' });
    expect(row.json().errors).toEqual([{ path: 'file', message: `A row has more than ${CSV_MAX_CELLS} cells; ${columns}` }]);
    // One cell longer than any field: refused before the parser makes a string of it.
    const cell = await send(`name,url\nA,https://example.com/${'x'.repeat(10_000_000)}\n`, { type: 'website' });
    expect(cell.statusCode).toBe(400);
    expect(cell.json().errors).toEqual([
      { path: 'file', message: `A cell is longer than ${CSV_MAX_CELL_BYTES} bytes; no field takes more than 5000 characters` },
    ]);
    const quotedCell = await send(`name,url\n"${'x'.repeat(CSV_MAX_CELL_BYTES)}",https://example.com/\n`, { type: 'website' });
    expect(quotedCell.json().errors).toEqual(cell.json().errors);
    // A cell just under it reaches the record's own check.
    const under = await send(
      `name,url\n"${'x'.repeat(CSV_MAX_CELL_BYTES - 3)}",https://example.com/\n`,
      { type: 'website' },
      '?dryRun=true',
    );
    expect(under.json().errors).toEqual([{ path: 'file.row[2].name', message: 'Must be at most 255 characters' }]);
    // A parser error quoting a long field is cut.
    const quote = await send(`name,url\nA${'x'.repeat(60_000)}"b,https://example.com/\n`, { type: 'website' });
    expect(quote.json().errors).toEqual([
      { path: 'file', message: expect.stringMatching(/^Not a readable CSV file: Invalid Opening Quote: .*…$/) },
    ]);
    expect(quote.body.length).toBeLessThan(1024);
    // Commas inside quotes are text, not cells.
    const quoted = await send(`name,url\n"${','.repeat(200)}",https://example.com/\n`, { type: 'website' }, '?dryRun=true');
    expect(quoted.json()).toEqual({ dryRun: true, valid: true, count: 1, errors: [] });
    // 100 unknown columns and the line saying which are known: 100 listed, the rest counted.
    const unknown = await send(`${Array.from({ length: CSV_MAX_CELLS }, (_, i) => `c${i}`).join(',')}\n`, { type: 'website' });
    expect(unknown.json().errors).toHaveLength(MAX_LISTED_ERRORS);
    expect(unknown.json().omittedErrors).toBe(1);
  });
});

describe('judged at a print size', () => {
  it('stores and draws the fix of a design that would not scan, and says so', { timeout: 180_000 }, async () => {
    const logo = `data:image/png;base64,${makeLogoPng(64, 64).toString('base64')}`;
    const qrOptions = { image: logo, qrOptions: { errorCorrectionLevel: 'M' as const }, imageOptions: { imageSize: 1 } };
    const data = Array.from({ length: 3 }, (_, i) => ({ name: `Tent ${i}`, url: `https://example.com/t${i}` }));
    const res = await bulk({ type: 'website', data, qrOptions, print: { sizeMm: 30 } });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const { jobId, links, print } = res.json();
    expect(print.verdict).toBe('scans-well');
    expect(print.fixed.length).toBeGreaterThan(0);
    // Stored as fixed: the link's own code is the fixed one.
    const stored = await storedLinks(jobId);
    expect(stored[0]!.qr_options).not.toMatchObject({ imageOptions: { imageSize: 1 }, qrOptions: { errorCorrectionLevel: 'M' } });
    const done = await finished(jobId);
    expect(done.state).toBe('completed');
    expect(done.result.print).toEqual(print);
    const download = await call(api.app, me.key, 'GET', `/api/v1/jobs/${jobId}/download`);
    const entries = await unzip(download.rawPayload);
    const report = JSON.parse(entries.get('print-report.json')!.toString('utf8'));
    expect(report.gate.verdict).not.toBe('scans-well');
    expect(report.fix.verdict).toBe('scans-well');
    for (const { dynamicLinkId } of links as Array<{ dynamicLinkId: string }>) {
      const png = [...entries].find(([name]) => name.includes(dynamicLinkId) && name.endsWith('.png'))![1];
      expect(await decodesAll([png], `${api.ctx.config.SHORT_URL_BASE}/${dynamicLinkId}?q`)).toEqual([true]);
    }
  });

  it('refuses a print size out of bounds', async () => {
    const res = await bulk({ type: 'website', data: [{ name: 'x', url: 'https://example.com' }], print: { sizeMm: 2 } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.map((e: { path: string }) => e.path)).toContain('print.sizeMm');
  });
});
