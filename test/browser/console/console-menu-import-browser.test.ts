/**
 * The cafe page's menu import and today's scans in headless Chromium, against the real api,
 * workers and redirect: a 500-item CSV in 25 categories (four named groups, and rows without one:
 * General) dropped on the zone is previewed with its one bad cell marked in the API schema's
 * words, and the import is refused until it is fixed; the fixed file, chosen through the file
 * input, replaces the old menu after a confirm reached by keyboard (focus then on the import's
 * panel), the progress bar following the cafe-bulk-insert job to 100%; the menu editor, the API
 * and the guest menu page then hold the 500 items in the file's order. Scans sent through the
 * redirect to the menu link (a bot among them) are the cafe page's and the cafe list's "scans
 * today", the API's number, linked to that link's dashboard. An Excel file of a Portuguese cafe
 * (semicolons, decimal commas, accents, Portuguese headings, a photo column; UTF-8 with and
 * without a BOM) is previewed saying how it was read and imported with its prices and names as
 * written (Café, with café merged into it). axe-core finds nothing serious in
 * either theme at 390 and 1440 px, and nothing is wider than the phone.
 */
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureConsoleBuilt } from '#console/build.js';
import { sampleMenuCsv } from '#console/src/cafes/menu-import.js';
import {
  consoleScreenshot,
  DESKTOP,
  dropCsvFile,
  hasChromium,
  launchChromium,
  overflowingElements,
  PHONE,
  seriousViolationsByTheme,
  signInBeforeLoad,
} from '../../support/browser.js';
import { call } from '../../support/harness.js';
import { SCAN_USER_AGENTS, startScanStack, type ScanStack } from '../../support/redirect.js';

let stack: ScanStack;
let base: string;
let browser: Browser;
let cafe: { id: string; name: string; link: { id: string; dynamic_link_id: string; full_dynamic_url: string } };

/** The browser's zone in these tests, and so the zone "today" is counted in. */
const ZONE = 'Europe/Lisbon';
const ITEMS = 500;
/** The bad row (the header being row 1) and its bad price. */
const BAD_ROW = 5;

/** 500 items in 25 categories: four named groups and General (a blank group), some with descriptions, commas and ingredients. */
function menuCsv(bad: boolean): string {
  const lines = ['name,price,currency,category,group,description,ingredients'];
  for (let i = 0; i < ITEMS; i++) {
    const row = i + 2;
    const group = i % 25 < 20 ? `Group ${Math.floor((i % 25) / 5)}` : '';
    const price = bad && row === BAD_ROW ? '"3,50"' : ((i % 40) / 4 + 1).toFixed(2);
    const description = i % 3 === 0 ? `"Dish ${i + 1}, made fresh"` : '';
    lines.push(`Dish ${i + 1},${price},EUR,Category ${i % 25},${group},${description},${i % 2 ? 'salt; pepper' : ''}`);
  }
  return `${lines.join('\r\n')}\r\n`;
}

beforeAll(async () => {
  await ensureConsoleBuilt();
  // Scans come from the test's own addresses, passed on as a proxy would.
  stack = await startScanStack({ TRUSTED_PROXIES: '127.0.0.1', JOB_WAIT_MS: '1500' }, { plan: 'pro', name: 'Cafe Aroma' });
  await stack.api.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(stack.api.app.server.address() as { port: number }).port}/`;
  cafe = (await call(stack.api.app, stack.me.key, 'POST', '/api/v1/cafes', { name: 'Café Lisboa' })).json().data;
  // The menu the import replaces: three items in one category.
  const old = await call(stack.api.app, stack.me.key, 'POST', `/api/v1/cafes/${cafe.id}/items/bulk-insert`, {
    items: ['Old 1', 'Old 2', 'Old 3'].map((name) => ({ name, price: 1, currency: 'EUR', category: 'Old' })),
  });
  expect(old.statusCode, old.body).toBe(200);
  if (hasChromium) browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

async function openCafe(size: typeof PHONE | typeof DESKTOP, options: { bypassCSP?: boolean; cafeId?: string } = {}) {
  const context = await browser.newContext({ ...size, bypassCSP: options.bypassCSP ?? false, timezoneId: ZONE, acceptDownloads: true });
  await signInBeforeLoad(context, stack.me.key);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource') && problems.push(m.text()));
  await page.goto(`${base}#/cafes/${options.cafeId ?? cafe.id}/import`);
  await page.getByRole('heading', { name: 'Import a whole menu from a CSV file' }).waitFor();
  return { context, page, problems };
}

