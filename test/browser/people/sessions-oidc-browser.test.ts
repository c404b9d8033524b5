/**
 * Single sign-on through a real OpenID provider (oidc-provider, in this process) in Chromium: the
 * console's SSO button, the provider's login form, the way back signed in; refusals (state,
 * domain, unverified email) come back to the console with their code and words; a person we know
 * keeps their role; a hung issuer costs a sign-in its timeout and no more.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { hasChromium, launchChromium } from '../../support/browser.js';
import { startConsoleApi } from '../../support/console.js';
import { call, startTestApi, type TestApi } from '../../support/harness.js';
import { CLIENT_ID, CLIENT_SECRET, startHungIssuer, startOidcProvider, type TestOidcProvider } from '../../support/oidc-provider.js';
import { freePort } from '../../support/processes.js';
import { addMembership, createUser } from '#domain/people/users.js';
import { SSO_FAILURES } from '#domain/people/sso-failures.js';

let api: TestApi;
let base: string;
let provider: TestOidcProvider;
let browser: Browser;
let accountId: string;

beforeAll(async () => {
  const apiPort = await freePort();
  provider = await startOidcProvider(`http://127.0.0.1:${apiPort}/api/v1/sessions/oidc/callback`);
  accountId = randomUUID();
  ({ api, base } = await startConsoleApi(
    {
      PUBLIC_API_URL: `http://127.0.0.1:${apiPort}/api/v1`,
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: CLIENT_ID,
      OIDC_CLIENT_SECRET: CLIENT_SECRET,
      OIDC_ALLOWED_EMAIL_DOMAINS: 'example.com',
      OIDC_ACCOUNT_ID: accountId,
      OIDC_BUTTON_LABEL: 'Sign in with Example SSO',
    },
    apiPort,
  ));
  await api.ctx.database.pool.query(`insert into accounts (id, name, plan) values ($1, 'Example Inc', 'pro')`, [accountId]);
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await api?.close();
  await provider?.close();
});

/** The console's sign-in screen, its SSO button clicked: the provider's login form. */
async function startAtConsole(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(base);
  await page.getByRole('link', { name: 'Sign in with Example SSO' }).click();
  await page.waitForURL(`${provider.issuer}/**`);
  return { context, page };
}

