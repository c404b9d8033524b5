/**
 * Two-factor sign-in: enrolling an authenticator app (codes computed here from its secret, as a
 * phone would), signing in with a code (required, checked, each used once, failures limited with
 * wrong passwords), recovery codes (once each), turning it off, and a secret that never leaves
 * the server again and is stored encrypted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';
import { callAs, createTestPerson, signIn, type TestPerson } from '../../support/people.js';
import { startSmtpServer, type RunningSmtp } from '../../support/smtp.js';
import { totpCode, totpStep } from '#domain/people/totp.js';

let api: TestApi;
let smtp: RunningSmtp;
let account: TestAccount;

beforeAll(async () => {
  smtp = await startSmtpServer();
  api = await startTestApi({ SIGN_IN_FAILURE_LIMIT: '4', SMTP_URL: smtp.url });
  account = await createTestAccount(api.ctx, { name: 'Aroma Lisboa' });
}, 60_000);
afterAll(async () => {
  await api.close();
  await smtp.close();
});

interface Enrolled extends TestPerson {
  cookie: string;
  secret: string;
  recoveryCodes: string[];
  /** The last step whose code was used: the server takes each step once. */
  lastStep: number;
}

/** A person with two-factor on, enrolled through the api with the code of the current step. */
async function enrolled(): Promise<Enrolled> {
  const p = await createTestPerson(api.ctx, account.accountId, 'editor');
  const cookie = await signIn(api.app, p.email, p.password);
  const started = await callAs(api.app, cookie, 'POST', '/api/v1/me/two-factor');
  expect(started.statusCode).toBe(200);
  const { secret } = started.json();
  const step = totpStep(new Date());
  const confirmed = await callAs(api.app, cookie, 'POST', '/api/v1/me/two-factor/confirm', { code: totpCode(secret, step) });
  expect(confirmed.statusCode).toBe(200);
  return { ...p, cookie, secret, recoveryCodes: confirmed.json().recoveryCodes, lastStep: step };
}

/**
 * The code of a step after the last one used: the current one, or the next if the current one is
 * used (inside the window either way, and still inside it if a step ends before the server checks).
 */
function nextCode(p: Enrolled): string {
  p.lastStep = Math.max(p.lastStep + 1, totpStep(new Date()));
  return totpCode(p.secret, p.lastStep);
}

const signInWith = (p: { email: string; password: string }, totp?: string, remoteAddress = '127.0.0.1') =>
  api.app.inject({ method: 'POST', url: '/api/v1/sessions', payload: { email: p.email, password: p.password, totp }, remoteAddress });

describe('turning two-factor on', { timeout: 120_000 }, () => {
  it('gives a secret and an otpauth URI, turns on with the app’s code, and hands out ten recovery codes once', async () => {
    const p = await createTestPerson(api.ctx, account.accountId, 'editor');
    const cookie = await signIn(api.app, p.email, p.password);
    const started = await callAs(api.app, cookie, 'POST', '/api/v1/me/two-factor');
    expect(started.statusCode).toBe(200);
    const { secret, otpauthUri } = started.json();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUri).toMatch(/^otpauth:\/\/totp\/qrlinks:/);
    expect(otpauthUri).toContain(`secret=${secret}`);
    // Pending: not on yet, and sign-in still needs no code.
    expect((await callAs(api.app, cookie, 'GET', '/api/v1/me')).json().user.twoFactor).toBe(false);
    expect((await signInWith(p)).statusCode).toBe(200);

    const step = totpStep(new Date());
    const wrong = await callAs(api.app, cookie, 'POST', '/api/v1/me/two-factor/confirm', {
      code: totpCode(secret, step + 5),
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'validation_failed', errors: [{ path: 'code' }] });

    const confirmed = await callAs(api.app, cookie, 'POST', '/api/v1/me/two-factor/confirm', { code: totpCode(secret, step) });
    expect(confirmed.statusCode).toBe(200);
    const codes: string[] = confirmed.json().recoveryCodes;
    expect(codes).toHaveLength(10);
    for (const c of codes) expect(c).toMatch(/^[a-z]{4}-[a-z]{4}-[a-z]{4}$/);
    expect((await callAs(api.app, cookie, 'GET', '/api/v1/me')).json().user.twoFactor).toBe(true);

    // Once on, the secret is never shown again.
    const again = await callAs(api.app, cookie, 'POST', '/api/v1/me/two-factor');
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('two_factor_on');
    expect((await callAs(api.app, cookie, 'POST', '/api/v1/me/two-factor/confirm', { code: totpCode(secret, step) })).statusCode).toBe(409);
  });

  it('stores the secret encrypted, and the recovery codes as hashes', async () => {
    const p = await enrolled();
    const { rows } = await api.ctx.database.pool.query('select totp_secret, recovery_code_hashes from users where id = $1', [p.userId]);
    const stored = JSON.stringify(rows[0]);
    expect(rows[0].totp_secret).toMatch(/^v1\./);
    expect(stored).not.toContain(p.secret);
    expect(stored.toLowerCase()).not.toContain(Buffer.from(p.secret).toString('hex'));
    for (const code of p.recoveryCodes) {
      expect(stored).not.toContain(code);
      expect(stored).not.toContain(code.replace(/-/g, ''));
    }
    // Sealed for this person: copied onto another person's row, it opens nothing.
    const other = await enrolled();
    await api.ctx.database.pool.query('update users set totp_secret = $1 where id = $2', [rows[0].totp_secret, other.userId]);
    const res = await signInWith(other, totpCode(p.secret, totpStep(new Date())));
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('totp_invalid');
  });

  it('is for people: a key is refused every two-factor route (403)', async () => {
    for (const [method, url, body] of [
      ['POST', '/api/v1/me/two-factor', undefined],
      ['POST', '/api/v1/me/two-factor/confirm', { code: '123456' }],
      ['DELETE', '/api/v1/me/two-factor', { password: 'whatever it is' }],
      ['POST', '/api/v1/me/two-factor/recovery-codes', { password: 'whatever it is' }],
    ] as const) {
      const res = await call(api.app, account.key, method, url, body);
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toEqual({ code: 'forbidden', message: 'Only a signed-in person has two-factor sign-in; an API key has none' });
    }
  });
});