/** Drops a CSV file on the drop zone and waits for it to be taken. */
async function dropFile(page: Page, name: string, text: string) {
  await dropCsvFile(page, '.menu-import .drop-zone', name, text);
  await page.getByText(`Chosen: ${name}.`).waitFor();
}

const summary = (page: Page) => page.locator('.menu-import .bulk-summary').textContent();
/** The marked cells of the preview: [row, column, the cell's text]. */
const markedCells = (page: Page) =>
  page.$$eval('.menu-import .bulk-table tbody td.cell-invalid', (cells) =>
    cells.map((td) => [td.closest('tr')!.querySelector('th')!.textContent, td.getAttribute('data-column'), td.textContent]),
  );

async function previewWithBadRow(page: Page) {
  await dropFile(page, 'menu.csv', menuCsv(true));
  await expect.poll(() => summary(page)).toBe('500 items in 25 categories and 5 groups. 499 rows ready, 1 needs fixing.');
}

async function apiItems() {
  const res = await call(stack.api.app, stack.me.key, 'GET', `/api/v1/cafes/${cafe.id}/items`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as Array<{ name: string; price: number; description: string | null; ingredients: string[] }>;
}

describe.skipIf(!hasChromium)('console cafe menu import', () => {
  it(
    'previews 500 rows with the bad cell marked, imports the fixed file after a confirm with its progress to 100%; the editor, API and guest page hold them',
    { timeout: 120_000 },
    async () => {
      const { context, page, problems } = await openCafe(DESKTOP);
      try {
        expect(await page.locator('.menu-import .notice.warning').textContent()).toContain('Importing replaces the whole menu.');
        const [sample] = await Promise.all([
          page.waitForEvent('download'),
          page.getByRole('button', { name: 'Download a sample CSV' }).click(),
        ]);
        expect(sample.suggestedFilename()).toBe('qrlinks-menu-sample.csv');
        expect(await readFile(await sample.path(), 'utf8')).toBe(sampleMenuCsv());

        await previewWithBadRow(page);
        expect(await markedCells(page)).toEqual([
          [String(BAD_ROW), 'price', '3,50Must be a number from 0 to 999999999.999 with at most 3 decimals'],
        ]);
        expect(await page.locator('.menu-import .bulk-table tbody tr').count()).toBe(ITEMS);
        const replace = page.getByRole('button', { name: /^Replace the menu with these 500 items/ });
        expect(await replace.isDisabled()).toBe(true);
        // Only the row to fix, on request.
        await page.getByLabel('Show only the rows that need fixing').check();
        expect(await page.locator('.menu-import .bulk-table tbody tr').count()).toBe(1);

        // The fixed file, chosen through the input (the zone's keyboard path).
        await page
          .locator('#menu-import-file')
          .setInputFiles({ name: 'menu-fixed.csv', mimeType: 'text/csv', buffer: Buffer.from(menuCsv(false)) });
        await expect.poll(() => summary(page)).toBe('500 items in 25 categories and 5 groups. 500 rows ready.');
        expect(await markedCells(page)).toEqual([]);
        expect((await apiItems()).map((i) => i.name)).toEqual(['Old 1', 'Old 2', 'Old 3']);

        // Asked first; Cancel changes nothing.
        await replace.click();
        const dialog = page.getByRole('dialog', { name: 'Replace the whole menu?' });
        await dialog.waitFor();
        expect(await dialog.textContent()).toContain('500 items in 25 categories and 5 groups');
        await dialog.getByRole('button', { name: 'Cancel' }).click();
        await dialog.waitFor({ state: 'detached' });
        expect(await apiItems()).toHaveLength(3);

        // By keyboard: Enter on the button opens the confirm with focus inside it; its submit starts the import.
        await replace.focus();
        await page.keyboard.press('Enter');
        await dialog.waitFor();
        await expect.poll(() => page.evaluate(() => !!document.activeElement?.closest('dialog'))).toBe(true);
        await dialog.getByRole('button', { name: 'Replace the menu' }).focus();
        await page.keyboard.press('Enter');
        const bar = page.getByRole('progressbar', { name: 'The import' });
        await bar.waitFor();
        // Focus is not lost with the closed confirm: it is on the import's panel.
        await expect.poll(() => page.evaluate(() => document.activeElement?.className)).toBe('bulk-run-wrap');
        await expect.poll(() => bar.getAttribute('aria-valuenow'), { timeout: 30_000 }).toBe('100');
        await page
          .getByRole('status')
          .filter({ hasText: 'Done: the menu now has 500 items in 25 categories and 5 groups. It replaced 3 items.' })
          .waitFor();
        // Once finished the file cannot be sent again by mistake: a new import starts from a new file.
        expect(await replace.isDisabled()).toBe(true);
        // One job for the import (the other made the old menu), finished.
        const jobs = (await call(stack.api.app, stack.me.key, 'GET', '/api/v1/jobs')).json().data as Array<{ type: string; state: string }>;
        expect(jobs.filter((j) => j.type === 'cafe-bulk-insert').map((j) => j.state)).toEqual(['completed', 'completed']);

        // The API's menu: the file's rows in its order.
        const items = await apiItems();
        expect(items).toHaveLength(ITEMS);
        expect(items.map((i) => i.name)).toEqual(Array.from({ length: ITEMS }, (_, i) => `Dish ${i + 1}`));
        expect(items[0]).toMatchObject({ price: 1, description: 'Dish 1, made fresh', ingredients: [] });
        expect(items[1]).toMatchObject({ price: 1.25, description: null, ingredients: ['salt', 'pepper'] });

        // The editor was made afresh: its dishes are the API's, the old category gone. A menu this
        // big starts with its categories closed: opened all at once.
        await page.getByRole('link', { name: 'See the menu' }).click();
        await expect.poll(() => page.evaluate(() => location.hash)).toBe(`#/cafes/${cafe.id}/menu`);
        const editor = page.locator('.menu-editor');
        await editor.getByText('500 dishes in 25 categories').waitFor();
        await editor.getByRole('button', { name: 'Open all' }).click();
        await expect.poll(() => editor.getByRole('list', { name: /^Dishes in / }).count()).toBe(25);
        expect(await editor.getByRole('list', { name: 'Dishes in Old' }).count()).toBe(0);
        const shown = await editor
          .getByRole('list', { name: /^Dishes in / })
          .locator('li')
          .count();
        expect(shown).toBe(items.length);

        // The guest page, served by the redirect, lists them all.
        const guest = await context.newPage();
        await guest.goto(`${stack.redirect.base}/${cafe.link.dynamic_link_id}`);
        const names = await guest.locator('h4').allTextContents();
        expect(names).toHaveLength(items.length);
        expect(new Set(names)).toEqual(new Set(items.map((i) => i.name)));
        await guest.close();
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );

  it(
    'imports an Excel semicolon file with decimal commas and accents, with and without a BOM: prices and names as written',
    { timeout: 120_000 },
    async () => {
      const excel = [
        'Nome;Preço;Categoria;Grupo;Alergénios;Foto',
        'Galão;2,50;Café;Bebidas;Leite;https://example.com/galao.jpg',
        'Pão de Deus;1.234,50;Pastelaria;;Glúten|Ovos;',
        '"Bica; curta";0,90;café;bebidas;;',
      ].join('\r\n');
      for (const bom of [false, true]) {
        const own = (
          await call(stack.api.app, stack.me.key, 'POST', '/api/v1/cafes', { name: `Pastelaria ${bom ? 'BOM' : 'UTF-8'}` })
        ).json().data;
        const { context, page, problems } = await openCafe(DESKTOP, { cafeId: own.id });
        try {
          const bytes = Buffer.concat([Buffer.from(bom ? [0xef, 0xbb, 0xbf] : []), Buffer.from(`${excel}\r\n`, 'utf8')]);
          await page.locator('#menu-import-file').setInputFiles({ name: 'ementa.csv', mimeType: 'text/csv', buffer: bytes });
          await expect.poll(() => summary(page)).toBe('3 items in 2 categories and 2 groups. 3 rows ready.');
          const format = await page.locator('#menu-import-format').textContent();
          expect(format).toContain('Separated by semicolons; prices with decimal commas.');
          expect(format).toContain('Not imported: the column Foto');
          expect(await page.locator('.menu-import .bulk-table thead th').allTextContents()).toEqual([
            'Row',
            'Nome',
            'Preço',
            'Categoria',
            'Grupo',
            'Alergénios',
            'Foto',
            'Check',
          ]);
          await page.getByRole('button', { name: /^Replace the menu with these 3 items/ }).click();
          const dialog = page.getByRole('dialog', { name: 'Replace the whole menu?' });
          await dialog.getByRole('button', { name: 'Replace the menu' }).click();
          await expect
            .poll(() => page.getByRole('progressbar', { name: 'The import' }).getAttribute('aria-valuenow'), { timeout: 30_000 })
            .toBe('100');

          const items = (await call(stack.api.app, stack.me.key, 'GET', `/api/v1/cafes/${own.id}/items`)).json().data as Array<
            Record<string, unknown>
          >;
          expect(items.map((i) => [i.name, i.price, i.currency, i.allergens])).toEqual([
            ['Galão', 2.5, 'EUR', ['Leite']],
            ['Pão de Deus', 1234.5, 'EUR', ['Glúten', 'Ovos']],
            ['Bica; curta', 0.9, 'EUR', []],
          ]);
          const categories = (await call(stack.api.app, stack.me.key, 'GET', `/api/v1/cafes/${own.id}/categories`)).json().data as Array<{
            name: string;
          }>;
          expect(categories.map((c) => c.name)).toEqual(['Café', 'Pastelaria']);
          expect(problems).toEqual([]);
        } finally {
          await context.close();
        }
      }
    },
  );

  it(
    "shows the menu link's scans today, the API's number, on the cafe page and in the list, linked to its dashboard",
    { timeout: 60_000 },
    async () => {
      // Scans already made (the guest page opened above) settle first, so the count below is of these alone.
      const earlier = (await stack.waitForScans(cafe.link.id, Number.MAX_SAFE_INTEGER, 1500)).length;
      const before = (
        await call(
          stack.api.app,
          stack.me.key,
          'GET',
          `/api/v1/links/${cafe.link.dynamic_link_id}/analytics/general?duration=today&timezone=${encodeURIComponent(ZONE)}`,
        )
      ).json().data.numberOfScans;
      const agents = [
        SCAN_USER_AGENTS.iosSafari,
        SCAN_USER_AGENTS.androidChrome,
        SCAN_USER_AGENTS.linuxFirefox,
        SCAN_USER_AGENTS.googlebot,
      ];
      for (const [i, agent] of agents.entries()) {
        const res = await stack.redirect.get(`/${cafe.link.dynamic_link_id}`, {
          headers: { 'user-agent': agent, 'x-forwarded-for': `203.0.113.${10 + i}` },
        });
        expect(res.status).toBe(200);
      }
      expect(await stack.waitForScans(cafe.link.id, earlier + agents.length)).toHaveLength(earlier + agents.length);
      const today = (
        await call(
          stack.api.app,
          stack.me.key,
          'GET',
          `/api/v1/links/${cafe.link.dynamic_link_id}/analytics/general?duration=today&timezone=${encodeURIComponent(ZONE)}`,
        )
      ).json().data;
      // The three people's scans, the bot's left out (as the dashboard counts them).
      expect(today.numberOfScans).toBe(before + 3);
      expect(today.botScans).toBeGreaterThanOrEqual(1);

      const { context, page, problems } = await openCafe(DESKTOP);
      try {
        const count = page.locator('.menu-scans').getByRole('link', { name: `${today.numberOfScans} scans today` });
        await count.waitFor();
        expect(await count.getAttribute('href')).toBe(`#/analytics/${cafe.link.dynamic_link_id}`);
        await count.click();
        await expect.poll(() => page.evaluate(() => location.hash)).toBe(`#/analytics/${cafe.link.dynamic_link_id}`);
        // The link's own dashboard: its scans total is the same number.
        await page.locator('[data-total="scans"]').waitFor();
        await expect
          .poll(async () => (await page.locator('[data-total="scans"]').textContent())?.replace(/\D/g, ''))
          .toBe(String(today.numberOfScans));

        // The list: one ranked request for every cafe, the same number, described by the cafe's name.
        await page.goto(`${base}#/cafes`);
        const listed = page.getByRole('list', { name: 'Your cafes' }).getByRole('link', { name: `${today.numberOfScans} scans today` });
        await listed.waitFor();
        expect(await listed.getAttribute('aria-describedby')).toBe(`cafe-name-${cafe.id}`);
        expect(await page.locator(`#cafe-name-${cafe.id}`).textContent()).toBe('Café Lisboa');
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );

  it(
    'has no serious or critical axe-core finding on the preview, the confirm and the finished import, at both widths in both themes, and nothing wider than the phone',
    { timeout: 240_000 },
    async () => {
      for (const size of [PHONE, DESKTOP]) {
        // A cafe of its own with an empty menu: axe reads the import, not 500 dishes of the editor too.
        const own = (await call(stack.api.app, stack.me.key, 'POST', '/api/v1/cafes', { name: 'Café Porto' })).json().data;
        const { context, page } = await openCafe(size, { bypassCSP: true, cafeId: own.id });
        try {
          await previewWithBadRow(page);
          expect(await overflowingElements(page, size.viewport.width), `wider than ${size.viewport.width} px`).toEqual([]);
          // The phone shows the rows from the summary down; the desktop the whole section's top.
          await page.locator(size === PHONE ? '.menu-import .bulk-summary' : '.menu-import').evaluate((e) => e.scrollIntoView());
          await consoleScreenshot(page, 'cafe-menu-import-preview', { dark: true });
          expect(await seriousViolationsByTheme(page), `preview at ${size.viewport.width}`).toEqual({ light: [], dark: [] });
          // The confirm and the finished import, with the sample file (the same panels, a short menu).
          await page
            .locator('#menu-import-file')
            .setInputFiles({ name: 'sample.csv', mimeType: 'text/csv', buffer: Buffer.from(sampleMenuCsv()) });
          await expect.poll(() => summary(page)).toBe('5 items in 4 categories and 3 groups. 5 rows ready.');
          await page.getByRole('button', { name: /^Replace the menu with these 5 items/ }).click();
          const dialog = page.getByRole('dialog', { name: 'Replace the whole menu?' });
          await dialog.waitFor();
          expect(await seriousViolationsByTheme(page), `confirm at ${size.viewport.width}`).toEqual({ light: [], dark: [] });
          // And the finished import's panel.
          await dialog.getByRole('button', { name: 'Replace the menu' }).click();
          await expect
            .poll(() => page.getByRole('progressbar', { name: 'The import' }).getAttribute('aria-valuenow'), { timeout: 30_000 })
            .toBe('100');
          expect(await overflowingElements(page, size.viewport.width), `finished, wider than ${size.viewport.width} px`).toEqual([]);
          expect(await seriousViolationsByTheme(page), `finished at ${size.viewport.width}`).toEqual({ light: [], dark: [] });
        } finally {
          await context.close();
        }
      }
    },
  );
});
