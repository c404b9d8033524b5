import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { folders, links } from '#domain/schema.js';
import { call, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';

let api: TestApi;
let me: TestAccount;
let other: TestAccount;
const LIST_DATE = /^(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{2}, \d{4}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

beforeAll(async () => {
  api = await startTestApi();
  me = await createTestAccount(api.ctx);
  other = await createTestAccount(api.ctx);
});
afterAll(() => api.close());

const createFolder = async (acct: TestAccount, name: string) =>
  (await call(api.app, acct.key, 'POST', '/api/v1/folders', { name })).json<{ id: string; name: string }>();

describe('folders', () => {
  it('create answers with the bare folder and ISO timestamps', async () => {
    const res = await call(api.app, me.key, 'POST', '/api/v1/folders', { name: 'Menus' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).not.toHaveProperty('data');
    expect(body).toMatchObject({ name: 'Menus', account_id: me.accountId, created_by: me.keyId, updated_by: me.keyId });
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.created_at).toMatch(ISO);
    expect(body.updated_at).toMatch(ISO);
  });

  it('lists newest first with Mon DD, YYYY dates', async () => {
    const acct = await createTestAccount(api.ctx);
    const a = await createFolder(acct, 'first');
    const b = await createFolder(acct, 'second');
    const c = await createFolder(acct, 'third');
    const res = await call(api.app, acct.key, 'GET', '/api/v1/folders');
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data.map((f: { id: string }) => f.id)).toEqual([c.id, b.id, a.id]);
    for (const f of data) {
      expect(f.created_at).toMatch(LIST_DATE);
      expect(f.updated_at).toMatch(LIST_DATE);
    }
  });

  it('formats list dates in UTC with a zero-padded day', async () => {
    const f = await createFolder(me, 'dated');
    await api.ctx.db
      .update(folders)
      .set({ createdAt: new Date('2026-11-05T23:30:00-05:00') })
      .where(eq(folders.id, f.id));
    const { data } = (await call(api.app, me.key, 'GET', `/api/v1/folders/${f.id}`)).json();
    expect(data.created_at).toBe('Nov 06, 2026');
  });

  it('gets one folder wrapped in data', async () => {
    const f = await createFolder(me, 'one');
    const res = await call(api.app, me.key, 'GET', `/api/v1/folders/${f.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: f.id, name: 'one' });
  });

  it('renames and answers {data: folder}', async () => {
    const f = await createFolder(me, 'old');
    const res = await call(api.app, me.key, 'PUT', `/api/v1/folders/${f.id}`, { name: 'new' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: f.id, name: 'new' });
    expect((await call(api.app, me.key, 'GET', `/api/v1/folders/${f.id}`)).json().data.name).toBe('new');
  });

  it('deletes with {message: Folder deleted}; its links stay with folder_id null', async () => {
    const f = await createFolder(me, 'doomed');
    const [link] = await api.ctx.db
      .insert(links)
      .values({ accountId: me.accountId, slug: `f${Date.now()}`, name: 'l', type: 'website', metaData: {}, qrOptions: {}, folderId: f.id })
      .returning();
    const res = await call(api.app, me.key, 'DELETE', `/api/v1/folders/${f.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Folder deleted' });
    const [after] = await api.ctx.db.select().from(links).where(eq(links.id, link!.id));
    expect(after).toBeDefined();
    expect(after!.folderId).toBeNull();
    expect((await call(api.app, me.key, 'GET', `/api/v1/folders/${f.id}`)).statusCode).toBe(404);
  });

  it.each([
    ['GET', undefined],
    ['PUT', { name: 'x' }],
    ['DELETE', undefined],
  ] as const)('%s of an absent folder → 404 {message: Folder not found}', async (method, body) => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const res = await call(api.app, me.key, method, `/api/v1/folders/${id}`, body);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: 'folder_not_found', message: 'Folder not found' });
    }
  });

  it("another account's folder is a 404 on every endpoint, and stays unchanged", async () => {
    const theirs = await createFolder(other, 'private');
    for (const [method, body] of [['GET'], ['PUT', { name: 'hijacked' }], ['DELETE']] as const) {
      const res = await call(api.app, me.key, method, `/api/v1/folders/${theirs.id}`, body);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: 'folder_not_found', message: 'Folder not found' });
    }
    const mine = (await call(api.app, me.key, 'GET', '/api/v1/folders')).json().data;
    expect(mine.find((f: { id: string }) => f.id === theirs.id)).toBeUndefined();
    const still = (await call(api.app, other.key, 'GET', `/api/v1/folders/${theirs.id}`)).json().data;
    expect(still.name).toBe('private');
  });
});

