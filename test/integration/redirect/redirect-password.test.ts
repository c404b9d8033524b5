/**
 * A protected link's password, end to end through the real api and redirect over HTTP: the
 * cookie is signed with a server secret (not the bcrypt hash an API key can read), secrets
 * rotate without ending live cookies, a new password ends old ones, and wrong tries are capped
 * per link across all addresses and per IPv6 /64. A protected link's files are served only to
 * visitors who unlocked it.
 */
import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '#platform/config/index.js';
import { keptSecret, passwordCookieSecrets } from '#platform/config/secrets.js';
import { PasswordCookies } from '#domain/links/resolve/password.js';
import { pngBytes, uploadFile } from '../../support/fixtures.js';
import { call, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';
import { ROOT } from '../../support/processes.js';
import { startTestRedirect, type TestRedirect } from '../../support/redirect.js';

const OLD_SECRET = 'old-secret-'.padEnd(40, 'o');
const NEW_SECRET = 'new-secret-'.padEnd(40, 'n');

let api: TestApi;
let me: TestAccount;
/** Signs with OLD_SECRET. */
let before: TestRedirect;
/** After a rotation: signs with NEW_SECRET, still accepts OLD_SECRET. */
let rotated: TestRedirect;
/** OLD_SECRET retired. */
let retired: TestRedirect;

const withSecrets = (secrets: string) => ({ ...api.ctx, config: { ...api.ctx.config, PASSWORD_COOKIE_SECRETS: secrets } });

beforeAll(async () => {
  api = await startTestApi({ TRUSTED_PROXIES: '127.0.0.1' });
  me = await createTestAccount(api.ctx);
  before = await startTestRedirect(withSecrets(OLD_SECRET));
  rotated = await startTestRedirect(withSecrets(`${NEW_SECRET},${OLD_SECRET}`));
  retired = await startTestRedirect(withSecrets(NEW_SECRET));
});
afterAll(async () => {
  await Promise.all([before, rotated, retired].map((r) => r?.close()));
  await api?.close();
});

interface Link {
  slug: string;
  id: string;
  passwordHash: string;
}
async function protectedLink(password: string): Promise<Link> {
  const res = await call(api.app, me.key, 'POST', '/api/v1/links', {
    name: 'Secret',
    type: 'website',
    data: { url: 'https://example.com/secret' },
    linkConfigurations: { passwordProtectedActive: true, password },
  });
  if (res.statusCode !== 200) throw new Error(`create failed ${res.statusCode}: ${res.body}`);
  const slug = res.json().id as string;
  // What any key with links.read sees.
  const seen = (await call(api.app, me.key, 'GET', `/api/v1/links/${slug}`)).json().data;
  return { slug, id: seen.id, passwordHash: seen.password };
}

const post = (
  redirect: TestRedirect,
  slug: string,
  password: string,
  from = '192.0.2.1',
  cookie?: string,
  headers: Record<string, string> = {},
) =>
  redirect.get(`/${slug}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': from, ...(cookie ? { cookie } : {}), ...headers },
    body: new URLSearchParams({ password }).toString(),
  });
/** The `name=value` of the cookie a right password sets. */
async function unlock(redirect: TestRedirect, slug: string, password: string, from?: string): Promise<string> {
  const res = await post(redirect, slug, password, from);
  expect(res.status).toBe(303);
  return res.headers.get('set-cookie')!.split(';')[0]!;
}
/** 302 when the cookie opens the link, 200 (the form) when it does not. */
const scanWith = async (redirect: TestRedirect, slug: string, cookie: string) =>
  (await redirect.get(`/${slug}`, { headers: { cookie } })).status;

describe('the password cookie is signed with a server secret', () => {
  it('a cookie forged from the bcrypt hash GET /links/:id shows does not open the link', async () => {
    const link = await protectedLink('open sesame');
    expect(link.passwordHash).toMatch(/^\$2[aby]\$/);
    const expires = Math.floor(Date.now() / 1000) + 3600;
    // The cookie the hash used to key: HMAC-SHA256(hash, "<link id>.<expiry>").
    const forgedMac = createHmac('sha256', link.passwordHash).update(`${link.id}.${expires}`).digest('base64url');
    expect(await scanWith(before, link.slug, `qrlinks_pass=${expires}.${forgedMac}`)).toBe(200);
    // Nor with the hash in any other place of the message.
    const alsoForged = createHmac('sha256', link.passwordHash).update(`${link.id}.${expires}.${link.passwordHash}`).digest('base64url');
    expect(await scanWith(before, link.slug, `qrlinks_pass=${expires}.${alsoForged}`)).toBe(200);
    // The real one does.
    expect(await scanWith(before, link.slug, await unlock(before, link.slug, 'open sesame'))).toBe(302);
  });

  it('a cookie signed with the previous secret still opens the link after a rotation, until that secret is retired', async () => {
    const link = await protectedLink('pw-rotate');
    const oldCookie = await unlock(before, link.slug, 'pw-rotate');
    expect(await scanWith(rotated, link.slug, oldCookie)).toBe(302);
    expect(await scanWith(retired, link.slug, oldCookie)).toBe(200);
    // New cookies are signed with the new secret, which the old processes do not know.
    const newCookie = await unlock(rotated, link.slug, 'pw-rotate');
    expect(await scanWith(retired, link.slug, newCookie)).toBe(302);
    expect(await scanWith(before, link.slug, newCookie)).toBe(200);
  });

  it('a new password ends the sessions the old one opened', async () => {
    const link = await protectedLink('first');
    const cookie = await unlock(before, link.slug, 'first');
    expect(await scanWith(before, link.slug, cookie)).toBe(302);
    const changed = await call(api.app, me.key, 'PUT', `/api/v1/links/${link.slug}`, {
      name: 'Secret',
      type: 'website',
      data: { url: 'https://example.com/secret' },
      linkConfigurations: { passwordProtectedActive: true, password: 'second' },
    });
    expect(changed.statusCode).toBe(200);
    // The api's invalidation reaches the redirect by pub/sub; wait for the new hash to be served.
    const end = Date.now() + 10_000;
    let status = await scanWith(before, link.slug, cookie);
    while (status === 302 && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 100));
      status = await scanWith(before, link.slug, cookie);
    }
    expect(status).toBe(200);
    expect(await scanWith(before, link.slug, await unlock(before, link.slug, 'second'))).toBe(302);
  });

  it("cookies expire, and one link's cookie does not open another", () => {
    const cookies = new PasswordCookies([Buffer.from(OLD_SECRET)]);
    const link = {
      id: '0190a000-0000-7000-8000-000000000001',
      passwordHash: '$2b$10$abcdefghijklmnopqrstuuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ01',
    };
    const value = cookies.value(link, Date.now() - 13 * 60 * 60 * 1000);
    expect(cookies.isValid(link, `qrlinks_pass=${value}`)).toBe(false);
    const fresh = cookies.value(link);
    expect(cookies.isValid(link, `qrlinks_pass=${fresh}`)).toBe(true);
    expect(cookies.isValid({ ...link, id: '0190a000-0000-7000-8000-000000000002' }, `qrlinks_pass=${fresh}`)).toBe(false);
  });
});

describe('the password form answers only its own page', () => {
  it('a post from another site is a 403 page, sets no cookie and uses up no try; its own page, curl and old browsers get in', async () => {
    const link = await protectedLink('same origin');
    const ownOrigin = before.base;
    for (const headers of [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      // A browser's header wins over an Origin that looks right.
      { 'sec-fetch-site': 'cross-site', origin: ownOrigin },
      // Browsers without Sec-Fetch-Site: Origin is another site's, or unreadable.
      { origin: 'https://attacker.example' },
      { origin: 'not a url' },
    ] as Array<Record<string, string>>) {
      const res = await post(before, link.slug, 'same origin', '192.0.2.30', undefined, headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.headers.get('set-cookie')).toBeNull();
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await res.text()).toContain('This form was sent from another site');
    }
    // Even an unknown link: the other site learns nothing about which links exist.
    expect((await post(before, 'no-such-link-here', 'x', '192.0.2.30', undefined, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    // None of those was a try: the ten tries of this address are all still there.
    for (let i = 0; i < 9; i++) expect((await post(before, link.slug, 'wrong', '192.0.2.30')).status).toBe(401);
    for (const headers of [
      // A browser on the link's own page (its no-referrer policy makes Origin "null").
      { 'sec-fetch-site': 'same-origin', origin: 'null' },
      { 'sec-fetch-site': 'none' },
      // A browser without Sec-Fetch-Site, posting from this host.
      { origin: ownOrigin },
      { origin: 'null' },
      // curl, a script: neither header.
      {},
    ] as Array<Record<string, string>>) {
      const res = await post(before, link.slug, 'same origin', '192.0.2.31', undefined, headers);
      expect(res.status, JSON.stringify(headers)).toBe(303);
      expect(res.headers.get('set-cookie')).toMatch(/^qrlinks_pass=/);
    }
  });
});

describe('the configured secrets', () => {
  it('are comma-separated, the first signing; a short one stops the start with a line that does not repeat it', async () => {
    const secrets = await passwordCookieSecrets(loadConfig({ PASSWORD_COOKIE_SECRETS: ` ${NEW_SECRET} ,${OLD_SECRET}` }));
    expect(secrets.map(String)).toEqual([NEW_SECRET, OLD_SECRET]);
    let error: unknown;
    try {
      loadConfig({ PASSWORD_COOKIE_SECRETS: `${NEW_SECRET},tooshort-but-secret` });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      'Invalid configuration: PASSWORD_COOKIE_SECRETS must be comma-separated secrets of at least 32 characters each',
    );
  });
});

describe('the secret made when none is configured', () => {
  it('is made once, 0600 in a 0700 folder, and processes starting together agree on it', async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'qrlinks-secret-')), 'secrets');
    const script = `import { keptSecret } from './platform/config/secrets.ts'; process.stdout.write(await keptSecret(${JSON.stringify(dir)}, 'password-cookie-secret'));`;
    const run = promisify(execFile);
    const outputs = await Promise.all(
      Array.from({ length: 6 }, () =>
        run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT }).then((r) => r.stdout),
      ),
    );
    expect(new Set(outputs).size).toBe(1);
    expect(outputs[0]!.length).toBeGreaterThanOrEqual(32);
    const file = join(dir, 'password-cookie-secret');
    expect((await readFile(file, 'utf8')).trim()).toBe(outputs[0]);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    // Kept: a later start reads the same one.
    expect(await keptSecret(dir, 'password-cookie-secret')).toBe(outputs[0]);
  });
});

describe('wrong passwords are capped per link across all addresses, and IPv6 counts by /64', () => {
  it('100 wrong tries from 100 addresses lock the link for everyone without a cookie (429 with Retry-After); cookie holders are unaffected', async () => {
    const link = await protectedLink('right one');
    const holder = await unlock(before, link.slug, 'right one', '192.0.2.200');
    // Sent at once: a try holds its place while bcrypt runs, so the burst gets no more than 100.
    const answers = await Promise.all(
      Array.from({ length: 110 }, (_, i) => post(before, link.slug, 'wrong', `10.1.${Math.floor(i / 200)}.${(i % 200) + 1}`)),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(99); // the hundredth is told it was the last
    expect(statuses.filter((s) => s === 429)).toHaveLength(11);
    const locked = await post(before, link.slug, 'right one', '203.0.113.50');
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(15 * 60);
    expect(await locked.text()).toContain('Too many attempts');
    // Every redirect process sees the same count.
    expect((await post(rotated, link.slug, 'right one', '203.0.113.51')).status).toBe(429);
    // A visitor who unlocked it before still scans through, and sending the form again is no try.
    expect(await scanWith(before, link.slug, holder)).toBe(302);
    expect((await post(before, link.slug, 'anything', '192.0.2.200', holder)).status).toBe(303);
  });

  it('ten wrong tries from ten addresses of one IPv6 /64 use up that /64; another /64 may still try', async () => {
    const link = await protectedLink('v6');
    for (let i = 1; i <= 9; i++) expect((await post(before, link.slug, 'nope', `2001:db8:77:1::${i}`)).status).toBe(401);
    expect((await post(before, link.slug, 'nope', '2001:db8:77:1::a')).status).toBe(429);
    expect((await post(before, link.slug, 'v6', '2001:db8:77:1:abcd:ef01:2345:6789')).status).toBe(429);
    expect((await post(before, link.slug, 'v6', '2001:db8:77:2::1')).status).toBe(303);
  });
});

describe('the files of a protected link', () => {
  it('are served only under the link to a visitor holding its cookie, with a short private cache; never at /files/<id>', async () => {
    const photo = await uploadFile(api.app, me.key, pngBytes(8, 8), 'terrace.png', 'image/png');
    const link = { name: 'Members terrace', type: 'image', data: { files: [{ fileId: photo.fileId }] } };
    const res = await call(api.app, me.key, 'POST', '/api/v1/links', {
      ...link,
      linkConfigurations: { passwordProtectedActive: true, password: 'members only' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const slug = res.json().id as string;
    const underLink = `/${slug}/files/${photo.fileId}`;

    // Not at its public address, whoever asks (as if it did not exist).
    const hidden = await before.get(`/files/${photo.fileId}`);
    expect(hidden.status).toBe(404);
    await hidden.arrayBuffer();
    // Under the link, not without the cookie: the password form instead, no image bytes.
    const locked = await before.get(underLink);
    expect(locked.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await locked.text()).toContain('name="password"');

    const cookie = await unlock(before, slug, 'members only');
    const page = await (await before.get(`/${slug}`, { headers: { cookie } })).text();
    expect(page).toContain(`src="${underLink}"`);
    expect(page).not.toContain(`"/files/${photo.fileId}"`);
    const served = await before.get(underLink, { headers: { cookie } });
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('cache-control')).toBe('private, max-age=300');
    expect(Buffer.from(await served.arrayBuffer()).equals(pngBytes(8, 8))).toBe(true);
    // The cookie of this link opens only this link's files: another file of the account is not under it.
    const other = await uploadFile(api.app, me.key, pngBytes(4, 4), 'other.png', 'image/png');
    const notItsFile = await before.get(`/${slug}/files/${other.fileId}`, { headers: { cookie } });
    expect(notItsFile.status).toBe(404);
    await notItsFile.arrayBuffer();

    // Once the password is off, the file is public again, cached for a year.
    const unprotect = await call(api.app, me.key, 'PUT', `/api/v1/links/${slug}`, {
      ...link,
      linkConfigurations: { passwordProtectedActive: false },
    });
    expect(unprotect.statusCode, unprotect.body).toBe(200);
    const open = await before.get(`/files/${photo.fileId}`);
    expect(open.status).toBe(200);
    expect(open.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    await open.arrayBuffer();
  });
});
