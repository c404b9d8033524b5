import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_LISTED_ERRORS } from '#domain/errors.js';
import { pdfBytes, pngBytes, uploadFile } from '../../support/fixtures.js';
import { exampleData, type ExampleFiles } from '../../support/link-examples.js';
import { call, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';

let api: TestApi;
let me: TestAccount;
let f: ExampleFiles;

beforeAll(async () => {
  api = await startTestApi();
  me = await createTestAccount(api.ctx);
  const up = (b: Buffer, n: string) => uploadFile(api.app, me.key, b, n).then((r) => r.fileId);
  f = {
    images: [await up(pngBytes(), 'a.png'), await up(pngBytes(4, 4), 'b.png')],
    pdfs: [await up(pdfBytes(), 'a.pdf'), await up(pdfBytes('b'), 'b.pdf')],
  };
});
afterAll(() => api.close());

async function post(body: unknown) {
  return call(api.app, me.key, 'POST', '/api/v1/links', body);
}
async function expectPath(body: unknown, path: string) {
  const res = await post(body);
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json().message).toBe('Validation failed');
  expect(res.json().errors.map((e: { path: string }) => e.path)).toContain(path);
}

/** [type, what to change in the valid example, expected path] */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each case breaks its own type's example data, reached into freely
type Case = [string, string, (d: Record<string, any>) => unknown, string];
const cases: Case[] = [
  ['website', 'url missing', ({ url: _u, ...d }) => d, 'data.url'],
  ['website', 'url not a URL', (d) => ({ ...d, url: 'not a url' }), 'data.url'],
  ['website', 'url javascript:', (d) => ({ ...d, url: 'javascript:alert(1)' }), 'data.url'],
  ['website', 'url a number', (d) => ({ ...d, url: 42 }), 'data.url'],
  ['email', 'bad email', (d) => ({ ...d, email: 'nobody@' }), 'data.email'],
  ['email', 'subject a number', (d) => ({ ...d, subject: 3 }), 'data.subject'],
  ['sms', 'phone missing', ({ phone: _p, ...d }) => d, 'data.phone'],
  ['sms', 'phone letters', (d) => ({ ...d, phone: 'call me' }), 'data.phone'],
  ['vcard', 'lastName missing', ({ lastName: _l, ...d }) => d, 'data.lastName'],
  ['vcard', 'email invalid', (d) => ({ ...d, email: 'ada at example' }), 'data.email'],
  ['vcard', 'unknown member', (d) => ({ ...d, nickname: 'A' }), 'data.nickname'],
  ['wifi', 'encryption WPA3', (d) => ({ ...d, encryption: 'WPA3' }), 'data.encryption'],
  ['wifi', 'hidden as string', (d) => ({ ...d, hidden: 'yes' }), 'data.hidden'],
  ['wifi', 'ssid missing', ({ ssid: _s, ...d }) => d, 'data.ssid'],
  ['location', 'latitude 91', (d) => ({ ...d, latitude: 91 }), 'data.latitude'],
  ['location', 'longitude a string', (d) => ({ ...d, longitude: '2.29' }), 'data.longitude'],
  ['event', 'end before start', (d) => ({ ...d, endDateTime: '2026-12-24T18:00:00' }), 'data.endDateTime'],
  ['event', 'start not a date', (d) => ({ ...d, startDateTime: 'soon' }), 'data.startDateTime'],
  ['event', 'timezone 65 chars', (d) => ({ ...d, timezone: 'A'.repeat(65) }), 'data.timezone'],
  ['event', 'timezone unknown', (d) => ({ ...d, timezone: 'Mars/Olympus_Mons' }), 'data.timezone'],
  ['event', 'eventTitle 101 chars', (d) => ({ ...d, eventTitle: 't'.repeat(101) }), 'data.eventTitle'],
  ['event', 'registrationUrl invalid', (d) => ({ ...d, registrationUrl: 'register here' }), 'data.registrationUrl'],
  ['image', 'no files', () => ({ files: [] }), 'data.files'],
  ['image', 'fileId not a string', () => ({ files: [{ fileId: 7 }] }), 'data.files[0].fileId'],
  ['pdf', 'files missing', () => ({}), 'data.files'],
  ['gallery', '21 files', () => ({ files: Array.from({ length: 21 }, () => ({ fileId: f.images[0] })) }), 'data.files'],
  ['gallery', '0 files', () => ({ files: [] }), 'data.files'],
  ['landing', 'landingHTML missing', () => ({}), 'data.landingHTML'],
  ['landing', 'landingHTML an object', () => ({ landingHTML: { html: 'x' } }), 'data.landingHTML'],
  ['landing', 'landingHTML nesting elements 101 deep', () => ({ landingHTML: '<div>'.repeat(101) }), 'data.landingHTML'],
  ['product', 'subTotal -1', (d) => ({ ...d, subTotal: -1 }), 'data.subTotal'],
  ['product', 'tax -0.01', (d) => ({ ...d, tax: -0.01 }), 'data.tax'],
  ['product', 'totalNet -5', (d) => ({ ...d, totalNet: -5 }), 'data.totalNet'],
  ['product', 'discount type bogo', (d) => ({ ...d, discount: { type: 'bogo', value: 1 } }), 'data.discount.type'],
  ['product', 'productName missing', ({ productName: _n, ...d }) => d, 'data.productName'],
  [
    'multi-links',
    'custom link without title',
    (d) => ({ ...d, links: [{ type: 'custom', value: 'https://x.example' }] }),
    'data.links[0].title',
  ],
  [
    'multi-links',
    'social link without icon',
    (d) => ({ ...d, links: [d.links[0], { type: 'social', value: 'https://x.example' }] }),
    'data.links[1].icon',
  ],
  ['multi-links', 'design color invalid', (d) => ({ ...d, design: { ...d.design, textColor: 'sparkly' } }), 'data.design.textColor'],
  ['multi-links', 'title missing', ({ title: _t, ...d }) => d, 'data.title'],
  ['multi-pdf', 'pageTitle 101 chars', (d) => ({ ...d, pageTitle: 'p'.repeat(101) }), 'data.pageTitle'],
  ['multi-pdf', '11 pdfs', (d) => ({ ...d, pdfs: Array.from({ length: 11 }, () => ({ label: 'x', fileId: f.pdfs[0] })) }), 'data.pdfs'],
  ['multi-pdf', '0 pdfs', (d) => ({ ...d, pdfs: [] }), 'data.pdfs'],
  ['multi-pdf', 'label missing', (d) => ({ ...d, pdfs: [{ fileId: f.pdfs[0] }] }), 'data.pdfs[0].label'],
  ['smart-url', 'defaultUrl invalid', (d) => ({ ...d, defaultUrl: 'nowhere' }), 'data.defaultUrl'],
  ['smart-url', '11 rules', (d) => ({ ...d, rules: Array.from({ length: 11 }, () => d.rules[0]) }), 'data.rules'],
  [
    'smart-url',
    'conditionType weather',
    (d) => ({ ...d, rules: [{ ...d.rules[0], conditionType: 'weather' }] }),
    'data.rules[0].conditionType',
  ],
  [
    'smart-url',
    'time rule with operator after',
    (d) => ({ ...d, rules: [d.rules[0], d.rules[1], { ...d.rules[2], operator: 'after' }] }),
    'data.rules[2].operator',
  ],
  [
    'smart-url',
    'time rule without timeFrom',
    (d) => {
      const { timeFrom: _t, ...r } = d.rules[2];
      return { ...d, rules: [d.rules[0], d.rules[1], r] };
    },
    'data.rules[2].timeFrom',
  ],
  [
    'smart-url',
    'time rule with a bad timeTo',
    (d) => ({ ...d, rules: [d.rules[0], d.rules[1], { ...d.rules[2], timeTo: '25:00' }] }),
    'data.rules[2].timeTo',
  ],
  [
    'smart-url',
    'location rule without countries',
    (d) => {
      const { countries: _c, ...r } = d.rules[1];
      return { ...d, rules: [d.rules[0], r] };
    },
    'data.rules[1].countries',
  ],
  [
    'smart-url',
    'device rule with an unknown device',
    (d) => ({ ...d, rules: [{ ...d.rules[0], devices: ['toaster'] }] }),
    'data.rules[0].devices[0]',
  ],
  [
    'smart-url',
    'date rule after without dateFrom',
    (d) => ({ ...d, rules: [{ conditionType: 'date', operator: 'after', timezone: 'UTC', url: 'https://x.example' }] }),
    'data.rules[0].dateFrom',
  ],
  [
    'smart-url',
    'date rule before without dateTo',
    (d) => ({ ...d, rules: [{ conditionType: 'date', operator: 'before', timezone: 'UTC', url: 'https://x.example' }] }),
    'data.rules[0].dateTo',
  ],
  [
    'smart-url',
    'date rule without timezone',
    (d) => ({ ...d, rules: [{ conditionType: 'date', operator: 'after', dateFrom: '2026-01-01', url: 'https://x.example' }] }),
    'data.rules[0].timezone',
  ],
  ['smart-url', 'rule url invalid', (d) => ({ ...d, rules: [{ ...d.rules[0], url: 'x' }] }), 'data.rules[0].url'],
  ['menu', 'name a number', () => ({ name: 5 }), 'data.name'],
  ['menu', 'unknown member', () => ({ name: 'm', cafe: 'x' }), 'data.cafe'],
];