describe('signing in with two-factor on', { timeout: 120_000 }, () => {
  it('asks for the code (totp_required), refuses a wrong one (totp_invalid), takes the right one once', async () => {
    const p = await enrolled();
    const bare = await signInWith(p);
    expect(bare.statusCode).toBe(401);
    expect(bare.json().code).toBe('totp_required');
    expect(bare.headers['set-cookie']).toBeUndefined();
    const wrong = await signInWith(p, totpCode(p.secret, p.lastStep + 7));
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe('totp_invalid');
    // A right code with a wrong password is still a wrong password.
    const badPassword = await signInWith({ email: p.email, password: 'not the password' }, totpCode(p.secret, p.lastStep + 1));
    expect(badPassword.json().code).toBe('invalid_credentials');

    const code = nextCode(p);
    const ok = await signInWith(p, code);
    expect(ok.statusCode).toBe(200);
    const cookie = String(ok.headers['set-cookie']).split(';')[0]!;
    expect((await callAs(api.app, cookie, 'GET', '/api/v1/me')).statusCode).toBe(200);
    // The same code again, within its window, is refused.
    const reused = await signInWith(p, code);
    expect(reused.statusCode).toBe(401);
    expect(reused.json().code).toBe('totp_invalid');
    // The code the app showed at confirmation is used up too.
    const confirmCode = await signInWith(p, totpCode(p.secret, p.lastStep - 1));
    expect(confirmCode.json().code).toBe('totp_invalid');
  });

  it('limits guessing codes like guessing passwords (429), but asking for the code counts nothing', async () => {
    const p = await enrolled();
    const client = '203.0.113.20';
    for (let i = 0; i < 5; i++) expect((await signInWith(p, undefined, client)).json().code).toBe('totp_required');
    for (let i = 0; i < 4; i++) expect((await signInWith(p, String(100000 + i), client)).json().code).toBe('totp_invalid');
    const limited = await signInWith(p, nextCode(p), client);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('sign_in_attempts_exceeded');
  });

  /** An invitation of `email` into a new account, made by that account's admin: its token. */
  async function invitationOf(email: string): Promise<string> {
    const other = await createTestAccount(api.ctx);
    const inviter = await createTestPerson(api.ctx, other.accountId, 'admin');
    const made = await callAs(api.app, await signIn(api.app, inviter.email, inviter.password), 'POST', '/api/v1/invitations', {
      email,
      role: 'viewer',
    });
    expect(made.statusCode, made.body).toBe(200);
    return new URL(String(made.json().link).replace('/#/', '/')).searchParams.get('token')!;
  }
  const acceptWith = (body: Record<string, unknown>, remoteAddress = '127.0.0.1') =>
    api.app.inject({ method: 'POST', url: '/api/v1/invitations/accept', payload: body, remoteAddress });

  it('accepting an invitation signs in only with the code too (an invitation is no way around it)', async () => {
    const p = await enrolled();
    const token = await invitationOf(p.email);
    const asked = await acceptWith({ token, password: p.password });
    expect(asked.statusCode).toBe(401);
    expect(asked.json().code).toBe('totp_required');
    expect(asked.headers['set-cookie']).toBeUndefined();
    expect((await acceptWith({ token, password: p.password, totp: '000000' })).json().code).toBe('totp_invalid');
    const joined = await acceptWith({ token, password: p.password, totp: nextCode(p) });
    expect(joined.statusCode, joined.body).toBe(200);
    expect(joined.json().user.id).toBe(p.userId);
  });

  it('wrong passwords at invitations count against the address, however many invitations it gets', async () => {
    const p = await createTestPerson(api.ctx, account.accountId, 'editor');
    const client = '203.0.113.21';
    for (let i = 0; i < 4; i++) {
      // A fresh invitation each time: the limit is the address's, not the link's.
      const wrong = await acceptWith({ token: await invitationOf(p.email), password: `not it ${i}` }, client);
      expect(wrong.json().code).toBe('invalid_credentials');
    }
    const limited = await acceptWith({ token: await invitationOf(p.email), password: p.password }, client);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('sign_in_attempts_exceeded');
    // Signing in at the front door is limited alike.
    expect((await signInWith(p, undefined, client)).statusCode).toBe(429);
  });

  it('takes each recovery code once, in any case and spacing', async () => {
    const p = await enrolled();
    const [first, second] = p.recoveryCodes as [string, string];
    const ok = await signInWith(p, ` ${first.toUpperCase()} `);
    expect(ok.statusCode).toBe(200);
    const again = await signInWith(p, first);
    expect(again.statusCode).toBe(401);
    expect(again.json().code).toBe('totp_invalid');
    expect((await signInWith(p, second.replace(/-/g, ''))).statusCode).toBe(200);
    const { rows } = await api.ctx.database.pool.query('select cardinality(recovery_code_hashes) as n from users where id = $1', [
      p.userId,
    ]);
    expect(rows[0].n).toBe(8);
  });

  it('new recovery codes (with the password) replace the old ones', async () => {
    const p = await enrolled();
    const wrong = await callAs(api.app, p.cookie, 'POST', '/api/v1/me/two-factor/recovery-codes', { password: 'not the password' });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().code).toBe('password_incorrect');
    const res = await callAs(api.app, p.cookie, 'POST', '/api/v1/me/two-factor/recovery-codes', { password: p.password });
    expect(res.statusCode).toBe(200);
    const fresh: string[] = res.json().recoveryCodes;
    expect(fresh).toHaveLength(10);
    expect((await signInWith(p, p.recoveryCodes[0])).json().code).toBe('totp_invalid');
    expect((await signInWith(p, fresh[0])).statusCode).toBe(200);
  });

  it('turning it off takes the password; then signing in needs no code', async () => {
    const p = await enrolled();
    const wrong = await callAs(api.app, p.cookie, 'DELETE', '/api/v1/me/two-factor', { password: 'not the password' });
    expect(wrong.statusCode).toBe(403);
    expect((await signInWith(p)).json().code).toBe('totp_required');
    const off = await callAs(api.app, p.cookie, 'DELETE', '/api/v1/me/two-factor', { password: p.password });
    expect(off.statusCode).toBe(200);
    expect((await callAs(api.app, p.cookie, 'GET', '/api/v1/me')).json().user.twoFactor).toBe(false);
    expect((await signInWith(p)).statusCode).toBe(200);
    const noCodes = await callAs(api.app, p.cookie, 'POST', '/api/v1/me/two-factor/recovery-codes', { password: p.password });
    expect(noCodes.statusCode).toBe(409);
    expect(noCodes.json().code).toBe('two_factor_off');
  });

  it('a password reset link alone does not get past two-factor', async () => {
    const p = await enrolled();
    await api.app.inject({ method: 'POST', url: '/api/v1/password-resets', payload: { email: p.email } });
    const mail = await smtp.waitForMail((m) => m.envelope.to.includes(p.email));
    const token = /token=([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
    const complete = (totp?: string) =>
      api.app.inject({
        method: 'POST',
        url: '/api/v1/password-resets/complete',
        payload: { token, password: 'a reset passphrase here', totp },
      });
    expect((await complete()).json().code).toBe('totp_required');
    expect((await complete('000000')).json().code).toBe('totp_invalid');
    // The link is still good: with the code it sets the password and signs in.
    const done = await complete(nextCode(p));
    expect(done.statusCode).toBe(200);
    // The new password is the one now, and two-factor stays on.
    const after = { email: p.email, password: 'a reset passphrase here' };
    expect((await signInWith(after)).json().code).toBe('totp_required');
    expect((await signInWith(after, p.recoveryCodes[0])).statusCode).toBe(200);
  });
});
