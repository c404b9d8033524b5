/**
 * The console's way in for a person, in headless Chromium against the real api: signing in with
 * an email and a password (a wrong one refused at the field), the cookie the page never sees,
 * signing out ending the session on the server, a session ended elsewhere sending the console
 * back to sign-in, the account switcher (on a phone) showing the other account's links, the API
 * key still there for machines, and axe-core's serious and critical findings on each new screen
 * at 390 and 1440 px in both themes.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  consoleScreenshot,
  DESKTOP,
  hasChromium,
  isOfflineFavicon,
  isSignedOutProbe,
  launchChromium,
  overflowingElements,
  PHONE,
  seriousViolationsByTheme,
} from '../../support/browser.js';
import { startConsoleApi } from '../../support/console.js';
import { pollUntil } from '../../support/until.js';
import { call, createLinkVia, createTestAccount, type TestAccount, type TestApi } from '../../support/harness.js';
import { callAs, createTestPerson, type TestPerson } from '../../support/people.js';
import { addMembership } from '#domain/people/users.js';

let api: TestApi;
let base: string;
let browser: Browser;
let lisboa: TestAccount;
let porto: TestAccount;
let ana: TestPerson;
/** In both accounts; the switching test's alone (a person lands where they last worked). */
let rita: TestPerson;

beforeAll(async () => {
  ({ api, base } = await startConsoleApi());
  lisboa = await createTestAccount(api.ctx, { plan: 'business', name: 'Aroma Lisboa' });
  porto = await createTestAccount(api.ctx, { plan: 'pro', name: 'Aroma Porto' });
  ana = await createTestPerson(api.ctx, lisboa.accountId, 'owner', { name: 'Ana Silva', email: `ana-${process.pid}@aroma.example` });
  await addMembership(api.ctx.db, { accountId: porto.accountId, userId: ana.userId, role: 'editor' });
  rita = await createTestPerson(api.ctx, lisboa.accountId, 'owner', { name: 'Rita Sousa', email: `rita-${process.pid}@aroma.example` });
  await addMembership(api.ctx.db, { accountId: porto.accountId, userId: rita.userId, role: 'editor' });
  await createLinkVia(api.app, lisboa.key, { name: 'Lisbon menu', type: 'website', data: { url: 'https://example.com/lisboa' } });
  await createLinkVia(api.app, porto.key, { name: 'Porto menu', type: 'website', data: { url: 'https://example.com/porto' } });
  if (hasChromium) browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await api?.close();
});

/** A context whose page reports errors into `problems`; 4xx answers the test asks for are the caller's to filter. */
async function open(options: Parameters<Browser['newContext']>[0] = DESKTOP, hash = '') {
  const context = await browser.newContext({ bypassCSP: true, ...options });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() !== 'error' && m.type() !== 'warning') return;
    if (isSignedOutProbe(m.text(), m.location().url) || isOfflineFavicon(m.text())) return;
    // A refusal the test asks for (a wrong password, a session ended elsewhere) is named by its route.
    problems.push(
      `${m.type()}: ${m.text()}${m.text().startsWith('Failed to load resource') ? ` ${new URL(m.location().url).pathname}` : ''}`,
    );
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(`${base}${hash}`, { waitUntil: 'load' });
  return { context, page, problems };
}