describe('bad data for each type → 400 naming the exact field path', () => {
  it.each(cases)('%s: %s', async (type, _what, mutate, path) => {
    await expectPath({ name: 'bad', type, data: mutate(exampleData(type, f) as Parameters<Case[2]>[0]) }, path);
  });
});

describe('bad body shape', () => {
  it.each([
    ['type unknown', { name: 'x', type: 'hologram', data: {} }, 'type'],
    ['type a number', { name: 'x', type: 3, data: {} }, 'type'],
    ['type missing', { name: 'x', data: {} }, 'type'],
    ['data missing', { name: 'x', type: 'website' }, 'data'],
    ['data a string', { name: 'x', type: 'website', data: 'https://example.com' }, 'data'],
    ['data an array', { name: 'x', type: 'website', data: ['https://example.com'] }, 'data'],
    ['name missing', { type: 'website', data: { url: 'https://example.com' } }, 'name'],
    ['name 256 chars', { name: 'n'.repeat(256), type: 'website', data: { url: 'https://example.com' } }, 'name'],
    ['unknown top-level member', { name: 'x', type: 'website', data: { url: 'https://example.com' }, color: 1 }, 'color'],
    [
      'linkConfigurations not an object',
      { name: 'x', type: 'website', data: { url: 'https://example.com' }, linkConfigurations: 'yes' },
      'linkConfigurations',
    ],
  ])('%s', async (_what, body, path) => {
    await expectPath(body, path);
  });

  it('reports errors in name and data together', async () => {
    const res = await post({ name: '', type: 'website', data: { url: 'nope' } });
    const paths = res.json().errors.map((e: { path: string }) => e.path);
    expect(paths).toEqual(expect.arrayContaining(['name', 'data.url']));
  });

  it('many unknown members: the first 100 listed in order, the rest counted', async () => {
    const data: Record<string, unknown> = { url: 'https://example.com' };
    for (let i = 0; i < 900; i++) data[`k${i}`] = 1;
    const res = await post({ name: 'x', type: 'website', data });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.errors).toHaveLength(MAX_LISTED_ERRORS);
    expect(body.errors.slice(0, 2)).toEqual([
      { path: 'data.k0', message: 'Unknown field' },
      { path: 'data.k1', message: 'Unknown field' },
    ]);
    expect(body.omittedErrors).toBe(900 - MAX_LISTED_ERRORS);
    expect(res.body.length).toBeLessThan(8 * 1024);
  });

  it('landing HTML nesting elements deeper than 100 → 400 saying so; 100 deep is stored as sent', async () => {
    const res = await post({ name: 'deep', type: 'landing', data: { landingHTML: `<p>Hi</p>${'<div>'.repeat(100_000)}` } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'validation_failed',
      message: 'Validation failed',
      errors: [{ path: 'data.landingHTML', message: 'Must not nest elements more than 100 deep' }],
    });
    const landingHTML = `${'<div>'.repeat(100)}x${'</div>'.repeat(100)}`;
    const made = await post({ name: 'deep enough', type: 'landing', data: { landingHTML } });
    expect(made.statusCode, made.body).toBe(200);
    const read = await call(api.app, me.key, 'GET', `/api/v1/links/${made.json().id}`);
    expect(read.json().data.meta_data).toEqual({ landingHTML });
  });

  it('a 10 MB JSON body → 413', async () => {
    const res = await call(
      api.app,
      me.key,
      'POST',
      '/api/v1/links',
      JSON.stringify({ name: 'big', type: 'landing', data: { landingHTML: 'x'.repeat(10 * 1024 * 1024) } }),
      {
        'content-type': 'application/json',
      },
    );
    expect(res.statusCode).toBe(413);
  });
});

