/**
 * A person's own account: their name, changing their password (the other sessions end, a mail
 * says so) and resetting a forgotten one by a mailed link (once, 30 minutes, no enumeration,
 * limited), over a real SMTP server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';
import { callAs, createTestPerson, signIn } from '../../support/people.js';
import { startSmtpServer, type ReceivedMail, type RunningSmtp } from '../../support/smtp.js';

let api: TestApi;
let smtp: RunningSmtp;
let account: TestAccount;
let clients = 0;

beforeAll(async () => {
  smtp = await startSmtpServer();
  api = await startTestApi({ SMTP_URL: smtp.url, PASSWORD_RESET_CLIENT_LIMIT: '8', SIGN_IN_FAILURE_LIMIT: '3' });
  account = await createTestAccount(api.ctx, { name: 'Aroma Lisboa' });
}, 60_000);
afterAll(async () => {
  await api.close();
  await smtp.close();
});

/** A client address of its own, so the per-client limits of one test leave the others alone. */
const newClient = () => `198.51.100.${++clients}`;

const post = (url: string, payload: object, remoteAddress = '127.0.0.1') =>
  api.app.inject({ method: 'POST', url, payload, remoteAddress, headers: { 'sec-fetch-site': 'same-origin' } });

const signInRes = (email: string, password: string) => post('/api/v1/sessions', { email, password });

function tokenOf(mail: ReceivedMail): string {
  const token = /#\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
  if (!token) throw new Error(`no reset link in: ${mail.text}`);
  return token;
}