describe('folders: bad input is a 400 naming the field, never a 500', () => {
  it.each([
    ['missing name', {}, 'name'],
    ['name not a string', { name: 42 }, 'name'],
    ['name null', { name: null }, 'name'],
    ['empty name', { name: '   ' }, 'name'],
    ['name of 256 characters', { name: 'x'.repeat(256) }, 'name'],
    ['unknown member', { name: 'ok', color: 'red' }, 'color'],
  ])('%s', async (_what, body, path) => {
    for (const [method, url] of [
      ['POST', '/api/v1/folders'],
      ['PUT', `/api/v1/folders/${(await createFolder(me, 'target')).id}`],
    ] as const) {
      const res = await call(api.app, me.key, method, url, body);
      expect(res.statusCode, `${method} ${JSON.stringify(body)}`).toBe(400);
      expect(res.json().message).toBe('Validation failed');
      expect(res.json().errors.map((e: { path: string }) => e.path)).toContain(path);
    }
  });

  it('accepts a name of exactly 255 characters', async () => {
    expect((await call(api.app, me.key, 'POST', '/api/v1/folders', { name: 'x'.repeat(255) })).statusCode).toBe(200);
  });

  it('a body that is not an object → 400', async () => {
    for (const body of [[{ name: 'x' }], 'just a string', 7]) {
      const res = await call(api.app, me.key, 'POST', '/api/v1/folders', JSON.stringify(body), { 'content-type': 'application/json' });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Validation failed');
    }
  });

  it('malformed JSON → 400', async () => {
    const res = await call(api.app, me.key, 'POST', '/api/v1/folders', '{"name": ', { 'content-type': 'application/json' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'validation_failed',
      message: 'Validation failed',
      errors: [{ path: '(body)', message: 'Body is not valid JSON' }],
    });
  });

  it('a content type other than JSON → 415', async () => {
    for (const type of ['text/plain', 'application/xml', 'application/x-www-form-urlencoded']) {
      const res = await call(api.app, me.key, 'POST', '/api/v1/folders', 'name=x', { 'content-type': type });
      expect(res.statusCode, type).toBe(415);
      expect(res.json().message).toMatch(/Unsupported Content-Type/);
    }
  });

  it('a body over the limit → 413', async () => {
    const res = await call(api.app, me.key, 'POST', '/api/v1/folders', JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }), {
      'content-type': 'application/json',
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ code: 'payload_too_large', message: 'Request body is too large' });
  });

  it('an unknown route → 404 with a message', async () => {
    const res = await call(api.app, me.key, 'GET', '/api/v1/nothing-here');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'not_found', message: 'Route not found' });
  });
});

describe('HTTP details', () => {
  it('a trailing slash names the same resource', async () => {
    expect((await call(api.app, me.key, 'GET', '/api/v1/folders/')).statusCode).toBe(200);
  });

  it('DELETE with Content-Type: application/json and no body is fine', async () => {
    const f = await createFolder(me, 'empty-body delete');
    const res = await call(api.app, me.key, 'DELETE', `/api/v1/folders/${f.id}`, undefined, { 'content-type': 'application/json' });
    expect(res.statusCode).toBe(200);
  });

  it('POST with Content-Type: application/json and no body → 400 naming the missing body', async () => {
    const res = await call(api.app, me.key, 'POST', '/api/v1/folders', undefined, { 'content-type': 'application/json' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Validation failed');
  });

  it('JSON with a __proto__ key is refused, not merged', async () => {
    const res = await call(api.app, me.key, 'POST', '/api/v1/folders', '{"name":"x","__proto__":{"admin":true}}', {
      'content-type': 'application/json',
    });
    expect(res.statusCode).toBe(400);
  });

  it('returns the caller’s X-Request-Id, or makes one', async () => {
    const given = await call(api.app, me.key, 'GET', '/api/v1/folders', undefined, { 'x-request-id': 'trace-123' });
    expect(given.headers['x-request-id']).toBe('trace-123');
    const made = await call(api.app, me.key, 'GET', '/api/v1/folders');
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('rate limit', () => {
  it('answers 429 with Retry-After once a key spends its budget, per key', async () => {
    const limited = await startTestApi({
      RATE_LIMIT_MAX: '3',
      RATE_LIMIT_WINDOW_MS: '60000',
      REDIS_NAMESPACE: `qrlinks-test-rl-${Date.now()}`,
    });
    try {
      const a = await createTestAccount(limited.ctx);
      const b = await createTestAccount(limited.ctx);
      for (let i = 0; i < 3; i++) expect((await call(limited.app, a.key, 'GET', '/api/v1/folders')).statusCode).toBe(200);
      const res = await call(limited.app, a.key, 'GET', '/api/v1/folders');
      expect(res.statusCode).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.json().message).toMatch(/Too many requests/);
      expect((await call(limited.app, b.key, 'GET', '/api/v1/folders')).statusCode).toBe(200);
      expect((await limited.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
