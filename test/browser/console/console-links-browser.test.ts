/**
 * The console's links screen against the real api in headless Chromium: 25 links made over the
 * API, pages and filters kept in the URL, the row menu by mouse and keyboard and its shortcut
 * letters on the focused row, archiving with Undo (the API call made only when the toast ends),
 * the selection's toolbar, folders (moving links into one), what a read-only key is offered, the
 * dense rows at 1440 and the cards at 390, the empty list, and axe-core's serious and critical findings.
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
} from '../../support/browser.js';
import { startConsoleApi } from '../../support/console.js';
import { randomUUID } from 'node:crypto';
import { encodeScanBatch } from '#domain/scans/batch.js';
import { ingestScanBatches } from '#domain/scans/ingest.js';
import { addKey, call, createLinkVia, createTestAccount, type TestAccount, type TestApi } from '../../support/harness.js';

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
  const ids = new Map<string, string>();
  for (let i = 1; i <= 25; i++) {
    const made = await createLinkVia(api.app, owner.key, body(i));
    slugs.set(name(i), made.slug);
    ids.set(name(i), made.id);
  }
  // Scans over the last days for the sparklines: Link 02 has 3.
  const DAY = 86_400_000;
  const scanAt = (linkName: string, daysAgo: number) => ({
    id: randomUUID(),
    linkId: ids.get(linkName)!,
    accountId: owner.accountId,
    at: Date.now() - daysAgo * DAY,
    browserName: null,
    deviceType: null,
    deviceVendor: null,
    osName: null,
    countryName: null,
    region: null,
    city: null,
    isBot: false,
  });
  await ingestScanBatches(api.ctx.database.pool, [
    encodeScanBatch([scanAt('Link 02', 1), scanAt('Link 02', 3), scanAt('Link 02', 3), scanAt('Link 07', 0), scanAt('Link 07', 5)]),
  ]);
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
  await page.locator('.link-list, .empty').first().waitFor();
  return page.locator('.link-row .link-name').allTextContents();
};
const row = (page: Page, linkName: string) => page.locator('.link-row', { has: page.getByText(linkName, { exact: true }) });
const apiStatus = async (linkName: string) =>
  (await call(api.app, owner.key, 'GET', `/api/v1/links/${slugs.get(linkName)}`)).json().data?.status;
const apiHas = async (linkName: string) => (await call(api.app, owner.key, 'GET', `/api/v1/links/${slugs.get(linkName)}`)).statusCode;
/** Waits until no toast is shown: an Undo window has closed (and a deferred call has been made). */
const toastsGone = (page: Page) => expect.poll(() => page.locator('.toast').allTextContents(), { timeout: 20_000 }).toEqual([]);

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
      const url = await row(page, 'Link 03').locator('.link-short a').getAttribute('href');
      expect(url).toBe(`http://localhost:3001/${slugs.get('Link 03')}`);
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
      // Back to its icon after a moment.
      await expect.poll(() => button.textContent(), { timeout: 5000 }).toBe('');
    } finally {
      await context.close();
    }
  });

  it('the row menu opens by click and by keyboard, and its letters act; letters act on the focused row', async () => {
    const { context, page, problems } = await openLinks('/links?sort=name');
    try {
      const link03 = row(page, 'Link 03');
      expect(await link03.locator('.badge').textContent()).toBe('Active');
      // By mouse: the menu lists every action with its letter.
      await page.getByRole('button', { name: 'Actions for Link 03' }).click();
      const menu = page.getByRole('menu', { name: 'Actions for Link 03' });
      expect(await menu.getByRole('menuitem').allTextContents()).toEqual([
        'EditE',
        'Download QR codeQ',
        'DuplicateD',
        'AnalyticsA',
        'PauseP',
        'ArchiveX',
      ]);
      // Focus is in the menu; its letter P pauses the link.
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('menuitem');
      await page.keyboard.press('p');
      await menu.waitFor({ state: 'detached' });
      await expect.poll(() => link03.locator('.badge').textContent()).toBe('Paused');
      expect(await apiStatus('Link 03')).toBe('paused');
      // By keyboard: Tab from the row's checkbox reaches its name (focus visible), Enter on ⋯ opens the menu.
      await page.getByLabel('Select Link 03').focus();
      await page.keyboard.press('Tab');
      expect(
        await page.evaluate(() => [document.activeElement?.textContent, getComputedStyle(document.activeElement!).outlineWidth]),
      ).toEqual(['Link 03', '3px']);
      await page.getByRole('button', { name: 'Actions for Link 03' }).focus();
      await page.keyboard.press('Enter');
      await menu.waitFor();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Escape');
      await menu.waitFor({ state: 'detached' });
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Actions for Link 03');
      // The row's own letters, with focus anywhere in the row and no menu open: P resumes it.
      await page.keyboard.press('p');
      await expect.poll(() => link03.locator('.badge').textContent()).toBe('Active');
      expect(await apiStatus('Link 03')).toBe('active');
      // ↓ moves to the next row; D there duplicates that row's link, not this one.
      await link03.getByRole('link', { name: 'Link 03', exact: true }).focus();
      await page.keyboard.press('ArrowDown');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Link 04');
      await page.keyboard.press('d');
      await page.locator('.toast', { hasText: '1 link duplicated.' }).waitFor();
      const names = (await call(api.app, owner.key, 'GET', '/api/v1/links?size=100&fields=name'))
        .json()
        .data.map((l: { name: string }) => l.name);
      expect(names.filter((n: string) => n.startsWith('Link 04'))).toHaveLength(2);
      expect(names.filter((n: string) => n.startsWith('Link 03'))).toHaveLength(1);
      // Typing in the search field is typing, not shortcuts.
      await page.keyboard.press('/');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('search');
      await page.keyboard.type('xp');
      expect(await apiStatus('Link 04')).toBe('active');
      // A click on a row's empty space opens its editor.
      await link03.locator('.link-destination').click();
      await expect.poll(() => new URL(page.url()).hash).toBe(`#/links/${slugs.get('Link 03')}/edit`);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('archive hides the row with an Undo; Undo keeps the link, and without it the link is deleted when the toast ends', async () => {
    const { context, page } = await openLinks('/links?sort=name&page=2');
    try {
      await page.getByRole('button', { name: 'Actions for Link 25' }).click();
      await page.getByRole('menuitem', { name: 'Archive' }).click();
      await page.mouse.move(0, 0);
      await expect.poll(() => rowNames(page)).not.toContain('Link 25');
      const toast = page.locator('.toast', { hasText: 'Link archived' });
      await toast.getByRole('button', { name: 'Undo' }).click();
      // A toast under the pointer waits for it to leave; the pointer goes away, as a hand would.
      await page.mouse.move(0, 0);
      await expect.poll(() => rowNames(page)).toContain('Link 25');
      // After the window the Undo had, the link is still there.
      await toastsGone(page);
      expect(await apiHas('Link 25')).toBe(200);

      // Ctrl+Z undoes too.
      await row(page, 'Link 25').getByRole('link', { name: 'Link 25', exact: true }).focus();
      await page.keyboard.press('x');
      await expect.poll(() => rowNames(page)).not.toContain('Link 25');
      expect(await apiHas('Link 25')).toBe(200);
      await page.keyboard.press('Control+z');
      await expect.poll(() => rowNames(page)).toContain('Link 25');

      // Without Undo: X on the focused row; the API call waits for the toast to end.
      await row(page, 'Link 25').getByRole('link', { name: 'Link 25', exact: true }).focus();
      await page.keyboard.press('x');
      await expect.poll(() => rowNames(page)).not.toContain('Link 25');
      await page.locator('.toast', { hasText: 'Link archived' }).waitFor();
      expect(await apiHas('Link 25')).toBe(200);
      await toastsGone(page);
      await expect.poll(() => apiHas('Link 25')).toBe(404);
      expect(await rowNames(page)).not.toContain('Link 25');
    } finally {
      await context.close();
    }
  });

  it('an archive whose Undo window is still open is made when the page is left', async () => {
    const { context, page } = await openLinks('/links?sort=name&page=2');
    try {
      await row(page, 'Link 24').getByRole('link', { name: 'Link 24', exact: true }).focus();
      await page.keyboard.press('x');
      await page.locator('.toast', { hasText: 'Link archived' }).waitFor();
      expect(await apiHas('Link 24')).toBe(200);
      // Leaving the page (another address in the tab) sends the archive with keepalive at once.
      await page.goto('about:blank');
      await expect.poll(() => apiHas('Link 24')).toBe(404);
    } finally {
      await context.close();
    }
  });

  it('the selection has a toolbar of its own: pause, resume, and archive with Undo', async () => {
    const { context, page } = await openLinks('/links?sort=name&page=2');
    try {
      const toolbar = page.getByRole('toolbar', { name: 'Selected links' });
      expect(await toolbar.count()).toBe(0);
      await page.getByLabel('Select Link 21').check();
      await page.getByLabel('Select Link 22').check();
      expect(await toolbar.textContent()).toContain('2 selected');
      await toolbar.getByRole('button', { name: 'Pause' }).click();
      await page.locator('.toast', { hasText: '2 links paused.' }).waitFor();
      expect([await apiStatus('Link 21'), await apiStatus('Link 22'), await apiStatus('Link 23')]).toEqual(['paused', 'paused', 'active']);
      await expect.poll(() => toolbar.count()).toBe(0);
      await page.getByLabel('Select all links on this page').check();
      const shown = (await rowNames(page)).length;
      await toolbar.getByRole('button', { name: 'Resume' }).click();
      await page.locator('.toast', { hasText: `${shown} links resumed.` }).waitFor();
      expect(await apiStatus('Link 21')).toBe('active');
      // Archiving the selection hides them all at once, and one Undo brings them all back.
      await page.getByLabel('Select Link 21').check();
      await page.getByLabel('Select Link 22').check();
      await toolbar.getByRole('button', { name: 'Archive' }).click();
      await page.mouse.move(0, 0);
      await expect.poll(() => rowNames(page)).not.toContain('Link 22');
      expect(await rowNames(page)).not.toContain('Link 21');
      await page.locator('.toast', { hasText: '2 links archived' }).getByRole('button', { name: 'Undo' }).click();
      await page.mouse.move(0, 0);
      await expect.poll(() => rowNames(page)).toContain('Link 21');
      await toastsGone(page);
      expect([await apiHas('Link 21'), await apiHas('Link 22')]).toEqual([200, 200]);
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
      await page.getByLabel('Select Link 04', { exact: true }).check();
      await page.getByLabel('Select Link 05', { exact: true }).check();
      await page.getByLabel('Move to').selectOption({ label: 'Posters' });
      await page.getByRole('toolbar', { name: 'Selected links' }).getByRole('button', { name: 'Move' }).click();
      await page.locator('.toast', { hasText: '2 links moved.' }).waitFor();
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
    const { context, page } = await openLinks('/links?sort=name', { key: readOnlyKey, size: PHONE });
    try {
      await expect.poll(() => rowNames(page)).toHaveLength(20);
      await page.getByRole('button', { name: 'Actions for Link 01' }).click();
      expect(await page.getByRole('menuitem', { name: 'Pause' }).isDisabled()).toBe(true);
      expect(await page.getByRole('menuitem', { name: 'Archive' }).isDisabled()).toBe(true);
      expect(await page.getByRole('menuitem', { name: 'Analytics' }).isDisabled()).toBe(false);
      // Its letter on the row does nothing to the link, and says why.
      await page.keyboard.press('Escape');
      await page.keyboard.press('p');
      await page.locator('.toast', { hasText: 'Pause is off for this key.' }).waitFor();
      expect(await apiStatus('Link 01')).toBe('active');
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

  it('dense rows at 1440 (15+ in view, thumbnails, sparklines) and cards at 390; no serious or critical axe-core finding', async () => {
    for (const size of [PHONE, DESKTOP]) {
      const { context, page, problems } = await openLinks('/links?sort=name', { size, bypassCSP: true });
      try {
        await expect.poll(() => rowNames(page)).toHaveLength(20);
        // Thumbnails are drawn once the rows are there; the sparklines come from one request for the page.
        await expect.poll(() => page.locator('.link-thumb img').count()).toBe(20);
        await expect.poll(() => page.locator('.link-scans .sparkline').count()).toBe(20);
        expect(await row(page, 'Link 02').locator('.link-scans').textContent()).toBe('3');
        expect(await row(page, 'Link 05').locator('.link-destination').textContent()).toBe('Email · owner5@example.com');
        expect(await row(page, 'Link 02').locator('.link-destination').textContent()).toBe('example.com/2');
        if (size === DESKTOP) {
          const inView = await page.locator('.link-row').evaluateAll((rows) =>
            rows.filter((r) => {
              const box = r.getBoundingClientRect();
              return box.top >= 0 && box.bottom <= window.innerHeight;
            }),
          );
          expect(inView.length).toBeGreaterThanOrEqual(15);
          // One line each: the name does not wrap.
          expect(
            await page
              .locator('.link-row')
              .first()
              .evaluate((r) => r.getBoundingClientRect().height),
          ).toBeLessThanOrEqual(49);
        } else {
          // A card: thumbnail beside the name, the short URL and its copy button, the scans and ⋯ inside the card.
          const card = row(page, 'Link 02');
          const box = (await card.boundingBox())!;
          for (const part of ['.link-thumb', '.link-name', '.link-short button', '.link-scans', '.row-menu button']) {
            const inner = (await card.locator(part).boundingBox())!;
            expect(inner.x >= box.x && inner.x + inner.width <= box.x + box.width + 0.5, part).toBe(true);
          }
          // Touch targets of 44 px.
          expect((await card.locator('.row-menu button').boundingBox())!.height).toBeGreaterThanOrEqual(44);
          expect((await card.locator('.link-short button').boundingBox())!.width).toBeGreaterThanOrEqual(44);
        }
        expect(await overflowingElements(page, size.viewport.width), `wider than ${size.viewport.width} px`).toEqual([]);
        // On a phone the console's navigation comes first; the picture starts at the links.
        await page.locator('.links-main').evaluate((e) => e.scrollIntoView());
        await consoleScreenshot(page, 'links', { dark: true });
        expect(await seriousViolationsOn(page), `links ${size.viewport.width}`).toEqual([]);
        expect(await seriousViolationsByTheme(page), `links ${size.viewport.width}`).toEqual({ light: [], dark: [] });
        // With a row's menu open and rows selected (the toolbar).
        await page.getByLabel('Select Link 02').check();
        await page.getByLabel('Select Link 03').check();
        await page.getByRole('button', { name: 'Actions for Link 02' }).click();
        await page.getByRole('menu').waitFor();
        await consoleScreenshot(page, 'links-menu', { dark: true });
        expect(await seriousViolationsByTheme(page), `links menu ${size.viewport.width}`).toEqual({ light: [], dark: [] });
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });

  it('an account without links is offered its first one, at both widths', async () => {
    const empty = await createTestAccount(api.ctx, { plan: 'pro', name: 'New Cafe' });
    for (const size of [PHONE, DESKTOP]) {
      const { context, page } = await openLinks('/links', { size, key: empty.key, bypassCSP: true });
      try {
        const create = page.getByRole('link', { name: 'Create your first link' });
        await create.waitFor();
        expect(await create.getAttribute('href')).toBe('#/links/new');
        expect(await page.getByRole('heading', { name: 'No links yet' }).count()).toBe(1);
        expect(await overflowingElements(page, size.viewport.width)).toEqual([]);
        await consoleScreenshot(page, 'links-empty', { dark: true });
        expect(await seriousViolationsByTheme(page), `empty ${size.viewport.width}`).toEqual({ light: [], dark: [] });
      } finally {
        await context.close();
      }
    }
  });
});