async function signInAs(page: Page, person: { email: string; password: string }) {
  await page.getByLabel('Email address').fill(person.email);
  await page.getByLabel('Password', { exact: true }).fill(person.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** The session cookie the browser holds, as a Cookie header. */
async function sessionCookie(context: BrowserContext): Promise<string> {
  const cookie = (await context.cookies()).find((c) => c.name === 'qrlinks_session');
  if (!cookie) throw new Error('no session cookie');
  return `${cookie.name}=${cookie.value}`;
}

/** The wrong password's 401, and a session that ended elsewhere answering 401 to the next request. */
const isOwnRefusal = (p: string) => /status of 401 .*\/api\/v1\/(sessions|links|me)$/.test(p);

describe.skipIf(!hasChromium)('console: a person signs in', () => {
  it('signs in with a password; a wrong one is refused at the field; the cookie is the only thing kept', async () => {
    const { context, page, problems } = await open();
    try {
      // The email field has the focus as the page opens.
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('email');
      await signInAs(page, { email: ana.email, password: 'not the password at all' });
      const error = page.locator('#password-error');
      await expect.poll(() => error.textContent()).toContain('do not match');
      expect(await page.getByLabel('Password', { exact: true }).getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByLabel('Password', { exact: true }).getAttribute('aria-describedby')).toBe('password-error');

      await page.getByLabel('Password', { exact: true }).fill(ana.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('heading', { name: 'Aroma Lisboa' }).waitFor();
      const header = page.locator('header');
      expect(await header.textContent()).toContain('Aroma Lisboa business plan');
      expect(await header.getByRole('button', { name: /Ana Silva/ }).textContent()).toContain('AS');
      // Nothing of the person in the page's storage; the cookie is HttpOnly, out of the page's reach.
      expect(await page.evaluate(() => [sessionStorage.length, localStorage.getItem('qrlinks.apiKey'), document.cookie])).toEqual([
        0,
        null,
        '',
      ]);
      expect((await context.cookies()).find((c) => c.name === 'qrlinks_session')?.httpOnly).toBe(true);
      // A reload keeps the person signed in.
      await page.reload();
      await page.getByRole('heading', { name: 'Aroma Lisboa' }).waitFor();
      expect(problems.filter((p) => !isOwnRefusal(p))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('sign out ends the session on the server; a reload shows sign-in', async () => {
    const { context, page, problems } = await open();
    try {
      await signInAs(page, ana);
      await page.getByRole('heading', { name: 'Aroma Lisboa' }).waitFor();
      const cookie = await sessionCookie(context);
      expect((await callAs(api.app, cookie, 'GET', '/api/v1/me')).statusCode).toBe(200);

      // By keyboard: the person's menu opens on Enter with focus on its first entry.
      const menuButton = page.getByRole('button', { name: /Ana Silva/ });
      await menuButton.focus();
      await page.keyboard.press('Enter');
      const menu = page.getByRole('menu', { name: `Signed in as Ana Silva` });
      await menu.waitFor();
      expect(await menu.textContent()).toContain(ana.email);
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Profile');
      expect(await page.getByRole('menuitem', { name: 'Profile' }).getAttribute('href')).toBe('#/profile');
      await page.keyboard.press('ArrowDown');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Sign out');
      await page.keyboard.press('Enter');
      await page.getByLabel('Email address').waitFor();
      expect(await page.getByRole('status').textContent()).toContain('signed out');

      // The old cookie no longer works anywhere, and a reload shows sign-in.
      expect((await callAs(api.app, cookie, 'GET', '/api/v1/me')).statusCode).toBe(401);
      await page.reload();
      await page.getByLabel('Email address').waitFor();
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign in to qrlinks');
      expect(problems.filter((p) => !isOwnRefusal(p))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('a session ended elsewhere sends the console back to sign-in, saying so', async () => {
    const { context, page } = await open();
    try {
      await signInAs(page, ana);
      await page.getByRole('heading', { name: 'Aroma Lisboa' }).waitFor();
      // Signed out from another device.
      const cookie = await sessionCookie(context);
      expect((await callAs(api.app, cookie, 'DELETE', '/api/v1/sessions/current')).statusCode).toBe(200);
      // The api's session cache hears of the end over Redis: wait until the cookie is refused.
      await pollUntil(
        async () => (await callAs(api.app, cookie, 'GET', '/api/v1/me')).statusCode,
        (status) => status === 401,
      );
      // The next request the console makes hears it (home's own refresh may be first).
      await page.evaluate(() => (location.hash = '#/links'));
      await page.getByLabel('Email address').waitFor();
      expect(await page.getByRole('status').textContent()).toBe('Your session ended; sign in again.');
      // Signing in again goes on where the person was.
      await signInAs(page, ana);
      await page.getByRole('heading', { name: 'Links', exact: true }).waitFor();
    } finally {
      await context.close();
    }
  });

  it('on a phone, switches accounts from the header and shows the other account’s links', { timeout: 60_000 }, async () => {
    const { context, page, problems } = await open(PHONE, '#/links');
    try {
      await signInAs(page, rita);
      await page.getByRole('link', { name: 'Lisbon menu' }).first().waitFor();
      const switcher = page.getByRole('button', { name: /switch account/ });
      expect(await switcher.isVisible()).toBe(true);
      await switcher.click();
      const menu = page.getByRole('menu', { name: 'Switch account' });
      await menu.waitFor();
      expect(await menu.getByRole('menuitemradio').allTextContents()).toEqual([
        'Aroma Lisboaowner · business plan',
        'Aroma Portoeditor · pro plan',
      ]);
      expect(await menu.getByRole('menuitemradio', { name: /Aroma Lisboa/ }).getAttribute('aria-checked')).toBe('true');
      expect(await overflowingElements(page, PHONE.viewport.width)).toEqual([]);
      await consoleScreenshot(page, 'account-switcher', { dark: true });
      expect(await seriousViolationsByTheme(page), 'switcher open').toEqual({ light: [], dark: [] });

      await menu.getByRole('menuitemradio', { name: /Aroma Porto/ }).click();
      await page.getByRole('link', { name: 'Porto menu' }).first().waitFor();
      expect(await page.getByRole('link', { name: 'Lisbon menu' }).count()).toBe(0);
      expect(await page.locator('header').textContent()).toContain('Aroma Porto pro plan');
      expect(new URL(page.url()).hash).toBe('#/links');
      // The session itself moved: a reload stays in Porto, and so does the API.
      expect((await callAs(api.app, await sessionCookie(context), 'GET', '/api/v1/me')).json().account.name).toBe('Aroma Porto');
      await page.reload();
      await page.getByRole('link', { name: 'Porto menu' }).first().waitFor();
      expect(problems.filter((p) => !isOwnRefusal(p))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('an API key still signs in, below, for machines and operators; its sign-out forgets it', async () => {
    const { context, page } = await open(PHONE);
    try {
      await page.getByText('For machines and operators: sign in with an API key').click();
      await page.getByLabel('API key').fill(porto.key);
      await page.getByRole('button', { name: 'Sign in with key' }).click();
      await page.getByRole('heading', { name: 'Aroma Porto' }).waitFor();
      // A key works in its own account: no switcher, no person's menu, a plain Sign out.
      expect(await page.getByRole('button', { name: /switch account/ }).count()).toBe(0);
      expect(await page.evaluate(() => sessionStorage.getItem('qrlinks.apiKey'))).toBe(porto.key);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('Email address').waitFor();
      expect(await page.evaluate(() => sessionStorage.getItem('qrlinks.apiKey'))).toBeNull();
      expect((await call(api.app, porto.key, 'GET', '/api/v1/me')).statusCode).toBe(200);
    } finally {
      await context.close();
    }
  });

  it('sign-in and the person’s menu have no serious axe finding at 390 and 1440 px, light and dark', { timeout: 120_000 }, async () => {
    for (const size of [PHONE, DESKTOP]) {
      const { context, page } = await open(size);
      try {
        const width = size.viewport.width;
        await page.getByLabel('Email address').waitFor();
        await consoleScreenshot(page, 'sign-in', { dark: true });
        expect(await seriousViolationsByTheme(page), `sign-in ${width}`).toEqual({ light: [], dark: [] });
        await signInAs(page, { email: ana.email, password: 'wrong password' });
        await page.locator('#password-error').waitFor();
        await page.getByText('For machines and operators: sign in with an API key').click();
        await page.getByLabel('API key').waitFor();
        expect(await overflowingElements(page, width)).toEqual([]);
        await consoleScreenshot(page, 'sign-in-refused', { dark: true });
        expect(await seriousViolationsByTheme(page), `sign-in refused ${width}`).toEqual({ light: [], dark: [] });

        await signInAs(page, ana);
        await page.getByRole('heading', { name: 'Aroma Lisboa' }).waitFor();
        await page.getByRole('button', { name: /Ana Silva/ }).click();
        await page.getByRole('menu', { name: 'Signed in as Ana Silva' }).waitFor();
        expect(await overflowingElements(page, width)).toEqual([]);
        await consoleScreenshot(page, 'person-menu', { dark: true });
        expect(await seriousViolationsByTheme(page), `person menu ${width}`).toEqual({ light: [], dark: [] });
      } finally {
        await context.close();
      }
    }
  });
});
