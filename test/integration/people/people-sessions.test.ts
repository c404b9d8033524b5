/**
 * People sign in as people: the session cookie, its end (sign out, everywhere, idle, absolute), the
 * CSRF check on cookie-carrying writes, roles on top of scopes, and keys worth no more than the
 * role of the person who made them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addKey,
  call,
  createLinkVia,
  createTestAccount,
  startTestApi,
  announcerOf,
  type TestAccount,
  type TestApi,
} from '../../support/harness.js';
import { callAs, createTestPerson, signIn } from '../../support/people.js';
import { createApiKey } from '#domain/accounts/api-keys.js';
import { addMembership, announceMemberChange } from '#domain/people/users.js';

let api: TestApi;
let account: TestAccount;

beforeAll(async () => {
  api = await startTestApi({ SIGN_IN_FAILURE_LIMIT: '3' });
  account = await createTestAccount(api.ctx, { name: 'Aroma Lisboa' });
}, 60_000);
afterAll(() => api.close());

describe('signing in', () => {
  it('sets an HttpOnly SameSite=Lax cookie that opens the api as the person, with their role', async () => {
    const ana = await createTestPerson(api.ctx, account.accountId, 'editor', { name: 'Ana' });
    const res = await api.app.inject({
      method: 'POST',
      url: '/api/v1/sessions',
      payload: { email: ana.email.toUpperCase(), password: ana.password },
    });
    expect(res.statusCode).toBe(200);
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/^qrlinks_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/);
    expect(setCookie).not.toContain('Secure');
    const cookie = setCookie.split(';')[0]!;
    const me = await callAs(api.app, cookie, 'GET', '/api/v1/me');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      account: { id: account.accountId, name: 'Aroma Lisboa' },
      key: null,
      user: { id: ana.userId, email: ana.email, name: 'Ana', twoFactor: false },
      role: 'editor',
      accounts: [{ id: account.accountId, role: 'editor' }],
    });
    expect(me.json().scopes).not.toContain('all');
    expect(me.json().scopes).toContain('links.create');
  });

  it('answers a wrong password and an unknown address alike, and limits failures per address', async () => {
    const bo = await createTestPerson(api.ctx, account.accountId, 'viewer');
    const wrong = await api.app.inject({
      method: 'POST',
      url: '/api/v1/sessions',
      payload: { email: bo.email, password: 'not it at all' },
    });
    const nobody = await api.app.inject({
      method: 'POST',
      url: '/api/v1/sessions',
      payload: { email: 'nobody@example.com', password: 'not it at all' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(nobody.statusCode).toBe(401);
    expect(wrong.json()).toEqual(nobody.json());
    expect(wrong.json().code).toBe('invalid_credentials');
    await api.app.inject({ method: 'POST', url: '/api/v1/sessions', payload: { email: bo.email, password: 'again not it' } });
    await api.app.inject({ method: 'POST', url: '/api/v1/sessions', payload: { email: bo.email, password: 'third time' } });
    // The limit (3 here) is reached: even the right password waits for the window, with Retry-After.
    const limited = await api.app.inject({ method: 'POST', url: '/api/v1/sessions', payload: { email: bo.email, password: bo.password } });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('sign_in_attempts_exceeded');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another client address is not held back by these failures.
    const elsewhere = await api.app.inject({
      method: 'POST',
      url: '/api/v1/sessions',
      payload: { email: bo.email, password: bo.password },
      remoteAddress: '198.51.100.7',
    });
    expect(elsewhere.statusCode).toBe(200);
  });

  it('issues a fresh token at sign-in whatever cookie the browser already had (no session fixation)', async () => {
    const p = await createTestPerson(api.ctx, account.accountId, 'viewer');
    const planted = `qrlinks_session=${'B'.repeat(43)}`;
    const res = await api.app.inject({
      method: 'POST',
      url: '/api/v1/sessions',
      payload: { email: p.email, password: p.password },
      headers: { cookie: planted },
    });
    expect(res.statusCode).toBe(200);
    const issued = String(res.headers['set-cookie']).split(';')[0]!;
    expect(issued).not.toBe(planted);
    expect((await callAs(api.app, planted, 'GET', '/api/v1/me')).statusCode).toBe(401);
    expect((await callAs(api.app, issued, 'GET', '/api/v1/me')).statusCode).toBe(200);
  });

  it('refuses another site signing a visitor in', async () => {
    const cy = await createTestPerson(api.ctx, account.accountId, 'viewer');
    const res = await api.app.inject({
      method: 'POST',
      url: '/api/v1/sessions',
      payload: { email: cy.email, password: cy.password },
      headers: { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('csrf_rejected');
  });
});

describe('ending sessions', () => {
  it('sign out ends the session at once; the old cookie is refused', async () => {
    const p = await createTestPerson(api.ctx, account.accountId, 'editor');
    const cookie = await signIn(api.app, p.email, p.password);
    expect((await callAs(api.app, cookie, 'GET', '/api/v1/me')).statusCode).toBe(200);
    const out = await callAs(api.app, cookie, 'DELETE', '/api/v1/sessions/current');
    expect(out.statusCode).toBe(200);
    expect(String(out.headers['set-cookie'])).toContain('Max-Age=0');
    expect((await callAs(api.app, cookie, 'GET', '/api/v1/me')).statusCode).toBe(401);
  });

  it('"sign out everywhere else" ends the other sessions and keeps this one', async () => {
    const p = await createTestPerson(api.ctx, account.accountId, 'editor');
    const phone = await signIn(api.app, p.email, p.password);
    const laptop = await signIn(api.app, p.email, p.password);
    const list = await callAs(api.app, laptop, 'GET', '/api/v1/sessions');
    expect(list.json().data).toHaveLength(2);
    expect(list.json().data.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    expect((await callAs(api.app, laptop, 'DELETE', '/api/v1/sessions')).statusCode).toBe(200);
    expect((await callAs(api.app, phone, 'GET', '/api/v1/me')).statusCode).toBe(401);
    expect((await callAs(api.app, laptop, 'GET', '/api/v1/me')).statusCode).toBe(200);
  });

  it('a session idle past its limit, or past its absolute end, is refused', async () => {
    const p = await createTestPerson(api.ctx, account.accountId, 'viewer');
    const idle = await signIn(api.app, p.email, p.password);
    const old = await signIn(api.app, p.email, p.password);
    const pool = api.ctx.database.pool;
    await pool.query(
      `update sessions set last_seen_at = now() - interval '8 days' where user_id = $1 and created_at = (select min(created_at) from sessions where user_id = $1)`,
      [p.userId],
    );
    await pool.query(
      `update sessions set expires_at = now() - interval '1 second' where user_id = $1 and last_seen_at > now() - interval '1 day'`,
      [p.userId],
    );
    // Held answers last seconds and are dropped by a people change: announce one as a role change would.
    await announceMemberChange(api.ctx.db, announcerOf(api), account.accountId, [p.userId]);
    await expect.poll(async () => (await callAs(api.app, idle, 'GET', '/api/v1/me')).statusCode).toBe(401);
    await expect.poll(async () => (await callAs(api.app, old, 'GET', '/api/v1/me')).statusCode).toBe(401);
  });

  it('a forged or malformed cookie is a 401, never a 500', async () => {
    for (const cookie of [
      'qrlinks_session=',
      'qrlinks_session=x',
      `qrlinks_session=${'A'.repeat(43)}`,
      `qrlinks_session=${'%00'.repeat(20)}`,
    ]) {
      expect((await callAs(api.app, cookie, 'GET', '/api/v1/me')).statusCode).toBe(401);
    }
  });
});

describe('the CSRF check on writes made with the cookie', () => {
  it('refuses another site, a sibling site and a write with no origin at all; lets the console through', async () => {
    const p = await createTestPerson(api.ctx, account.accountId, 'editor');
    const cookie = await signIn(api.app, p.email, p.password);
    const body = { name: 'CSRF', type: 'website', data: { url: 'https://example.com/' } };
    const post = (headers: Record<string, string>) =>
      api.app.inject({ method: 'POST', url: '/api/v1/links', payload: body, headers: { cookie, ...headers } });
    for (const headers of <Record<string, string>[]>[
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'https://evil.example' },
      { origin: 'null' },
      {},
    ]) {
      const res = await post(headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.json().code).toBe('csrf_rejected');
    }
    expect((await post({ 'sec-fetch-site': 'same-origin' })).statusCode).toBe(200);
    expect((await post({ origin: 'http://localhost:8080' })).statusCode).toBe(403);
    expect((await post({ origin: 'http://localhost:3000' })).statusCode).toBe(200);
    // A read needs no such header; a key needs none either (machines send no cookie).
    expect((await api.app.inject({ method: 'GET', url: '/api/v1/links', headers: { cookie } })).statusCode).toBe(200);
    expect((await call(api.app, account.key, 'POST', '/api/v1/links', body)).statusCode).toBe(200);
  });
});

describe('roles', () => {
  it('a viewer reads but cannot write; an editor cannot manage keys; an admin can', async () => {
    const viewer = await signIn(api.app, ...creds(await createTestPerson(api.ctx, account.accountId, 'viewer')));
    const editor = await signIn(api.app, ...creds(await createTestPerson(api.ctx, account.accountId, 'editor')));
    const admin = await signIn(api.app, ...creds(await createTestPerson(api.ctx, account.accountId, 'admin')));
    expect((await callAs(api.app, viewer, 'GET', '/api/v1/links')).statusCode).toBe(200);
    const write = await callAs(api.app, viewer, 'POST', '/api/v1/folders', { name: 'Nope' });
    expect(write.statusCode).toBe(403);
    expect(write.json().code).toBe('forbidden');
    const keyByEditor = await callAs(api.app, editor, 'POST', '/api/v1/api-keys', { name: 'Zapier', scopes: ['all'] });
    expect(keyByEditor.statusCode).toBe(403);
    expect(keyByEditor.json().code).toBe('role_required');
    const keyByAdmin = await callAs(api.app, admin, 'POST', '/api/v1/api-keys', { name: 'Zapier', scopes: ['all'] });
    expect(keyByAdmin.statusCode).toBe(200);
    // The key remembers its maker: it answers /me as that person, at their role.
    const me = await call(api.app, keyByAdmin.json().key, 'GET', '/api/v1/me');
    expect(me.json()).toMatchObject({ role: 'admin', key: { name: 'Zapier' }, user: { email: expect.any(String) } });
  });

  it("a key is worth its maker's current role, and nothing once they leave", async () => {
    const maker = await createTestPerson(api.ctx, account.accountId, 'admin');
    const { key } = await createApiKey(api.ctx.db, { accountId: account.accountId, scopes: ['all'], createdByUserId: maker.userId });
    expect((await call(api.app, key, 'GET', '/api/v1/api-keys')).statusCode).toBe(200);
    // Demoted to viewer: the key reads, no longer writes nor manages keys.
    await addMembership(api.ctx.db, { accountId: account.accountId, userId: maker.userId, role: 'viewer' });
    await announceMemberChange(api.ctx.db, announcerOf(api), account.accountId, [maker.userId]);
    await expect.poll(async () => (await call(api.app, key, 'GET', '/api/v1/api-keys')).statusCode).toBe(403);
    expect((await call(api.app, key, 'POST', '/api/v1/folders', { name: 'x' })).statusCode).toBe(403);
    expect((await call(api.app, key, 'GET', '/api/v1/links')).statusCode).toBe(200);
    // Removed from the account: the key is refused outright.
    await api.ctx.database.pool.query('delete from memberships where user_id = $1', [maker.userId]);
    await announceMemberChange(api.ctx.db, announcerOf(api), account.accountId, [maker.userId]);
    await expect.poll(async () => (await call(api.app, key, 'GET', '/api/v1/links')).statusCode).toBe(401);
  });

  it("an operator's key (no maker) keeps doing what it did", async () => {
    const key = (await addKey(api.ctx, account.accountId, ['links.read', 'links.create'])).key;
    expect((await createLinkVia(api.app, key)).slug).toBeTruthy();
  });
});

function creds(p: { email: string; password: string }): [string, string] {
  return [p.email, p.password];
}