describe('profile', { timeout: 120_000 }, () => {
  it('PATCH /me renames the signed-in person and answers the /me view', async () => {
    const p = await createTestPerson(api.ctx, account.accountId, 'viewer', { name: 'Ana' });
    const cookie = await signIn(api.app, p.email, p.password);
    const res = await callAs(api.app, cookie, 'PATCH', '/api/v1/me', { name: '  Ana Sousa ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ user: { id: p.userId, name: 'Ana Sousa' }, role: 'viewer', account: { id: account.accountId } });
    expect((await callAs(api.app, cookie, 'GET', '/api/v1/me')).json().user.name).toBe('Ana Sousa');
    const cleared = await callAs(api.app, cookie, 'PATCH', '/api/v1/me', { name: '   ' });
    expect(cleared.json().user.name).toBeNull();
  });

  it('refuses a name with control characters or text-direction marks (400 at name), and a key (403)', async () => {
    const p = await createTestPerson(api.ctx, account.accountId, 'viewer', { name: 'Bo' });
    const cookie = await signIn(api.app, p.email, p.password);
    for (const name of ['Bo\nBcc: x@example.com', 'Bo\u0007', 'Bo\u202egnp.exe', 'x'.repeat(101)]) {
      const res = await callAs(api.app, cookie, 'PATCH', '/api/v1/me', { name });
      expect(res.statusCode, JSON.stringify(name)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed', errors: [{ path: 'name' }] });
    }
    expect((await callAs(api.app, cookie, 'GET', '/api/v1/me')).json().user.name).toBe('Bo');
    const byKey = await call(api.app, account.key, 'PATCH', '/api/v1/me', { name: 'Robot' });
    expect(byKey.statusCode).toBe(403);
    expect(byKey.json().message).toMatch(/signed-in person/);
  });
});

describe('changing the password', { timeout: 120_000 }, () => {
  it('ends the other sessions at once, keeps this one, refuses the old password, and mails the person', async () => {
    const p = await createTestPerson(api.ctx, account.accountId, 'editor');
    const phone = await signIn(api.app, p.email, p.password);
    const laptop = await signIn(api.app, p.email, p.password);
    // The phone's session is held in memory by now: its end must still count at once.
    expect((await callAs(api.app, phone, 'GET', '/api/v1/me')).statusCode).toBe(200);
    const newPassword = 'a brand new passphrase';
    const res = await callAs(api.app, laptop, 'POST', '/api/v1/me/password', { currentPassword: p.password, newPassword });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Password changed', otherSessionsEnded: 1 });
    expect((await callAs(api.app, phone, 'GET', '/api/v1/me')).statusCode).toBe(401);
    expect((await callAs(api.app, laptop, 'GET', '/api/v1/me')).statusCode).toBe(200);
    const old = await signInRes(p.email, p.password);
    expect(old.statusCode).toBe(401);
    expect(old.json().code).toBe('invalid_credentials');
    expect((await signInRes(p.email, newPassword)).statusCode).toBe(200);
    const mail = await smtp.waitForMail((m) => m.envelope.to.includes(p.email));
    expect(mail.subject).toBe('Your qrlinks password was changed');
  });

  it('refuses a wrong current password (403, counted), a weak new one (400), and a key (403)', async () => {
    const p = await createTestPerson(api.ctx, account.accountId, 'editor');
    const cookie = await signIn(api.app, p.email, p.password);
    const wrong = await callAs(api.app, cookie, 'POST', '/api/v1/me/password', {
      currentPassword: 'not the password',
      newPassword: 'a brand new passphrase',
    });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().code).toBe('password_incorrect');
    const weak = await callAs(api.app, cookie, 'POST', '/api/v1/me/password', { currentPassword: p.password, newPassword: 'short' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toMatchObject({ code: 'password_too_weak', errors: [{ path: 'newPassword' }] });
    const byKey = await call(api.app, account.key, 'POST', '/api/v1/me/password', {
      currentPassword: p.password,
      newPassword: 'a brand new passphrase',
    });
    expect(byKey.statusCode).toBe(403);
    // Nothing changed: the password still signs in.
    expect((await signInRes(p.email, p.password)).statusCode).toBe(200);
  });

  it('a stolen session cannot guess the password for long: wrong guesses count with failed sign-ins (429)', async () => {
    const p = await createTestPerson(api.ctx, account.accountId, 'editor');
    const cookie = await signIn(api.app, p.email, p.password);
    const guess = (currentPassword: string) =>
      callAs(api.app, cookie, 'POST', '/api/v1/me/password', { currentPassword, newPassword: 'a brand new passphrase' });
    for (const pw of ['guess one here', 'guess two here', 'guess three here']) expect((await guess(pw)).statusCode).toBe(403);
    const res = await guess(p.password);
    expect(res.statusCode).toBe(429);
    expect(res.json().code).toBe('sign_in_attempts_exceeded');
    expect((await signInRes(p.email, p.password)).statusCode).toBe(429);
  });
});

describe('resetting a forgotten password', { timeout: 120_000 }, () => {
  it('mails a link that sets the password once, ends every session and signs in', async () => {
    const p = await createTestPerson(api.ctx, account.accountId, 'editor', { name: 'Cy' });
    const phone = await signIn(api.app, p.email, p.password);
    const laptop = await signIn(api.app, p.email, p.password);
    const asked = await post('/api/v1/password-resets', { email: p.email.toUpperCase() }, newClient());
    expect(asked.statusCode).toBe(200);
    const mail = await smtp.waitForMail((m) => m.envelope.to.includes(p.email) && m.subject === 'Reset your qrlinks password');
    expect(mail.text).toContain('http://localhost:3000/#/reset-password?token=');
    const token = tokenOf(mail);

    const weak = await post('/api/v1/password-resets/complete', { token, password: 'password' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().code).toBe('password_too_weak');

    const done = await post('/api/v1/password-resets/complete', { token, password: 'a reset passphrase here' });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ user: { id: p.userId, email: p.email, name: 'Cy' }, accountId: account.accountId });
    const cookie = String(done.headers['set-cookie']).split(';')[0]!;
    expect((await callAs(api.app, cookie, 'GET', '/api/v1/me')).json().user.id).toBe(p.userId);
    for (const old of [phone, laptop]) expect((await callAs(api.app, old, 'GET', '/api/v1/me')).statusCode).toBe(401);
    expect((await signInRes(p.email, p.password)).statusCode).toBe(401);
    expect((await signInRes(p.email, 'a reset passphrase here')).statusCode).toBe(200);

    const again = await post('/api/v1/password-resets/complete', { token, password: 'yet another passphrase' });
    expect(again.statusCode).toBe(404);
    expect(again.json().code).toBe('reset_link_invalid');
  });

  it('an expired link, an unknown one and a malformed one are the same 404', async () => {
    const p = await createTestPerson(api.ctx, account.accountId, 'viewer');
    await post('/api/v1/password-resets', { email: p.email }, newClient());
    const token = tokenOf(await smtp.waitForMail((m) => m.envelope.to.includes(p.email)));
    await api.ctx.database.pool.query(`update password_resets set expires_at = now() - interval '1 second' where user_id = $1`, [p.userId]);
    for (const t of [token, 'A'.repeat(43), 'not a token', '']) {
      const res = await post('/api/v1/password-resets/complete', { token: t, password: 'a reset passphrase here' });
      expect(res.statusCode, t).toBe(404);
      expect(res.json()).toEqual({ code: 'reset_link_invalid', message: expect.any(String) });
    }
    expect((await signInRes(p.email, p.password)).statusCode).toBe(200);
  });

  it('answers an unknown address, or text that is none, exactly as a known one', async () => {
    const p = await createTestPerson(api.ctx, account.accountId, 'viewer');
    const client = newClient();
    const known = await post('/api/v1/password-resets', { email: p.email }, client);
    const unknown = await post('/api/v1/password-resets', { email: `nobody-${Date.now()}@example.com` }, client);
    const notAnAddress = await post('/api/v1/password-resets', { email: 'not an address' }, client);
    expect(known.statusCode).toBe(200);
    for (const res of [unknown, notAnAddress]) {
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(known.body);
    }
    await smtp.waitForMail((m) => m.envelope.to.includes(p.email));
  });

  it('limits a flood of requests per address and per client (429 with Retry-After)', async () => {
    const p = await createTestPerson(api.ctx, account.accountId, 'viewer');
    // Per address (5 an hour), from many clients.
    for (let i = 0; i < 5; i++) expect((await post('/api/v1/password-resets', { email: p.email }, newClient())).statusCode).toBe(200);
    const sixth = await post('/api/v1/password-resets', { email: p.email }, newClient());
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().code).toBe('password_reset_requests_exceeded');
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
    // Per client (8 in this test's config), whatever the addresses.
    const client = newClient();
    for (let i = 0; i < 8; i++) {
      expect((await post('/api/v1/password-resets', { email: `flood-${i}-${Date.now()}@example.com` }, client)).statusCode).toBe(200);
    }
    expect((await post('/api/v1/password-resets', { email: `flood-x-${Date.now()}@example.com` }, client)).statusCode).toBe(429);
  });

  it('refuses another site asking or completing (403 csrf_rejected)', async () => {
    const headers = { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' };
    for (const [url, payload] of [
      ['/api/v1/password-resets', { email: 'someone@example.com' }],
      ['/api/v1/password-resets/complete', { token: 'A'.repeat(43), password: 'a reset passphrase here' }],
    ] as const) {
      const res = await api.app.inject({ method: 'POST', url, payload, headers, remoteAddress: newClient() });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('csrf_rejected');
    }
  });
});