/** Signs in at the provider's development form as `login` and agrees to share the profile. */
async function submitAtProvider(page: Page, login: string): Promise<void> {
  await page.locator('input[name=login]').fill(login);
  await page.locator('input[name=password]').fill('any password');
  await page.locator('button[type=submit]').click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** The same, then back at the console. */
async function signInAtProvider(page: Page, login: string): Promise<void> {
  await submitAtProvider(page, login);
  // Past the callback (itself under `base`), at the console.
  await page.waitForURL((url) => url.href.startsWith(base) && !url.pathname.startsWith('/api/'));
}

/** Signs in at the provider as `login`, but the way back is held: its URL, not yet visited. */
async function callbackHeldBack(page: Page, login: string): Promise<string> {
  const held = provider.holdNextCallback();
  await submitAtProvider(page, login);
  return held;
}

/** The cookie that ties a started sign-in to this browser (the callback clears it). */
async function attemptCookie(context: BrowserContext) {
  const cookie = (await context.cookies()).find((c) => c.name === 'qrlinks_oidc');
  if (!cookie) throw new Error('no attempt cookie');
  return cookie;
}

/** A sign-in in Chromium takes a few seconds; a machine busy with other work, several times that. */
const BROWSER_TEST_MS = 120_000;

const errorOf = (page: Page) => new URL(page.url()).hash.match(/^#\/signin\?error=(\w+)$/)?.[1] ?? null;

async function me(context: BrowserContext) {
  const res = await context.request.get(`${base}api/v1/me`);
  return { status: res.status(), body: res.ok() ? await res.json() : null };
}

describe.skipIf(!hasChromium)('single sign-on in Chromium', () => {
  it(
    'the SSO button leads through the provider back to the console, signed in as a new viewer of the account',
    async () => {
      const { context, page } = await startAtConsole();
      await signInAtProvider(page, 'alice');
      expect(page.url()).toBe(base);
      const cookies = await context.cookies();
      const session = cookies.find((c) => c.name === 'qrlinks_session');
      expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
      // The attempt's cookie is gone with the attempt.
      expect(cookies.find((c) => c.name === 'qrlinks_oidc')).toBeUndefined();
      const who = await me(context);
      expect(who.status).toBe(200);
      expect(who.body).toMatchObject({ user: { email: 'alice@example.com' }, role: 'viewer', account: { id: accountId } });
      await context.close();
    },
    BROWSER_TEST_MS,
  );

  it(
    'a callback used twice, one whose state was changed, or one without the attempt cookie is refused',
    async () => {
      // Used twice, even with the attempt's cookie put back: the first took the attempt.
      const { context, page } = await startAtConsole();
      const attempt = await attemptCookie(context);
      const callback = await callbackHeldBack(page, 'alice');
      await page.goto(callback);
      expect(page.url()).toBe(base);
      await context.addCookies([attempt]);
      await page.goto(callback);
      // Refused; the person stays signed in from the first use, so the console shows its home, not the sign-in page's words.
      expect(errorOf(page)).toBe('sso_state_invalid');
      await context.close();

      // Another state: refused, and the attempt is spent, so the genuine answer is refused too.
      const tampered = await startAtConsole();
      const tamperedAttempt = await attemptCookie(tampered.context);
      const genuine = await callbackHeldBack(tampered.page, 'alice');
      const forged = new URL(genuine);
      forged.searchParams.set('state', 'forged-state');
      await tampered.page.goto(forged.href);
      expect(errorOf(tampered.page)).toBe('sso_state_invalid');
      await tampered.context.addCookies([tamperedAttempt]);
      await tampered.page.goto(genuine);
      expect(errorOf(tampered.page)).toBe('sso_state_invalid');
      expect((await me(tampered.context)).status).toBe(401);
      await tampered.context.close();

      // Another browser, without the attempt's cookie (a login CSRF): refused.
      const started = await startAtConsole();
      const stolen = await callbackHeldBack(started.page, 'alice');
      const victim = await browser.newContext();
      const victimPage = await victim.newPage();
      await victimPage.goto(stolen);
      expect(errorOf(victimPage)).toBe('sso_state_invalid');
      expect((await me(victim)).status).toBe(401);
      await Promise.all([started.context.close(), victim.close()]);
    },
    BROWSER_TEST_MS,
  );

  it(
    'an unverified email and a domain not allowed are refused, with their code and words',
    async () => {
      for (const [login, code] of [
        ['bob', 'sso_email_unverified'],
        ['carol', 'sso_domain_not_allowed'],
      ] as const) {
        const { context, page } = await startAtConsole();
        await signInAtProvider(page, login);
        expect(errorOf(page)).toBe(code);
        expect(await page.getByRole('alert').textContent()).toBe(SSO_FAILURES[code]);
        expect((await me(context)).status).toBe(401);
        expect((await context.cookies(base)).find((c) => c.name === 'qrlinks_session')).toBeUndefined();
        await context.close();
      }
      const { rows } = await api.ctx.database.pool.query(`select 1 from users where email_key in ('bob@example.com', 'carol@example.org')`);
      expect(rows).toHaveLength(0);
    },
    BROWSER_TEST_MS,
  );

  it(
    'a person already in the account keeps their role, and their identity is linked',
    async () => {
      const user = await createUser(api.ctx.db, { email: 'Dave@Example.com', name: 'Dave' });
      await addMembership(api.ctx.db, { accountId, userId: user.id, role: 'editor' });
      provider.addPerson('dave', { email: 'dave@example.com', emailVerified: true, name: 'Dave at the provider' });
      const { context, page } = await startAtConsole();
      await signInAtProvider(page, 'dave');
      expect(await me(context)).toMatchObject({ status: 200, body: { user: { id: user.id }, role: 'editor' } });
      const { rows } = await api.ctx.database.pool.query(`select oidc_subject from users where id = $1`, [user.id]);
      expect(rows[0].oidc_subject).toBe(`${provider.issuer} dave`);
      await context.close();
    },
    BROWSER_TEST_MS,
  );
});

describe('single sign-on: settings and a hung issuer', () => {
  it('the config says what the button shows; off, it says so and the start is a 404', async () => {
    expect((await call(api.app, null, 'GET', '/api/v1/sessions/oidc/config')).json()).toEqual({
      enabled: true,
      label: 'Sign in with Example SSO',
    });
    const off = await startTestApi({ OIDC_ISSUER: '', OIDC_CLIENT_ID: '' });
    try {
      expect((await call(off.app, null, 'GET', '/api/v1/sessions/oidc/config')).json()).toEqual({
        enabled: false,
        label: 'Sign in with SSO',
      });
      const start = await call(off.app, null, 'GET', '/api/v1/sessions/oidc');
      expect(start.statusCode).toBe(404);
      expect(start.json()).toMatchObject({ code: 'not_found' });
    } finally {
      await off.close();
    }
  });

  it('an issuer that never answers costs a sign-in its timeout, and the next one tries again', async () => {
    const hung = await startHungIssuer();
    const slow = await startTestApi({ OIDC_ISSUER: hung.issuer, OIDC_CLIENT_ID: CLIENT_ID, OIDC_TIMEOUT_MS: '500' });
    try {
      for (let attempt = 0; attempt < 2; attempt++) {
        const before = hung.connections();
        const started = performance.now();
        const res = await call(slow.app, null, 'GET', '/api/v1/sessions/oidc');
        const took = performance.now() - started;
        expect(res.statusCode).toBe(302);
        expect(res.headers.location).toBe('/#/signin?error=sso_provider_unreachable');
        // The timeout, and not much more (timers fire late on a busy machine); without one it would hang.
        expect(took).toBeGreaterThanOrEqual(490);
        expect(took).toBeLessThan(5000);
        // Each sign-in asks the issuer again: a failed discovery is not remembered.
        expect(hung.connections()).toBeGreaterThan(before);
      }
    } finally {
      await slow.close();
      await hung.close();
    }
  });
});
