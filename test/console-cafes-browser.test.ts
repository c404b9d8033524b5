/**
 * The console's Cafes screens against the real api in headless Chromium: the empty list invites
 * creating a cafe; a blank name is refused at its field; a created cafe shows its menu link and QR
 * code at once (the PNG downloaded is the API's), and is listed; axe-core finds nothing serious
 * or critical at 390 and 1440 px in either theme.
 */
import { readFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleScreenshot, DESKTOP, hasChromium, launchChromium, overflowingElements, PHONE, seriousViolationsOn } from './support/browser.js';
import { startConsoleApi } from './support/console.js';
import { call, createTestAccount, type TestAccount, type TestApi } from './support/harness.js';

let api: TestApi;
let base: string;
let browser: Browser;
let owner: TestAccount;

beforeAll(async () => {
  ({ api, base } = await startConsoleApi());
  if (hasChromium) browser = await launchChromium();
  owner = await createTestAccount(api.ctx, { plan: 'pro' });
  // The name the console shows in its header, as a cafe owner's account would be called.
  await api.ctx.database.pool.query('update accounts set name = $2 where id = $1', [owner.accountId, 'Cafe Aroma']);
}, 120_000);
afterAll(async () => {
  await api?.close();
  await browser?.close();
});

/** A signed-in page (the key in this tab's sessionStorage, as signing in leaves it) at `hash`. */
async function openConsole(hash: string, size: typeof PHONE | typeof DESKTOP, options: { bypassCSP?: boolean } = {}) {
  const context = await browser.newContext({ ...size, bypassCSP: options.bypassCSP ?? false, acceptDownloads: true });
  await context.addInitScript((key) => sessionStorage.setItem('qrlinks.apiKey', key), owner.key);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  await page.goto(`${base}#${hash}`);
  return { context, page, problems };
}

async function accessible(page: Awaited<ReturnType<typeof openConsole>>['page'], what: string) {
  for (const theme of ['light', 'dark']) {
    await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
    expect(await seriousViolationsOn(page), `${what} ${theme}`).toEqual([]);
  }
}

describe.skipIf(!hasChromium)('console cafes', () => {
  it('lists none, creates a cafe and shows its menu link and QR at once, with the PNG download', async () => {
    const { context, page, problems } = await openConsole('/cafes', DESKTOP);
    try {
      await page.getByRole('heading', { name: 'Cafes', exact: true }).waitFor();
      await page.getByText('No cafes yet').waitFor();

      await page.getByRole('button', { name: 'Create cafe' }).click();
      expect(await page.locator('#field-name-error').textContent()).toContain('Give the cafe a name');
      expect(await page.getByLabel('Cafe name').getAttribute('aria-invalid')).toBe('true');

      await page.getByLabel('Cafe name').fill('Café Lisboa');
      await page.getByRole('button', { name: 'Create cafe' }).click();
      const panel = page.getByRole('region', { name: '“Café Lisboa” is ready' });
      await panel.waitFor();
      expect(await page.evaluate(() => document.activeElement?.id || document.activeElement?.className)).toContain('new-cafe');

      const cafes = (await call(api.app, owner.key, 'GET', '/api/v1/cafes')).json().data;
      expect(cafes).toHaveLength(1);
      const url: string = cafes[0].link.full_dynamic_url;
      expect(await panel.getByRole('link', { name: url }).getAttribute('href')).toBe(url);
      const qr = panel.getByRole('img', { name: `QR code for ${url}` });
      await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(512);

      const [download] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Download QR (PNG)' }).click()]);
      expect(download.suggestedFilename()).toBe('cafe-lisboa-menu-512.png');
      const saved = await readFile((await download.path())!);
      const fromApi = await call(api.app, owner.key, 'GET', `/api/v1/links/${cafes[0].link.dynamic_link_id}/qr?format=png&size=512`);
      expect(saved.equals(fromApi.rawPayload)).toBe(true);

      const listed = page.getByRole('list', { name: 'Your cafes' });
      await listed.getByRole('link', { name: 'Café Lisboa' }).waitFor();
      expect(await listed.getByRole('link', { name: 'Café Lisboa' }).getAttribute('href')).toBe(`#/cafes/${cafes[0].id}`);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('has no serious or critical axe-core finding on the cafes list, at both widths and in both themes', async () => {
    for (const size of [PHONE, DESKTOP]) {
      const { context, page } = await openConsole('/cafes', size, { bypassCSP: true });
      try {
        await page.getByRole('list', { name: 'Your cafes' }).waitFor();
        expect(await overflowingElements(page, size.viewport.width), `wider than ${size.viewport.width} px`).toEqual([]);
        await page.locator('.cafes').evaluate((e) => e.scrollIntoView());
        await consoleScreenshot(page, 'cafes', { dark: true });
        await accessible(page, `cafes ${size.viewport.width}`);
      } finally {
        await context.close();
      }
    }
  });
});
