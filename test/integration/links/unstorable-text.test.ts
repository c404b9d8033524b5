import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';
import { MAX_JSON_DEPTH } from '#api/plugins/app/validation.js';

/**
 * Postgres cannot store a NUL (`\u0000`) in text or jsonb, and a lone UTF-16 surrogate is not text
 * at all: such input is a 400 naming the field, or the resource's 404 for a path id, on every
 * route, never a 500 from a failed statement (and never a silent U+FFFD in its place).
 */
let api: TestApi;
let me: TestAccount;
let slug: string;
let folderId: string;

const MESSAGE = 'Must not contain NUL characters (\\u0000) or unpaired UTF-16 surrogates';
const invalid = (...paths: string[]) => ({
  code: 'validation_failed',
  message: 'Validation failed',
  errors: paths.map((path) => ({ path, message: MESSAGE })),
});
/** A raw JSON text, so escapes such as `\ud800` reach the parser exactly as a client wrote them. */
const json = (text: string) => ({ payload: text, headers: { 'content-type': 'application/json' } });

beforeAll(async () => {
  api = await startTestApi();
  me = await createTestAccount(api.ctx);
  slug = (
    await call(api.app, me.key, 'POST', '/api/v1/links', { name: 'ok', type: 'website', data: { url: 'https://example.com/' } })
  ).json().id;
  folderId = (await call(api.app, me.key, 'POST', '/api/v1/folders', { name: 'ok' })).json().id;
});
afterAll(() => api.close());

async function send(method: 'POST' | 'PUT' | 'PATCH', url: string, text: string) {
  const { payload, headers } = json(text);
  return api.app.inject({ method, url, payload, headers: { ...headers, authorization: `Basic ${me.key}` } });
}

describe('NUL and lone surrogates in bodies', () => {
  const cases: Array<[string, 'POST' | 'PUT' | 'PATCH', () => string, string, string]> = [
    ['folder name (NUL)', 'POST', () => '/api/v1/folders', '{"name":"a\\u0000b"}', 'name'],
    ['folder name (lone surrogate)', 'POST', () => '/api/v1/folders', '{"name":"a\\ud800b"}', 'name'],
    ['folder rename', 'PUT', () => `/api/v1/folders/${folderId}`, '{"name":"\\udfff"}', 'name'],
    ['template name', 'POST', () => '/api/v1/templates', '{"name":"t\\u0000","qrOptions":{}}', 'name'],
    ['api key name', 'POST', () => '/api/v1/api-keys', '{"name":"k\\u0000","scopes":["all"]}', 'name'],
    [
      'vcard field',
      'POST',
      () => '/api/v1/links',
      '{"name":"v","type":"vcard","data":{"firstName":"a\\u0000","lastName":"b","email":"a@example.com"}}',
      'data.firstName',
    ],
    [
      'landing html',
      'POST',
      () => '/api/v1/links',
      '{"name":"l","type":"landing","data":{"landingHTML":"<p>\\ud800</p>"}}',
      'data.landingHTML',
    ],
    [
      'website url',
      'POST',
      () => '/api/v1/links',
      '{"name":"w","type":"website","data":{"url":"https://example.com/\\ud83d"}}',
      'data.url',
    ],
    [
      'an object key',
      'POST',
      () => '/api/v1/links',
      '{"name":"w","type":"website","data":{"url":"https://example.com/","x\\u0000":1}}',
      'data.x\u0000',
    ],
    [
      'link update',
      'PUT',
      () => `/api/v1/links/${slug}`,
      '{"name":"n\\u0000","type":"website","data":{"url":"https://example.com/"}}',
      'name',
    ],
    [
      'qr styling',
      'PATCH',
      () => `/api/v1/links/${slug}`,
      '{"qrCode":{"dotsOptions":{"color":"#000\\u0000"}}}',
      'qrCode.dotsOptions.color',
    ],
    ['duplicate name', 'POST', () => `/api/v1/links/${slug}/duplicate`, '{"name":"\\u0000"}', 'name'],
    [
      'password',
      'POST',
      () => '/api/v1/links',
      '{"name":"p","type":"website","data":{"url":"https://example.com/"},"linkConfigurations":{"passwordProtectedActive":true,"password":"a\\u0000"}}',
      'linkConfigurations.password',
    ],
  ];
  for (const [what, method, url, body, path] of cases) {
    it(`${what}: 400 at ${JSON.stringify(path)}`, async () => {
      const res = await send(method, url(), body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual(invalid(path));
    });
  }

  it('nothing was stored', async () => {
    const names = (await call(api.app, me.key, 'GET', '/api/v1/folders')).json().data.map((f: { name: string }) => f.name);
    expect(names).toEqual(['ok']);
  });
});

describe('NUL and lone surrogates in queries and paths', () => {
  it.each([
    ['search', '/api/v1/links?search=a%00b'],
    ['menu', '/api/v1/links?menu=%00'],
    ['folder', '/api/v1/minimal-links?folder=x%00'],
  ])('?%s= is a 400 naming it', async (param, url) => {
    const res = await call(api.app, me.key, 'GET', url);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual(invalid(param));
  });

  it.each([
    ['GET', '/api/v1/links/a%00b', 'Link'],
    ['GET', '/api/v1/links/a%00b/qr', 'Link'],
    ['POST', '/api/v1/links/%00/pause', 'Link'],
    ['DELETE', '/api/v1/links/a%00b', 'Link'],
    ['GET', '/api/v1/folders/a%00b', 'Folder'],
    ['GET', '/api/v1/templates/%00/preview', 'Template'],
    ['DELETE', '/api/v1/api-keys/%00', 'API key'],
    ['GET', '/api/v1/jobs/%00', 'Job'],
  ] as const)('%s %s is "%s not found"', async (method, url, thing) => {
    const res = await call(api.app, me.key, method, url);
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json()).toEqual({ code: `${thing.toLowerCase().replace(' ', '_')}_not_found`, message: `${thing} not found` });
  });
});

describe('deep input', () => {
  it('100,000 levels of nesting are refused before the body is parsed; a NUL at the bottom of the deepest allowed is found', async () => {
    const body = (depth: number) =>
      `{"name":"deep","type":"website","data":{"url":"https://example.com/","x":${'['.repeat(depth)}"\\u0000"${']'.repeat(depth)}}}`;
    const deep = await send('POST', '/api/v1/links', body(100_000));
    expect(deep.statusCode).toBe(400);
    expect(deep.json().errors).toEqual([{ path: '(body)', message: `Nested more than ${MAX_JSON_DEPTH} levels deep` }]);
    // The body's object and data are two levels: x may nest the rest.
    const depth = MAX_JSON_DEPTH - 2;
    const res = await send('POST', '/api/v1/links', body(depth));
    expect(res.statusCode).toBe(400);
    const { errors } = res.json();
    expect(errors).toHaveLength(1);
    expect(errors[0].path).toBe(`data.x${'[0]'.repeat(depth)}`);
    expect(errors[0].message).toBe(MESSAGE);
  });
});
