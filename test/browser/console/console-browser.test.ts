/**
 * The browser console against the real api (Postgres, Redis, the built console/dist) in headless
 * Chromium: the page and its CSP, signing in with a good key and a bad one, what a narrow key is
 * offered, remembering the key or not, signing out, dark mode, both screen widths, and axe-core's
 * serious and critical findings on the sign-in and shell screens.
 */
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  consoleScreenshot,
  DESKTOP,
  hasChromium,
  isSignedOutProbe,
  launchChromium,
  PHONE,
  seriousViolationsByTheme,
  seriousViolationsOn,
  visitPage,
} from '../../support/browser.js';
import { startConsoleApi } from '../../support/console.js';
import { addKey, createTestAccount, type TestAccount, type TestApi } from '../../support/harness.js';

let api: TestApi;
let base: string;
let browser: Browser;
let owner: TestAccount;
const accountName = 'Cafe Aroma';
let narrowKey: string;

beforeAll(async () => {
  ({ api, base } = await startConsoleApi());
  // The tests find the account's name in the page.
  owner = await createTestAccount(api.ctx, { plan: 'starter', name: accountName });
  narrowKey = (await addKey(api.ctx, owner.accountId, ['links.read'])).key;
  if (hasChromium) browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await api?.close();
});

/** A context whose pages report console errors and page errors into `problems`. */
async function consoleContext(
  options: Parameters<Browser['newContext']>[0] = PHONE,
): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on(
    'console',
    (m) =>
      (m.type() === 'error' || m.type() === 'warning') &&
      !isSignedOutProbe(m.text(), m.location().url) &&
      problems.push(`${m.type()}: ${m.text()}`),
  );
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(base, { waitUntil: 'load' });
  return { context, page, problems };
}

/** Signs in with a key: the form is folded away below a person's, for machines and operators. */
async function signIn(page: Page, key: string, remember = false) {
  await page.getByText('sign in with an API key').click();
  await page.getByLabel('API key').fill(key);
  if (remember) await page.getByLabel('Remember on this device').check();
  await page.getByRole('button', { name: 'Sign in with key' }).click();
}

// Against the screen, not innerWidth: a phone-sized browser widens its layout viewport to whatever overflows.
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= screen.width);

