import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngBytes } from '../../support/fixtures.js';
import { call, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';

let api: TestApi;
let me: TestAccount;
let other: TestAccount;
const LIST_DATE = /^(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{2}, \d{4}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const styled = {
  width: 512,
  height: 512,
  margin: 12,
  qrOptions: { typeNumber: 0, mode: 'Byte', errorCorrectionLevel: 'H' },
  dotsOptions: {
    type: 'classy',
    gradient: {
      type: 'linear',
      rotation: 0.785,
      colorStops: [
        { offset: 0, color: '#ff0000' },
        { offset: 1, color: 'rgb(0, 0, 255)' },
      ],
    },
  },
  cornersSquareOptions: { type: 'extra-rounded', color: 'navy' },
  cornersDotOptions: { type: 'dot', gradient: { type: 'radial', colorStops: [{ offset: 0.5, color: 'hsl(120, 100%, 25%)' }] } },
  backgroundOptions: { color: 'transparent' },
  image: `data:image/png;base64,${pngBytes(8, 8).toString('base64')}`,
  imageOptions: { hideBackgroundDots: true, imageSize: 0.3, margin: 4, crossOrigin: 'anonymous' },
};

beforeAll(async () => {
  api = await startTestApi();
  me = await createTestAccount(api.ctx);
  other = await createTestAccount(api.ctx);
});
afterAll(() => api.close());

const create = async (acct: TestAccount, name: string, qrOptions: object = {}) =>
  (await call(api.app, acct.key, 'POST', '/api/v1/templates', { name, qrOptions })).json<{ id: string }>();

describe('templates', () => {
  it('create answers with the bare template (account_id, ISO timestamps) and stores the options as given', async () => {
    const res = await call(api.app, me.key, 'POST', '/api/v1/templates', { name: 'Brand', qrOptions: styled });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).not.toHaveProperty('data');
    expect(body).toMatchObject({ name: 'Brand', account_id: me.accountId, qr_options: styled });
    expect(body.created_at).toMatch(ISO);
    expect(body.updated_at).toMatch(ISO);
  });

  it('lists newest first and gets one, both with Mon DD, YYYY dates', async () => {
    const acct = await createTestAccount(api.ctx);
    const a = await create(acct, 'a');
    const b = await create(acct, 'b', styled);
    const list = (await call(api.app, acct.key, 'GET', '/api/v1/templates')).json().data;
    expect(list.map((t: { id: string }) => t.id)).toEqual([b.id, a.id]);
    expect(list[0].created_at).toMatch(LIST_DATE);
    const one = await call(api.app, acct.key, 'GET', `/api/v1/templates/${b.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json().data).toMatchObject({ id: b.id, name: 'b', qr_options: styled });
    expect(one.json().data.updated_at).toMatch(LIST_DATE);
  });

  it('PUT answers {} and changes only what was sent', async () => {
    const t = await create(me, 'before', styled);
    const rename = await call(api.app, me.key, 'PUT', `/api/v1/templates/${t.id}`, { name: 'after' });
    expect(rename.statusCode).toBe(200);
    expect(rename.json()).toEqual({});
    let got = (await call(api.app, me.key, 'GET', `/api/v1/templates/${t.id}`)).json().data;
    expect(got).toMatchObject({ name: 'after', qr_options: styled });
    await call(api.app, me.key, 'PUT', `/api/v1/templates/${t.id}`, { qrOptions: { dotsOptions: { type: 'dots' } } });
    got = (await call(api.app, me.key, 'GET', `/api/v1/templates/${t.id}`)).json().data;
    expect(got).toMatchObject({ name: 'after', qr_options: { dotsOptions: { type: 'dots' } } });
  });

  it('DELETE answers {message: "Link archived"} and the template is gone for good', async () => {
    const t = await create(me, 'temporary');
    const res = await call(api.app, me.key, 'DELETE', `/api/v1/templates/${t.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Link archived' });
    expect((await call(api.app, me.key, 'GET', `/api/v1/templates/${t.id}`)).statusCode).toBe(404);
    expect((await call(api.app, me.key, 'DELETE', `/api/v1/templates/${t.id}`)).statusCode).toBe(404);
  });

  it('absent or malformed ids → 404 {message: Template not found}', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'xyz']) {
      for (const [method, body] of [['GET'], ['PUT', { name: 'n' }], ['DELETE']] as const) {
        const res = await call(api.app, me.key, method, `/api/v1/templates/${id}`, body);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ code: 'template_not_found', message: 'Template not found' });
      }
    }
  });

  it("another account's template is a 404 everywhere and stays unchanged", async () => {
    const theirs = await create(other, 'theirs', styled);
    for (const [method, body] of [['GET'], ['PUT', { name: 'mine now' }], ['DELETE']] as const) {
      expect((await call(api.app, me.key, method, `/api/v1/templates/${theirs.id}`, body)).statusCode).toBe(404);
    }
    const mine = (await call(api.app, me.key, 'GET', '/api/v1/templates')).json().data;
    expect(mine.some((t: { id: string }) => t.id === theirs.id)).toBe(false);
    expect((await call(api.app, other.key, 'GET', `/api/v1/templates/${theirs.id}`)).json().data).toMatchObject({
      name: 'theirs',
      qr_options: styled,
    });
  });
});

