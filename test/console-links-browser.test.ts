/**
 * The console's links screen against the real api in headless Chromium: 25 links made over the
 * API, pages and filters kept in the URL, pausing, deleting behind a confirm dialog, multi-select,
 * folders (moving links into one), what a read-only key is offered, and axe-core's serious and critical findings.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  consoleScreenshot,
  DESKTOP,
  hasChromium,
  launchChromium,
  overflowingElements,
  PHONE,
  seriousViolationsByTheme,
  seriousViolationsOn,
  signInBeforeLoad,
} from './support/browser.js';
import { startConsoleApi } from './support/console.js';
import { addKey, call, createLinkVia, createTestAccount, type TestAccount, type TestApi } from './support/harness.js';

let api: TestApi;
let base: string;
let browser: Browser;
let owner: TestAccount;
let readOnlyKey: string;
let foldersReadKey: string;
const slugs = new Map<string, string>();
const name = (i: number) => `Link ${String(i).padStart(2, '0')}`;
/** Every fifth link is an email link, the rest websites. */
const body = (i: number) =>
  i % 5 === 0
    ? { name: name(i), type: 'email', data: { email: `owner${i}@example.com` } }
    : { name: name(i), type: 'website', data: { url: `https://example.com/${i}` } };

beforeAll(async () => {
  ({ api, base } = await startConsoleApi());
  owner = await createTestAccount(api.ctx, { plan: 'pro', name: 'Cafe Aroma' });
  for (let i = 1; i <= 25; i++) slugs.set(name(i), (await createLinkVia(api.app, owner.key, body(i))).slug);
  readOnlyKey = (await addKey(api.ctx, owner.accountId, ['links.read'])).key;
  foldersReadKey = (await addKey(api.ctx, owner.accountId, ['links.read', 'folders.read'])).key;
  if (hasChromium) browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await api?.close();
});

/** A signed-in page (the key in this tab's sessionStorage, as signing in leaves it) at `hash`. */
async function openLinks(hash: string, options: { key?: string; size?: typeof PHONE | typeof DESKTOP; bypassCSP?: boolean } = {}) {
  const context = await browser.newContext({ ...(options.size ?? DESKTOP), bypassCSP: options.bypassCSP ?? false });
  await signInBeforeLoad(context, options.key ?? owner.key);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(`${base}#${hash}`);
  await page.getByRole('heading', { name: 'Links', exact: true }).waitFor();
  return { context, page, problems };
}

const rowNames = async (page: Page) => {
  await page.locator('.links-table, .empty').first().waitFor();
  return page.locator('.links-table tbody td[data-label="Name"]').allTextContents();
};
const apiStatus = async (linkName: string) =>
  (await call(api.app, owner.key, 'GET', `/api/v1/links/${slugs.get(linkName)}`)).json().data?.status;