describe('linkConfigurations rules', () => {
  const site = (linkConfigurations: unknown) => ({ name: 'c', type: 'website', data: { url: 'https://example.com' }, linkConfigurations });
  it.each([
    ['customUrl required when urlActive', { urlActive: true }, 'linkConfigurations.customUrl'],
    ['customUrl with a space', { urlActive: true, customUrl: 'my menu' }, 'linkConfigurations.customUrl'],
    ['customUrl with a slash', { urlActive: true, customUrl: 'a/b' }, 'linkConfigurations.customUrl'],
    ['customUrl 65 chars', { urlActive: true, customUrl: 'a'.repeat(65) }, 'linkConfigurations.customUrl'],
    ['customUrl reserved', { urlActive: true, customUrl: 'health' }, 'linkConfigurations.customUrl'],
    ['customUrl reserved in other case', { urlActive: true, customUrl: 'Files' }, 'linkConfigurations.customUrl'],
    ['urlActive a string', { urlActive: 'true', customUrl: 'ok' }, 'linkConfigurations.urlActive'],
    ['startDate required', { scheduleActive: true, endDate: '2030-01-02', scheduleTimezone: 'UTC' }, 'linkConfigurations.startDate'],
    ['endDate required', { scheduleActive: true, startDate: '2030-01-02', scheduleTimezone: 'UTC' }, 'linkConfigurations.endDate'],
    [
      'scheduleTimezone required',
      { scheduleActive: true, startDate: '2030-01-01', endDate: '2030-01-02' },
      'linkConfigurations.scheduleTimezone',
    ],
    [
      'scheduleTimezone 65 chars',
      { scheduleActive: true, startDate: '2030-01-01', endDate: '2030-01-02', scheduleTimezone: 'Z'.repeat(65) },
      'linkConfigurations.scheduleTimezone',
    ],
    [
      'scheduleTimezone unknown',
      { scheduleActive: true, startDate: '2030-01-01', endDate: '2030-01-02', scheduleTimezone: 'Atlantis/Capital' },
      'linkConfigurations.scheduleTimezone',
    ],
    [
      'endDate before startDate',
      { scheduleActive: true, startDate: '2030-02-01', endDate: '2030-01-01', scheduleTimezone: 'UTC' },
      'linkConfigurations.endDate',
    ],
    [
      'endDate equal to startDate (date-times)',
      { scheduleActive: true, startDate: '2030-02-01T10:00:00Z', endDate: '2030-02-01T10:00:00Z', scheduleTimezone: 'UTC' },
      'linkConfigurations.endDate',
    ],
    [
      'startDate not a date',
      { scheduleActive: true, startDate: 'next week', endDate: '2030-01-01', scheduleTimezone: 'UTC' },
      'linkConfigurations.startDate',
    ],
    ['scanLimit required', { scanLimitActive: true }, 'linkConfigurations.scanLimit'],
    ['scanLimit 0', { scanLimitActive: true, scanLimit: 0 }, 'linkConfigurations.scanLimit'],
    ['scanLimit 2.5', { scanLimitActive: true, scanLimit: 2.5 }, 'linkConfigurations.scanLimit'],
    ['scanLimit a string', { scanLimitActive: true, scanLimit: '10' }, 'linkConfigurations.scanLimit'],
    ['password required', { passwordProtectedActive: true }, 'linkConfigurations.password'],
    ['password 33 chars', { passwordProtectedActive: true, password: 'p'.repeat(33) }, 'linkConfigurations.password'],
    ['folder unknown', { folder_id: '00000000-0000-4000-8000-000000000000' }, 'linkConfigurations.folder_id'],
    ['folder not a uuid', { folder_id: 'inbox' }, 'linkConfigurations.folder_id'],
    ['unknown member', { colour: 'red' }, 'linkConfigurations.colour'],
  ])('%s', async (_what, cfg, path) => {
    await expectPath(site(cfg), path);
  });

  it('a password of exactly 32 characters is fine', async () => {
    expect((await post(site({ passwordProtectedActive: true, password: 'p'.repeat(32) }))).statusCode).toBe(200);
  });
});

