/**
 * A link's history on its edit page, against the real api in headless Chromium: a destination
 * changed in the form shows at once as who changed it from what to what, below the creation;
 * the list fits a phone and passes axe-core's serious and critical checks in both themes.
 */
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  consoleScreenshot,
  DESKTOP,
  hasChromium,
  launchChromium,
  overflowingElements,
  PHONE,
  seriousViolationsByTheme,
  signInBeforeLoad,
} from '../../support/browser.js';
import { startConsoleApi } from '../../support/console.js';
import { call, createLinkVia, createTestAccount, type TestAccount, type TestApi } from '../../support/harness.js';

let api: TestApi;
let base: string;
let browser: Browser;
let owner: TestAccount;
const problems: string[] = [];

beforeAll(async () => {
  ({ api, base } = await startConsoleApi());
  owner = await createTestAccount(api.ctx, { plan: 'pro', name: 'Cafe Aroma' });
  await call(api.app, owner.key, 'GET', '/api/v1/me');
  if (hasChromium) browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await api?.close();
});

async function open(hash: string, size: typeof PHONE | typeof DESKTOP) {
  const context = await browser.newContext({ ...size, bypassCSP: true });
  await signInBeforeLoad(context, owner.key);
  const page = await context.newPage();
  page.setDefaultTimeout(8_000);
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  await page.goto(`${base}#${hash}`);
  await page.locator('form.link-form').waitFor();
  return { context, page };
}

describe.skipIf(!hasChromium)("a link's history on its edit page", () => {
  afterEach(() => {
    expect(problems.splice(0)).toEqual([]);
  });

  it('shows who changed the destination from what to what, newest first', async () => {
    const link = await createLinkVia(api.app, owner.key, {
      name: 'Lunch menu',
      type: 'website',
      data: { url: 'https://example.com/winter' },
    });
    for (const size of [DESKTOP, PHONE]) {
      const { context, page } = await open(`/links/${link.slug}/edit`, size);
      try {
        const history = page.getByRole('region', { name: 'History' });
        await expect.poll(() => history.locator('ol > li').count()).toBeGreaterThan(0);
        const url = page.getByLabel('Web address');
        const next = size === DESKTOP ? 'https://example.com/spring' : 'https://example.com/summer';
        const was = await url.inputValue();
        await url.fill(next);
        await page.getByRole('button', { name: 'Save changes' }).click();
        await page.getByText('Changes saved.').waitFor();
        const newest = history.locator('ol > li').first();
        await expect.poll(() => newest.textContent()).toContain(`Destination: ${was} → ${next}`);
        expect(await newest.textContent()).toMatch(/key-\w{6}… changed/);
        expect(await history.locator('ol > li').last().textContent()).toContain('created the link');
        expect(await history.locator('ol > li').last().textContent()).toContain('Destination: https://example.com/winter');
        await newest.scrollIntoViewIfNeeded();
        expect(await overflowingElements(page, size.viewport.width)).toEqual([]);
        const found = await seriousViolationsByTheme(page);
        expect(found).toEqual({ light: [], dark: [] });
        await consoleScreenshot(page, 'link-history', { dark: true });
      } finally {
        await context.close();
      }
    }
  });
});