describe('templates: bad input → 400 naming the field', () => {
  const cases: Array<[string, unknown, string]> = [
    ['missing name', { qrOptions: {} }, 'name'],
    ['missing qrOptions', { name: 'n' }, 'qrOptions'],
    ['qrOptions not an object', { name: 'n', qrOptions: 'red' }, 'qrOptions'],
    ['name of 256 characters', { name: 'x'.repeat(256), qrOptions: {} }, 'name'],
    ['name a number', { name: 5, qrOptions: {} }, 'name'],
    ['unknown top-level member', { name: 'n', qrOptions: {}, extra: true }, 'extra'],
    ['dot type hexagon', { name: 'n', qrOptions: { dotsOptions: { type: 'hexagon' } } }, 'qrOptions.dotsOptions.type'],
    ['unknown qr option member', { name: 'n', qrOptions: { dotsOptions: { shapeX: 1 } } }, 'qrOptions.dotsOptions.shapeX'],
    ['imageSize 2', { name: 'n', qrOptions: { imageOptions: { imageSize: 2 } } }, 'qrOptions.imageOptions.imageSize'],
    ['negative margin', { name: 'n', qrOptions: { margin: -1 } }, 'qrOptions.margin'],
    ['typeNumber 41', { name: 'n', qrOptions: { qrOptions: { typeNumber: 41 } } }, 'qrOptions.qrOptions.typeNumber'],
    ['error level X', { name: 'n', qrOptions: { qrOptions: { errorCorrectionLevel: 'X' } } }, 'qrOptions.qrOptions.errorCorrectionLevel'],
    ['bad color', { name: 'n', qrOptions: { backgroundOptions: { color: 'blurple' } } }, 'qrOptions.backgroundOptions.color'],
    [
      'gradient stop offset 2',
      { name: 'n', qrOptions: { dotsOptions: { gradient: { type: 'linear', colorStops: [{ offset: 2, color: 'red' }] } } } },
      'qrOptions.dotsOptions.gradient.colorStops[0].offset',
    ],
    ['width a string', { name: 'n', qrOptions: { width: '300' } }, 'qrOptions.width'],
  ];

  it.each(cases)('POST with %s', async (_what, body, path) => {
    const res = await call(api.app, me.key, 'POST', '/api/v1/templates', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Validation failed');
    expect(res.json().errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  it('PUT validates the same way', async () => {
    const t = await create(me, 'v');
    const res = await call(api.app, me.key, 'PUT', `/api/v1/templates/${t.id}`, { qrOptions: { dotsOptions: { type: 'hexagon' } } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].path).toBe('qrOptions.dotsOptions.type');
    const name = await call(api.app, me.key, 'PUT', `/api/v1/templates/${t.id}`, { name: 'y'.repeat(256) });
    expect(name.statusCode).toBe(400);
    expect(name.json().errors[0].path).toBe('name');
  });

  it('reports every bad field at once', async () => {
    const res = await call(api.app, me.key, 'POST', '/api/v1/templates', { name: 7, qrOptions: { margin: -3, width: 'x' } });
    const paths = res.json().errors.map((e: { path: string }) => e.path);
    expect(paths).toEqual(expect.arrayContaining(['name', 'qrOptions.margin', 'qrOptions.width']));
  });
});

describe('templates: the centre image must load', () => {
  it.each([
    ['a truncated PNG', 'data:image/png;base64,iVBORw0KGgo='],
    ['text claiming to be a PNG', `data:image/png;base64,${Buffer.from('hello').toString('base64')}`],
    ['a loopback URL', 'http://127.0.0.1:9/logo.png'],
  ])('%s → 400 at qrOptions.image', async (_what, image) => {
    const res = await call(api.app, me.key, 'POST', '/api/v1/templates', { name: 'img', qrOptions: { image } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].path).toBe('qrOptions.image');
  });
});