describe('files named by data', () => {
  it('a PDF where an image is needed, and an image where a PDF is needed → 400 at the fileId', async () => {
    await expectPath({ name: 'i', type: 'image', data: { files: [{ fileId: f.pdfs[0] }] } }, 'data.files[0].fileId');
    await expectPath({ name: 'p', type: 'pdf', data: { files: [{ fileId: f.images[0] }] } }, 'data.files[0].fileId');
    await expectPath(
      { name: 'm', type: 'multi-pdf', data: { pageTitle: 't', pdfs: [{ label: 'a', fileId: f.images[0] }] } },
      'data.pdfs[0].fileId',
    );
  });

  it('an unknown fileId → 400', async () => {
    await expectPath(
      { name: 'g', type: 'gallery', data: { files: [{ fileId: f.images[0] }, { fileId: '00000000-0000-4000-8000-000000000000' }] } },
      'data.files[1].fileId',
    );
  });

  it('a file already serving another link of the account is accepted: the second link gets its own file on the same bytes', async () => {
    const img = await uploadFile(api.app, me.key, pngBytes(5, 5), 'c.png');
    expect((await post({ name: 'first', type: 'image', data: { files: [{ fileId: img.fileId }] } })).statusCode).toBe(200);
    const second = await post({ name: 'second', type: 'image', data: { files: [{ fileId: img.fileId }] } });
    expect(second.statusCode, second.body).toBe(200);
  });
});
