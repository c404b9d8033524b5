/**
 * The console's pure parts (key storage, what a key may open, the theme, sign-in failures in
 * words) and the api's serving of its files, with a built folder made here or none at all.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleCsp, registerConsole } from '#api/console.js';
import { signInFailure, type Me } from '#console/src/api/client.js';
import { PAGES, pageAccess } from '#console/src/nav.js';
import { forgetKey, savedKey, saveKey, type KeyStores } from '#console/src/session.js';
import { effectiveTheme } from '#console/src/theme.js';

const SHORT_URL_BASE = 'https://qr.example.com/go';

const memoryStorage = () => {
  const items = new Map<string, string>();
  return {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
    items,
  };
};

describe('key storage', () => {
  it('keeps the key in the session only, unless remembered; sign-out clears both', () => {
    const stores = { session: memoryStorage(), local: memoryStorage() } satisfies KeyStores;
    saveKey(stores, 'key-a', false);
    expect([stores.session.items.get('qrlinks.apiKey'), stores.local.items.size]).toEqual(['key-a', 0]);
    saveKey(stores, 'key-b', true);
    expect(stores.local.items.get('qrlinks.apiKey')).toBe('key-b');
    // A new tab has an empty session and finds the remembered key.
    expect(savedKey({ session: memoryStorage(), local: stores.local })).toBe('key-b');
    saveKey(stores, 'key-c', false);
    expect(stores.local.items.size).toBe(0);
    forgetKey(stores);
    expect(savedKey(stores)).toBeNull();
  });
});

const me = (scopes: string[], plan: Me['account']['plan'] = 'pro', apiKeyManagement = true): Me => ({
  account: { id: 'a', name: 'Cafe', plan },
  key: { id: 'k', name: null, scopes, expiresAt: null },
  user: null,
  role: 'owner',
  scopes,
  folderIds: null,
  accounts: [{ id: 'a', name: 'Cafe', plan, role: 'owner' }],
  plan: { apiKeyManagement },
  shortUrlBase: 'https://qr.example',
});
const page = (label: string) => PAGES.find((p) => p.label === label)!;

describe('what a key may open', () => {
  it('`all` opens every page on a plan with key management', () => {
    // …but a person's own profile: a key has no person.
    for (const p of PAGES.filter((p) => !p.needsPerson)) expect(pageAccess(p, me(['all'])), p.label).toEqual({ allowed: true });
    expect(pageAccess(page('Profile'), me(['all']))).toMatchObject({
      allowed: false,
      reason: expect.stringContaining('A key has no profile'),
    });
  });

  it('Activity and Webhooks are an admin’s with the all scope; Members is everyone’s but a client’s', () => {
    const person = (role: Me['role'], scopes: string[]): Me => ({
      ...me(scopes),
      key: null,
      user: { id: 'u', email: 'a@b.c', name: null, twoFactor: false },
      role,
    });
    expect(pageAccess(page('Activity'), person('admin', ['all']))).toEqual({ allowed: true });
    expect(pageAccess(page('Activity'), person('editor', ['links.read']))).toEqual({
      allowed: false,
      reason: "Editors can't read the activity log — ask an admin.",
    });
    expect(pageAccess(page('Activity'), { ...me(['links.read']), role: 'admin' })).toMatchObject({
      allowed: false,
      reason: expect.stringContaining('lacks the all scope'),
    });
    expect(pageAccess(page('Webhooks'), person('admin', ['all']))).toEqual({ allowed: true });
    expect(pageAccess(page('Webhooks'), person('editor', ['all']))).toEqual({
      allowed: false,
      reason: "Editors can't manage webhooks — ask an admin.",
    });
    expect(pageAccess(page('Members'), person('viewer', ['links.read']))).toEqual({ allowed: true });
    expect(pageAccess(page('Members'), person('client', ['links.read']))).toMatchObject({ allowed: false });
    expect(pageAccess(page('Profile'), person('viewer', ['links.read']))).toEqual({ allowed: true });
  });

  it('a page needs its read scope, and says which', () => {
    expect(pageAccess(page('Links'), me(['links.read']))).toEqual({ allowed: true });
    expect(pageAccess(page('Templates'), me(['links.read']))).toEqual({
      allowed: false,
      reason: 'This key lacks the templates.read scope.',
    });
    expect(pageAccess(page('Jobs'), me(['links.read']))).toEqual({ allowed: true });
  });

  it('API keys need the plan first, then the all scope', () => {
    expect(pageAccess(page('API keys'), me(['all'], 'starter', false))).toMatchObject({
      allowed: false,
      reason: expect.stringContaining('starter plan'),
    });
    expect(pageAccess(page('API keys'), me(['links.read']))).toEqual({ allowed: false, reason: 'This key lacks the all scope.' });
  });

  it("a client gets its links, not the account's analytics or people", () => {
    const client: Me = { ...me(['links.read', 'folders.read', 'templates.read']), role: 'client', folderIds: ['f'] };
    expect(pageAccess(page('Links'), client)).toEqual({ allowed: true });
    expect(pageAccess(page('Jobs'), client)).toEqual({ allowed: true });
    for (const label of ['Home', 'Analytics']) {
      expect(pageAccess(page(label), client)).toMatchObject({ allowed: false, reason: expect.stringContaining('not a client') });
      expect(pageAccess(page(label), me(['links.read']))).toEqual({ allowed: true });
    }
    expect(pageAccess(page('Members'), client)).toMatchObject({ allowed: false, reason: expect.stringContaining('invited you') });
  });
});

describe('theme and sign-in messages', () => {
  it("a choice made here beats the system's", () => {
    expect(effectiveTheme(null, true)).toBe('dark');
    expect(effectiveTheme(null, false)).toBe('light');
    expect(effectiveTheme('light', true)).toBe('light');
  });

  it('a 401 says the key was not accepted; a 429 passes the wait on', () => {
    expect(signInFailure(401, 'Unauthorized')).toMatch(/not accepted: it is mistyped, revoked or expired/);
    expect(signInFailure(429, 'Too many failed authentication attempts from this address; retry in 30 s')).toContain('retry in 30 s');
    expect(signInFailure(503, undefined)).toContain('503');
  });
});

describe("the api's serving of the console", () => {
  let dist: string;
  beforeAll(async () => {
    dist = await mkdtemp(join(tmpdir(), 'qrlinks-console-'));
    await mkdir(join(dist, 'assets'));
    await writeFile(
      join(dist, 'index.html'),
      '<!doctype html><title>console</title><script type="module" src="/assets/index-Ab12.js"></script>',
    );
    await writeFile(join(dist, 'assets', 'index-Ab12.js'), 'console.log(1)');
    await writeFile(join(dist, 'secret.txt'), 'no');
  });
  afterAll(() => rm(dist, { recursive: true, force: true }));

  const appWith = async (dir: string) => {
    const app = Fastify();
    registerConsole(app, dir, SHORT_URL_BASE);
    await app.ready();
    return app;
  };

  it('the CSP frames nothing but the short-URL origin (the menu preview), and nothing may frame the console', () => {
    const csp = consoleCsp(SHORT_URL_BASE);
    expect(csp).toContain('frame-src https://qr.example.com;');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('*');
    // Images, and only images, from other https origins: the links list's favicons of destinations.
    expect(csp).toContain("img-src 'self' data: blob: https:;");
    expect(csp).toContain("connect-src 'self';");
    expect(consoleCsp('http://127.0.0.1:3001/')).toContain('frame-src http://127.0.0.1:3001;');
  });

  it('/ is the page, not cached, with the CSP; assets are immutable', async () => {
    const app = await appWith(dist);
    const index = await app.inject({ url: '/' });
    expect(index.statusCode).toBe(200);
    expect(index.headers).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-cache',
      'content-security-policy': consoleCsp(SHORT_URL_BASE),
    });
    const asset = await app.inject({ url: '/assets/index-Ab12.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('console.log(1)');
    expect(asset.headers).toMatchObject({
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=31536000, immutable',
    });
  });

  it('nothing outside the assets folder, and no unknown asset, is served', async () => {
    const app = await appWith(dist);
    for (const url of [
      '/assets/..%2fsecret.txt',
      '/assets/..%2findex.html',
      '/assets/missing-1.js',
      '/assets/index-Ab12.exe',
      '/secret.txt',
    ]) {
      expect((await app.inject({ url })).statusCode, url).toBe(404);
    }
  });

  it('without a build, / is a 503 page that says how to build it', async () => {
    const app = await appWith(join(dist, 'not-built'));
    const res = await app.inject({ url: '/' });
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain('The console is not built');
    expect(res.headers['content-security-policy']).toBe(consoleCsp(SHORT_URL_BASE));
  });
});