describe.skipIf(!hasChromium)('console in the browser', () => {
  it('is served at / with a strict CSP, loads only from its origin and logs nothing', async () => {
    const visit = await visitPage(browser, base);
    try {
      expect(visit.response?.status()).toBe(200);
      const csp = visit.response?.headers()['content-security-policy'] ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("connect-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      await visit.page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
      expect(visit.problems).toEqual([]);
      expect(visit.blockedRequests).toEqual([]);
      // The budget: the first screen's JavaScript, gzipped, at most 150 KB (sizes: bench/console-size.ts).
      const scripts = visit.requests.filter((url) => url.endsWith('.js'));
      expect(scripts.length).toBeGreaterThan(0);
      let gzipped = 0;
      for (const url of scripts) gzipped += gzipSync(Buffer.from(await (await fetch(url)).arrayBuffer())).length;
      expect(gzipped).toBeLessThanOrEqual(150 * 1024);
    } finally {
      await visit.close();
    }
  });

  it('a bad key is refused with the reason at the field', async () => {
    const { context, page, problems } = await consoleContext();
    try {
      await signIn(page, 'key-thisisnotakeythisisnotakeythisis');
      const error = page.locator('#api-key-error');
      await expect.poll(() => error.textContent()).toContain('not accepted');
      expect(await page.getByLabel('API key').getAttribute('aria-describedby')).toBe('api-key-error');
      expect(await page.getByLabel('API key').getAttribute('aria-invalid')).toBe('true');
      expect(await page.evaluate(() => [sessionStorage.length, localStorage.length])).toEqual([0, 0]);
      // The 401 of the sign-in check is the only thing logged.
      expect(problems.filter((p) => !p.includes('401'))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('a good key opens the shell with the account; the key stays in this tab only; sign out forgets it', async () => {
    const { context, page, problems } = await consoleContext(DESKTOP);
    try {
      await signIn(page, owner.key);
      await page.getByRole('heading', { name: accountName }).waitFor();
      expect(await page.locator('header').textContent()).toContain(`${accountName} starter plan`);
      expect(await page.evaluate(() => [sessionStorage.length, localStorage.getItem('qrlinks.apiKey')])).toEqual([1, null]);
      // Reloading the tab keeps the session; the hash route is kept in the URL.
      await page.getByRole('link', { name: 'Links', exact: true }).click();
      expect(new URL(page.url()).hash).toBe('#/links');
      await page.reload();
      await page.getByRole('heading', { name: 'No links yet' }).waitFor();
      expect(await fitsWidth(page)).toBe(true);

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('Email address').waitFor();
      expect(await page.getByRole('status').textContent()).toContain('signed out');
      expect(await page.evaluate(() => [sessionStorage.getItem('qrlinks.apiKey'), localStorage.getItem('qrlinks.apiKey')])).toEqual([
        null,
        null,
      ]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('"Remember on this device" keeps the key for a new tab', async () => {
    const { context, page } = await consoleContext();
    try {
      await signIn(page, owner.key, true);
      await page.getByRole('heading', { name: accountName }).waitFor();
      const second = await context.newPage();
      await second.goto(base);
      await second.getByRole('heading', { name: accountName }).waitFor();
      await second.getByRole('button', { name: 'Sign out' }).click();
      expect(await second.evaluate(() => localStorage.getItem('qrlinks.apiKey'))).toBeNull();
    } finally {
      await context.close();
    }
  });

  it('a narrow key on a starter plan sees what it cannot use, and why, at 390 px', async () => {
    const { context, page } = await consoleContext();
    try {
      await signIn(page, narrowKey);
      await page.getByRole('heading', { name: accountName }).waitFor();
      await page.getByRole('button', { name: 'Menu', exact: true }).click();
      const nav = page.getByRole('navigation');
      // Members and Domains are everyone's to see; Activity and Webhooks need the all scope, and say so.
      expect(await nav.getByRole('link').allTextContents()).toEqual(['Home', 'Links', 'Jobs', 'Analytics', 'Domains', 'Members']);
      const text = await nav.textContent();
      expect(text).toContain('This key lacks the templates.read scope.');
      expect(text).toContain('This key lacks the all scope, needed to read the activity log.');
      expect(text).toContain('This key lacks the all scope, needed to manage webhooks.');
      expect(text).toContain('The starter plan does not include managing keys here');
      await page.goto(`${base}#/cafes`);
      expect(await page.locator('main').textContent()).toContain('This key lacks the cafe.read scope.');
      expect(await fitsWidth(page)).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('on a phone the pages are behind a Menu button: it shows them, a choice or Escape hides them; wider screens show them', async () => {
    const { context, page, problems } = await consoleContext({ ...PHONE, bypassCSP: true });
    try {
      await signIn(page, owner.key);
      await page.getByRole('heading', { name: accountName }).waitFor();
      const menu = page.getByRole('button', { name: 'Menu', exact: true });
      const jobs = page.getByRole('link', { name: 'Jobs', exact: true });
      // Closed: the page's own content starts right under the header.
      expect(await jobs.isVisible()).toBe(false);
      expect(await menu.isVisible()).toBe(true);
      expect(await menu.getAttribute('aria-expanded')).toBe('false');
      const nav = page.locator(`#${await menu.getAttribute('aria-controls')}`);
      expect(await nav.getAttribute('aria-label')).toBe('Console');
      expect(await nav.isVisible()).toBe(false);
      expect((await page.locator('main').boundingBox())!.y).toBeLessThan(PHONE.viewport.height / 5);
      expect(await seriousViolationsByTheme(page), 'menu closed').toEqual({ light: [], dark: [] });

      await menu.click();
      await expect.poll(() => menu.getAttribute('aria-expanded')).toBe('true');
      expect(await jobs.isVisible()).toBe(true);
      expect(await fitsWidth(page)).toBe(true);
      expect(await seriousViolationsByTheme(page), 'menu open').toEqual({ light: [], dark: [] });

      // Choosing a page opens it and closes the menu; focus goes to the page.
      await jobs.click();
      await page.getByRole('heading', { name: 'Jobs', exact: true }).waitFor();
      expect(new URL(page.url()).hash).toBe('#/jobs');
      await expect.poll(() => menu.getAttribute('aria-expanded')).toBe('false');
      expect(await jobs.isVisible()).toBe(false);
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');

      // By keyboard: Enter opens, Tab goes into the pages, Escape closes and gives focus back to the button.
      await menu.focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => menu.getAttribute('aria-expanded')).toBe('true');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Home');
      await page.keyboard.press('Escape');
      await expect.poll(() => menu.getAttribute('aria-expanded')).toBe('false');
      expect(await jobs.isVisible()).toBe(false);
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Menu');
      expect(problems).toEqual([]);

      // Wide enough for the side column, the pages show and the button does not.
      await page.setViewportSize(DESKTOP.viewport);
      expect(await nav.isVisible()).toBe(true);
      expect(await jobs.isVisible()).toBe(true);
      expect(await menu.isVisible()).toBe(false);
    } finally {
      await context.close();
    }
  });

  it('follows the system colour scheme, and the toggle overrides it', async () => {
    const { context, page } = await consoleContext({ ...PHONE, colorScheme: 'dark' });
    try {
      const theme = () => page.evaluate(() => [document.documentElement.dataset.theme, getComputedStyle(document.body).backgroundColor]);
      await expect.poll(theme).toEqual(['dark', 'rgb(17, 19, 21)']);
      await signIn(page, owner.key);
      const toggle = page.getByRole('button', { name: 'Dark mode' });
      expect(await toggle.getAttribute('aria-pressed')).toBe('true');
      await toggle.press('Enter');
      await expect.poll(theme).toEqual(['light', 'rgb(255, 255, 255)']);
      expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    } finally {
      await context.close();
    }
  });

  it('is keyboard usable: Tab walks the person’s form to the key’s, Enter opens it; Enter signs in', async () => {
    const { context, page } = await consoleContext();
    try {
      const focused = () => page.evaluate(() => document.activeElement?.id || document.activeElement?.textContent);
      // The email field has the focus as the page opens.
      await expect.poll(focused).toBe('email');
      // Focus is visible: a 3 px outline around the focused control.
      await page.keyboard.press('Tab');
      expect(await focused()).toBe('password');
      expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineWidth)).toBe('3px');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Show password');
      await page.keyboard.press('Tab');
      expect(await focused()).toBe('Forgot password?');
      await page.keyboard.press('Tab');
      expect(await focused()).toBe('Sign in');
      await page.keyboard.press('Tab');
      expect(await focused()).toBe('For machines and operators: sign in with an API key');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Tab');
      expect(await focused()).toBe('api-key');
      await page.keyboard.type(owner.key);
      await page.keyboard.press('Tab');
      expect(await focused()).toBe('remember');
      await page.keyboard.press('Tab');
      expect(await focused()).toBe('Sign in with key');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: accountName }).waitFor();
      // In the shell, Tab walks skip link, brand, the two buttons and the menu button; Enter opens the
      // menu, Tab reaches the pages and Enter opens one.
      const tabTo = async (text: string) => {
        for (let i = 0; i < 12 && (await focused()) !== text; i++) await page.keyboard.press('Tab');
        return focused();
      };
      expect(await tabTo('Menu')).toBe('Menu');
      await page.keyboard.press('Enter');
      expect(await tabTo('Templates')).toBe('Templates');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Templates' }).waitFor();
      expect(new URL(page.url()).hash).toBe('#/templates');
      await expect.poll(() => page.title()).toBe('Templates · qrlinks console');
    } finally {
      await context.close();
    }
  });

  it('has no serious or critical axe-core finding on the sign-in and shell screens (a key’s), at both widths', async () => {
    for (const size of [PHONE, DESKTOP]) {
      const context = await browser.newContext({ ...size, bypassCSP: true });
      try {
        const page = await context.newPage();
        await page.goto(base);
        await page.getByLabel('Email address').waitFor();
        expect(await seriousViolationsOn(page), `sign-in ${size.viewport.width}`).toEqual([]);
        await signIn(page, narrowKey);
        await page.getByRole('heading', { name: accountName }).waitFor();
        await consoleScreenshot(page, 'shell', { dark: true });
        expect(await seriousViolationsOn(page), `shell ${size.viewport.width}`).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });
});
