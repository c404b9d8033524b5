import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeApiKey } from '#domain/accounts/api-keys.js';
import type { Scope } from '#domain/accounts/scopes.js';
import { addKey, call, createTestAccount, startTestApi, type TestAccount, type TestApi, announcerOf } from '../../support/harness.js';

let api: TestApi;
let owner: TestAccount;

beforeAll(async () => {
  api = await startTestApi();
  owner = await createTestAccount(api.ctx);
});
afterAll(() => api.close());

const get = (authorization: string | undefined) =>
  api.app.inject({ method: 'GET', url: '/api/v1/folders', headers: authorization === undefined ? {} : { authorization } });

describe('authentication: every way in that must fail answers 401 {message: Unauthorized}', () => {
  it('accepts the raw key after Basic', async () => {
    expect((await get(`Basic ${owner.key}`)).statusCode).toBe(200);
  });

  const cases: Array<[string, () => string | undefined]> = [
    ['no Authorization header', () => undefined],
    ['empty header', () => ''],
    ['Bearer scheme', () => `Bearer ${owner.key}`],
    ['key without scheme', () => owner.key],
    ['Basic with nothing after it', () => 'Basic '],
    ['Basic with two words', () => `Basic ${owner.key} extra`],
    ['base64-encoded key', () => `Basic ${Buffer.from(owner.key).toString('base64')}`],
    ['base64 user:password with the key as password', () => `Basic ${Buffer.from(`user:${owner.key}`).toString('base64')}`],
    ['key without the key- prefix', () => `Basic ${owner.key.slice(4)}`],
    ['unknown key of the right shape', () => `Basic key-${'A'.repeat(32)}`],
    ['a key one character off', () => `Basic ${owner.key.slice(0, -1)}${owner.key.endsWith('A') ? 'B' : 'A'}`],
  ];
  it.each(cases)('%s → 401', async (_name, header) => {
    const res = await get(header());
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 'unauthorized', message: 'Unauthorized' });
  });

  it('a revoked key → 401', async () => {
    const { id, key } = await addKey(api.ctx, owner.accountId, ['all']);
    expect((await get(`Basic ${key}`)).statusCode).toBe(200);
    await revokeApiKey(api.ctx.db, announcerOf(api), id);
    const res = await get(`Basic ${key}`);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 'unauthorized', message: 'Unauthorized' });
  });

  it('an expired key → 401 at once, before the sweep job marks it inactive', async () => {
    const { key } = await addKey(api.ctx, owner.accountId, ['all'], new Date(Date.now() + 400));
    expect((await get(`Basic ${key}`)).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 500));
    expect((await get(`Basic ${key}`)).statusCode).toBe(401);
  });

  it('checks the key before the body: a bad body with no key is 401, not 400', async () => {
    const res = await call(api.app, null, 'POST', '/api/v1/folders', { nope: 1 });
    expect(res.statusCode).toBe(401);
  });
});

describe('scopes: each folders.* and templates.* endpoint needs its own scope (or all)', () => {
  const endpoints: Array<{ scope: Scope; method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: (id: string) => string; body?: unknown }> = [
    { scope: 'folders.read', method: 'GET', url: () => '/api/v1/folders' },
    { scope: 'folders.read', method: 'GET', url: (id) => `/api/v1/folders/${id}` },
    { scope: 'folders.create', method: 'POST', url: () => '/api/v1/folders', body: { name: 'x' } },
    { scope: 'folders.update', method: 'PUT', url: (id) => `/api/v1/folders/${id}`, body: { name: 'y' } },
    { scope: 'folders.delete', method: 'DELETE', url: (id) => `/api/v1/folders/${id}` },
    { scope: 'templates.read', method: 'GET', url: () => '/api/v1/templates' },
    { scope: 'templates.read', method: 'GET', url: (id) => `/api/v1/templates/${id}` },
    { scope: 'templates.create', method: 'POST', url: () => '/api/v1/templates', body: { name: 't', qrOptions: {} } },
    { scope: 'templates.update', method: 'PUT', url: (id) => `/api/v1/templates/${id}`, body: { name: 'u' } },
    { scope: 'templates.delete', method: 'DELETE', url: (id) => `/api/v1/templates/${id}` },
  ];

  async function makeTarget(kind: 'folders' | 'templates') {
    const body = kind === 'folders' ? { name: 'target' } : { name: 'target', qrOptions: {} };
    const res = await call(api.app, owner.key, 'POST', `/api/v1/${kind}`, body);
    return res.json().id as string;
  }

  it.each(endpoints)('$method $scope', async ({ scope, method, url, body }) => {
    const id = await makeTarget(scope.startsWith('folders') ? 'folders' : 'templates');
    const others = (await import('#domain/accounts/scopes.js')).SCOPES.filter((s) => s !== scope && s !== 'all');
    const without = await addKey(api.ctx, owner.accountId, others);
    const denied = await call(api.app, without.key, method, url(id), body);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ code: 'forbidden', message: 'You do not have permission to perform this action.' });

    const only = await addKey(api.ctx, owner.accountId, [scope]);
    expect((await call(api.app, only.key, method, url(id), body)).statusCode).toBe(200);

    const id2 = await makeTarget(scope.startsWith('folders') ? 'folders' : 'templates');
    const all = await addKey(api.ctx, owner.accountId, ['all']);
    expect((await call(api.app, all.key, method, url(id2), body)).statusCode).toBe(200);
  });
});

describe('plan rule: API key management is unavailable on starter and enterprise (401, not 403)', () => {
  it.each(['starter', 'enterprise'] as const)('%s → 401 on every /api-keys endpoint, even with scope all', async (plan) => {
    const acct = await createTestAccount(api.ctx, { plan, scopes: ['all'] });
    for (const [method, url, body] of [
      ['GET', '/api/v1/api-keys', undefined],
      ['POST', '/api/v1/api-keys', { name: 'n', scopes: ['all'] }],
      ['DELETE', `/api/v1/api-keys/${acct.keyId}`, undefined],
    ] as const) {
      const res = await call(api.app, acct.key, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json()).toEqual({ code: 'plan_feature_unavailable', message: 'Unauthorized' });
    }
    // The same key still works where the plan does not matter.
    expect((await call(api.app, acct.key, 'GET', '/api/v1/folders')).statusCode).toBe(200);
  });

  it.each(['pro', 'business'] as const)('%s may manage keys', async (plan) => {
    const acct = await createTestAccount(api.ctx, { plan, scopes: ['all'] });
    expect((await call(api.app, acct.key, 'GET', '/api/v1/api-keys')).statusCode).toBe(200);
  });

  it('on an allowed plan, a key without `all` → 403', async () => {
    const acct = await createTestAccount(api.ctx, { plan: 'pro', scopes: ['folders.read', 'folders.create'] });
    expect((await call(api.app, acct.key, 'GET', '/api/v1/api-keys')).statusCode).toBe(403);
  });
});
