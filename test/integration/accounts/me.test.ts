import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addKey, call, createTestAccount, startTestApi, type TestApi } from '../../support/harness.js';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

describe('GET /me', () => {
  it('answers the calling key, its account and what the plan allows, for a key of any scope', async () => {
    const owner = await createTestAccount(api.ctx, { plan: 'business' });
    const expiresAt = new Date(Date.now() + 3_600_000);
    const narrow = await addKey(api.ctx, owner.accountId, ['links.read'], expiresAt);
    const res = await call(api.app, narrow.key, 'GET', '/api/v1/me');
    expect(res.statusCode).toBe(200);
    const name = (await api.ctx.database.pool.query('select name from accounts where id = $1', [owner.accountId])).rows[0].name;
    expect(res.json()).toEqual({
      account: { id: owner.accountId, name, plan: 'business' },
      key: { id: narrow.id, name: null, scopes: ['links.read'], expiresAt: expiresAt.toISOString() },
      // An operator's key (made by the CLI, no person behind it) counts as the owner, within its own scopes.
      user: null,
      role: 'owner',
      scopes: ['links.read'],
      folderIds: null,
      accounts: [{ id: owner.accountId, name, plan: 'business', role: 'owner' }],
      plan: { apiKeyManagement: true },
      shortUrlBase: api.ctx.config.SHORT_URL_BASE.replace(/\/+$/, ''),
    });
  });

  it('says a starter plan cannot manage keys over HTTP, and a key without expiry has null', async () => {
    const starter = await createTestAccount(api.ctx, { plan: 'starter' });
    const body = (await call(api.app, starter.key, 'GET', '/api/v1/me')).json();
    expect(body.plan).toEqual({ apiKeyManagement: false });
    expect(body.key).toMatchObject({ id: starter.keyId, scopes: ['all'], expiresAt: null });
  });

  it('is a 401 without a valid key', async () => {
    expect((await call(api.app, null, 'GET', '/api/v1/me')).statusCode).toBe(401);
    expect((await call(api.app, 'key-notarealkeynotarealkeynotareal', 'GET', '/api/v1/me')).statusCode).toBe(401);
  });
});