describe.skipIf(!hasChromium)('console links screen', () => {
  it('shows the first page, page 2 from the URL, and the back button returns', async () => {
    const { context, page, problems } = await openLinks('/links?sort=name');
    try {
      expect(await rowNames(page)).toEqual(Array.from({ length: 20 }, (_, i) => name(i + 1)));
      expect(await page.getByRole('navigation', { name: 'Pages' }).textContent()).toContain('Page 1 of 2');
      await page.getByRole('link', { name: 'Next' }).click();
      await expect.poll(() => page.locator('.pager').textContent()).toContain('Page 2 of 2');
      expect(new URL(page.url()).hash).toBe('#/links?sort=name&page=2');
      // The pager follows the URL at once; the rows follow their answer.
      await expect.poll(() => rowNames(page)).toEqual(Array.from({ length: 5 }, (_, i) => name(i + 21)));
      await page.goBack();
      await expect.poll(() => rowNames(page)).toHaveLength(20);
      // A page past the last one says so and leads back.
      await page.goto(`${base}#/links?sort=name&page=9`);
      await page.getByRole('link', { name: 'Go to the last page' }).click();
      await expect.poll(() => page.locator('.pager').textContent()).toContain('Page 2 of 2');
      // A bookmarked page 2 opens as page 2.
      await page.goto(`${base}#/links?sort=name&page=2`);
      await expect.poll(() => rowNames(page)).toEqual(Array.from({ length: 5 }, (_, i) => name(i + 21)));
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('search and the type filter narrow the table and are kept in the URL', async () => {
    const { context, page } = await openLinks('/links?sort=name');
    try {
      await page.getByRole('searchbox', { name: 'Search' }).fill('Link 1');
      await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
      await expect.poll(() => rowNames(page)).toEqual(Array.from({ length: 10 }, (_, i) => name(i + 10)));
      expect(new URL(page.url()).hash).toBe('#/links?search=Link+1&sort=name');
      await page.getByLabel('Type').selectOption('email');
      await expect.poll(() => rowNames(page)).toEqual(['Link 10', 'Link 15']);
      expect(new URL(page.url()).hash).toBe('#/links?search=Link+1&type=email&sort=name');
      await page.getByLabel('Type').selectOption('menu');
      await page.getByText('No links match this view.').waitFor();
    } finally {
      await context.close();
    }
  });

  it('copying a short URL says so on the row’s own button, and the URL is on the clipboard', async () => {
    const { context, page } = await openLinks('/links?sort=name');
    try {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
      const button = page.getByLabel('Copy the short URL of Link 03');
      await button.click();
      await expect.poll(() => button.textContent()).toBe('Copied ✓');
      const url = await page.locator('tr', { hasText: 'Link 03' }).locator('td[data-label="Short URL"] a').getAttribute('href');
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
      // Back to "Copy" after a moment.
      await expect.poll(() => button.textContent(), { timeout: 5000 }).toBe('Copy');
    } finally {
      await context.close();
    }
  });

  it('pausing a link by keyboard changes its badge and the API says paused; resume undoes it', async () => {
    const { context, page } = await openLinks('/links?sort=name');
    try {
      const row = page.locator('tr', { hasText: 'Link 03' });
      expect(await row.locator('.badge').textContent()).toBe('Active');
      // By keyboard: focus is visible on the row's button and Enter presses it.
      await page.getByLabel('Select Link 03').focus();
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      expect(
        await page.evaluate(() => [
          document.activeElement?.getAttribute('aria-label'),
          getComputedStyle(document.activeElement!).outlineWidth,
        ]),
      ).toEqual(['Copy the short URL of Link 03', '3px']);
      // The scan count leads to the link's analytics.
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('0 scans of Link 03: its analytics');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Edit Link 03');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Pause Link 03');
      await page.keyboard.press('Enter');
      await expect.poll(() => row.locator('.badge').textContent()).toBe('Paused');
      expect(await apiStatus('Link 03')).toBe('paused');
      await page.getByRole('button', { name: 'Resume Link 03' }).click();
      await expect.poll(() => row.locator('.badge').textContent()).toBe('Active');
      expect(await apiStatus('Link 03')).toBe('active');
    } finally {
      await context.close();
    }
  });

  it('deletes behind a confirm dialog that Escape cancels; multi-select pauses the chosen links', async () => {
    const { context, page } = await openLinks('/links?sort=name&page=2');
    try {
      await page.getByRole('button', { name: 'Delete Link 25' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete this link?' });
      await dialog.waitFor();
      // Focus is inside the dialog; Escape closes it and deletes nothing.
      await expect.poll(() => page.evaluate(() => document.activeElement?.closest('dialog') !== null)).toBe(true);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expect(await apiStatus('Link 25')).toBe('active');
      await page.getByRole('button', { name: 'Delete Link 25' }).click();
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await expect.poll(() => rowNames(page)).not.toContain('Link 25');
      expect((await call(api.app, owner.key, 'GET', `/api/v1/links/${slugs.get('Link 25')}`)).statusCode).toBe(404);

      await page.getByLabel('Select Link 21').check();
      await page.getByLabel('Select Link 22').check();
      await page.getByRole('button', { name: 'Pause selected' }).click();
      await expect.poll(() => page.getByRole('status').textContent()).toContain('2 links paused.');
      expect([await apiStatus('Link 21'), await apiStatus('Link 22'), await apiStatus('Link 23')]).toEqual(['paused', 'paused', 'active']);
      await page.getByLabel('Select all links on this page').check();
      await page.getByRole('button', { name: 'Resume selected' }).click();
      await expect.poll(() => page.getByRole('status').textContent()).toContain('4 links resumed.');
      expect(await apiStatus('Link 21')).toBe('active');
    } finally {
      await context.close();
    }
  });

  it('creates a folder, moves two links into it, filters by it, renames and deletes it', async () => {
    const { context, page } = await openLinks('/links?sort=name');
    try {
      await page.getByRole('button', { name: 'New folder' }).click();
      await page.getByRole('dialog').getByLabel('Folder name').fill('Posters');
      await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
      await page.getByRole('link', { name: 'Posters' }).waitFor();
      const folderId = (await call(api.app, owner.key, 'GET', '/api/v1/folders'))
        .json()
        .data.find((f: { name: string }) => f.name === 'Posters').id;
      await page.getByLabel('Select Link 04').check();
      await page.getByLabel('Select Link 05').check();
      await page.getByLabel('Move to').selectOption({ label: 'Posters' });
      await page.getByRole('button', { name: 'Move selected' }).click();
      await expect.poll(() => page.getByRole('status').textContent()).toContain('2 links moved.');
      expect((await call(api.app, owner.key, 'GET', `/api/v1/links/${slugs.get('Link 04')}`)).json().data.folder_id).toBe(folderId);
      await page.getByRole('link', { name: 'Posters' }).click();
      await expect.poll(() => rowNames(page)).toEqual(['Link 04', 'Link 05']);
      expect(new URL(page.url()).hash).toBe(`#/links?folder=${folderId}&sort=name`);

      await page.getByRole('button', { name: 'Rename Posters' }).click();
      await page.getByRole('dialog').getByLabel('Folder name').fill('Flyers');
      await page.getByRole('dialog').getByRole('button', { name: 'Rename' }).click();
      await page.getByRole('link', { name: 'Flyers' }).waitFor();
      await page.getByRole('button', { name: 'Delete Flyers' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
      await expect.poll(() => rowNames(page)).toHaveLength(20);
      expect((await call(api.app, owner.key, 'GET', '/api/v1/folders')).json().data).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('a read-only key sees the links with the actions off, and why', async () => {
    const { context, page } = await openLinks('/links', { key: readOnlyKey, size: PHONE });
    try {
      await expect.poll(() => rowNames(page)).toHaveLength(20);
      const pause = page.locator('.row-actions button').first();
      expect(await pause.isDisabled()).toBe(true);
      expect(await page.locator('#links-blocked').textContent()).toContain('This key lacks the links.pause scope.');
      expect(await page.locator('.folders').textContent()).toContain('This key lacks the folders.read scope.');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.viewport.width);
    } finally {
      await context.close();
    }
    // A key that may read folders but not change them sees them, with the change buttons off and why.
    const second = await openLinks('/links', { key: foldersReadKey });
    try {
      await second.page.getByRole('link', { name: 'All links' }).waitFor();
      expect(await second.page.getByRole('button', { name: 'New folder' }).isDisabled()).toBe(true);
      expect(await second.page.locator('#folders-blocked').textContent()).toBe(
        'This key lacks the folders.create scope. This key lacks the folders.update scope. This key lacks the folders.delete scope.',
      );
    } finally {
      await second.context.close();
    }
  });

  it('has no serious or critical axe-core finding on the links screen, at both widths', async () => {
    for (const size of [PHONE, DESKTOP]) {
      const { context, page } = await openLinks('/links?sort=name', { size, bypassCSP: true });
      try {
        await expect.poll(() => rowNames(page)).toHaveLength(20);
        expect(await overflowingElements(page, size.viewport.width), `wider than ${size.viewport.width} px`).toEqual([]);
        // On a phone the console's navigation comes first; the picture starts at the links.
        await page.locator('.links-main').evaluate((e) => e.scrollIntoView());
        await consoleScreenshot(page, 'links', { dark: true });
        expect(await seriousViolationsOn(page), `links ${size.viewport.width}`).toEqual([]);
        expect(await seriousViolationsByTheme(page), `links ${size.viewport.width}`).toEqual({ light: [], dark: [] });
      } finally {
        await context.close();
      }
    }
  });
});
