import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';

let api: TestApi;
let me: TestAccount;

beforeAll(async () => {
  api = await startTestApi();
  me = await createTestAccount(api.ctx, { plan: 'business' });
});
afterAll(() => api.close());

describe('/api-keys', () => {
  it('creates a key that is shown once and works at once with its scopes', async () => {
    const res = await call(api.app, me.key, 'POST', '/api/v1/api-keys', { name: 'ci', scopes: ['folders.read'] });
    expect(res.statusCode).toBe(200);
    const { id, key } = res.json();
    expect(key).toMatch(/^key-[A-Za-z0-9]{32}$/);
    expect((await call(api.app, key, 'GET', '/api/v1/folders')).statusCode).toBe(200);
    expect((await call(api.app, key, 'POST', '/api/v1/folders', { name: 'x' })).statusCode).toBe(403);

    const list = (await call(api.app, me.key, 'GET', '/api/v1/api-keys')).json().data;
    const listed = list.find((k: { id: string }) => k.id === id);
    expect(listed).toMatchObject({ name: 'ci', scopes: ['folders.read'], active: true, expires_at: null });
    expect(listed.prefix).toBe(key.slice(0, 10));
    expect(JSON.stringify(list)).not.toContain(key);
  });

  it('stores only the SHA-256 of a key', async () => {
    const { key } = (await call(api.app, me.key, 'POST', '/api/v1/api-keys', { name: 'hash', scopes: ['all'] })).json();
    const rows = await api.ctx.database.pool.query('select key_hash from api_keys where key_prefix = $1', [key.slice(0, 10)]);
    const { createHash } = await import('node:crypto');
    expect(rows.rows.map((r) => r.key_hash)).toContain(createHash('sha256').update(key).digest('hex'));
    const raw = await api.ctx.database.pool.query('select count(*)::int as n from api_keys where key_hash = $1 or key_prefix = $1', [key]);
    expect(raw.rows[0].n).toBe(0);
  });

  it('revokes: the key stops working and the list shows it inactive', async () => {
    const { id, key } = (await call(api.app, me.key, 'POST', '/api/v1/api-keys', { name: 'tmp', scopes: ['all'] })).json();
    const res = await call(api.app, me.key, 'DELETE', `/api/v1/api-keys/${id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'API key revoked' });
    expect((await call(api.app, key, 'GET', '/api/v1/folders')).statusCode).toBe(401);
    const listed = (await call(api.app, me.key, 'GET', '/api/v1/api-keys')).json().data.find((k: { id: string }) => k.id === id);
    expect(listed.active).toBe(false);
    expect(listed.revoked_at).not.toBeNull();
  });

  it('an expiring key works until its time and not after', async () => {
    const expiresAt = new Date(Date.now() + 600).toISOString();
    const { key } = (await call(api.app, me.key, 'POST', '/api/v1/api-keys', { name: 'short', scopes: ['all'], expiresAt })).json();
    expect((await call(api.app, key, 'GET', '/api/v1/folders')).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 700));
    expect((await call(api.app, key, 'GET', '/api/v1/folders')).statusCode).toBe(401);
  });

  it("another account's key cannot be revoked (404) and keeps working", async () => {
    const stranger = await createTestAccount(api.ctx, { plan: 'pro' });
    const res = await call(api.app, me.key, 'DELETE', `/api/v1/api-keys/${stranger.keyId}`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'api_key_not_found', message: 'API key not found' });
    expect((await call(api.app, stranger.key, 'GET', '/api/v1/folders')).statusCode).toBe(200);
    const mine = (await call(api.app, me.key, 'GET', '/api/v1/api-keys')).json().data;
    expect(mine.some((k: { id: string }) => k.id === stranger.keyId)).toBe(false);
  });

  it.each([
    ['no scopes', { name: 'n', scopes: [] }, 'scopes'],
    ['unknown scope', { name: 'n', scopes: ['links.read', 'root'] }, 'scopes[1]'],
    ['scopes not an array', { name: 'n', scopes: 'all' }, 'scopes'],
    ['missing name', { scopes: ['all'] }, 'name'],
    ['name too long', { name: 'n'.repeat(256), scopes: ['all'] }, 'name'],
    ['expiresAt not a date', { name: 'n', scopes: ['all'], expiresAt: 'tomorrow' }, 'expiresAt'],
    ['expiresAt in the past', { name: 'n', scopes: ['all'], expiresAt: '2020-01-01T00:00:00Z' }, 'expiresAt'],
    ['unknown member', { name: 'n', scopes: ['all'], admin: true }, 'admin'],
  ])('bad input: %s → 400', async (_what, body, path) => {
    const res = await call(api.app, me.key, 'POST', '/api/v1/api-keys', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.map((e: { path: string }) => e.path)).toContain(path);
  });
});
