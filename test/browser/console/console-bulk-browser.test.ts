/**
 * The console's bulk generation screen in headless Chromium against the real api and workers: a
 * 200-row website CSV dropped on the drop zone is checked (exactly its 2 bad cells marked, with the
 * API's messages); the fixed file, chosen and sent by keyboard, generates one batch (the answer
 * held back by a paused queue comes as a 202 and the progress bar follows the job), the ZIP
 * downloads with 200 codes that decode to their links, and the links are in the Links table of the
 * chosen folder. Pasted rows are fixed in the textarea and checked again; keys without the folder
 * and template scopes, or without bulk.create, are told why; axe-core finds nothing serious.
 */
import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers, type RunningWorkers } from '#workers/index.js';
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
import { startConsoleApi } from '../../support/console.js';
import { addKey, call, createTestAccount, type TestAccount, type TestApi } from '../../support/harness.js';
import { unzip } from '../../support/images.js';
import { decodesAll } from '../../support/qr-reference.js';

let api: TestApi;
let base: string;
let browser: Browser;
let workers: RunningWorkers;
let owner: TestAccount;
let folderId: string;

const ROWS = 200;
/** A 200-row website file; `broken` rows (by spreadsheet row number, the header being row 1) carry the given bad cells. */
function tablesCsv(broken: Record<number, { name?: string; url?: string }> = {}): string {
  const lines = ['name,url'];
  for (let row = 2; row <= ROWS + 1; row++) {
    const cells = { name: `Table ${row - 1}`, url: `https://example.com/menu?table=${row - 1}`, ...broken[row] };
    lines.push(`${cells.name},${cells.url}`);
  }
  return `${lines.join('\r\n')}\r\n`;
}
const BAD = { 7: { url: 'not a url' }, 150: { name: '' } };

beforeAll(async () => {
  // A short wait for jobs, so a paused queue answers 202 quickly (the console follows either answer).
  ({ api, base } = await startConsoleApi({ JOB_WAIT_MS: '1500' }));
  workers = await startWorkers(api.ctx);
  owner = await createTestAccount(api.ctx, { plan: 'pro', name: 'Cafe Aroma' });
  folderId = (await call(api.app, owner.key, 'POST', '/api/v1/folders', { name: 'Table tents' })).json().id;
  await call(api.app, owner.key, 'POST', '/api/v1/templates', {
    name: 'Cafe red',
    qrOptions: { dotsOptions: { color: '#aa2222', type: 'rounded' } },
  });
  if (hasChromium) browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  for (const running of [browser, workers, api]) await running?.close();
});

async function openBulk(options: { key?: string; size?: typeof PHONE | typeof DESKTOP; bypassCSP?: boolean } = {}) {
  const context = await browser.newContext({ ...(options.size ?? DESKTOP), bypassCSP: options.bypassCSP ?? false, acceptDownloads: true });
  await signInBeforeLoad(context, options.key ?? owner.key);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource') && problems.push(m.text()));
  await page.goto(`${base}#/bulk`);
  await page.getByRole('heading', { name: 'Bulk generation' }).waitFor();
  return { context, page, problems };
}

/** Drops a CSV file on the drop zone and waits for it to be taken. */
async function dropFile(page: Page, name: string, text: string) {
  await dropCsvFile(page, '.drop-zone', name, text);
  await page.getByText(`Chosen: ${name}.`).waitFor();
}

/** The marked cells of the report: [row, column, the cell's text]. */
const markedCells = (page: Page) =>
  page.$$eval('.bulk-table tbody td.cell-invalid', (cells) =>
    cells.map((td) => [td.closest('tr')!.querySelector('th')!.textContent, td.getAttribute('data-column'), td.textContent]),
  );
const summary = (page: Page) => page.locator('.bulk-summary').textContent();
const focusedName = (page: Page) => page.evaluate(() => document.activeElement?.id || document.activeElement?.textContent?.trim());

/**
 * The file chooser, opened by Enter on the focused file input. Under load headless Chromium now and
 * then opens none for a press (about one run in four here, sometimes twice running); pressing
 * again, Enter or Space as a person would, is what it takes, and a chooser that never opens still
 * fails the test.
 */
async function chooserByKeyboard(page: Page) {
  for (let attempt = 1; ; attempt++) {
    const opened = page.waitForEvent('filechooser', { timeout: 5000 });
    await page.keyboard.press(attempt % 2 === 1 ? 'Enter' : 'Space');
    try {
      return await opened;
    } catch (err) {
      if (attempt < 4) continue;
      // What the page was in, for a failure that is not reproducible at will.
      const state = await page.evaluate(() => ({
        focused: document.activeElement?.id,
        userActivation: navigator.userActivation.isActive,
        disabled: (document.getElementById('bulk-file') as HTMLInputElement).disabled,
        pageHasFocus: document.hasFocus(),
      }));
      throw new Error(`Enter on the file input opened no file chooser: ${JSON.stringify(state)}`, { cause: err });
    }
  }
}

async function checkedWithTwoBadRows(page: Page) {
  await dropFile(page, 'tables.csv', tablesCsv(BAD));
  await page.getByRole('button', { name: 'Check' }).click();
  await expect.poll(() => summary(page)).toBe('198 rows ready, 2 need fixing.');
}

describe.skipIf(!hasChromium)('console bulk generation screen', () => {
  it(
    'checks a dropped 200-row CSV, generates the fixed one by keyboard, follows the job, downloads the ZIP; the links are listed',
    { timeout: 90_000 },
    async () => {
      const { context, page, problems } = await openBulk();
      try {
        // The columns of the chosen type, and a sample file made in the browser.
        expect(await page.locator('.bulk-columns').textContent()).toContain('Required');
        const [sample] = await Promise.all([
          page.waitForEvent('download'),
          page.getByRole('button', { name: 'Download a sample CSV' }).click(),
        ]);
        expect(sample.suggestedFilename()).toBe('qrlinks-website-sample.csv');
        expect((await readFile(await sample.path(), 'utf8')).split('\r\n')[0]).toBe('name,url');

        await page.getByLabel('Folder (optional)').selectOption({ label: 'Table tents' });
        await page.getByLabel('Template (optional)').selectOption({ label: 'Cafe red' });
        await checkedWithTwoBadRows(page);
        expect(await markedCells(page)).toEqual([
          ['7', 'url', 'not a urlMust be a valid URL'],
          ['150', 'name', '(blank)Required'],
        ]);
        expect(await page.locator('.bulk-table tbody tr').count()).toBe(ROWS);
        expect(await page.locator('.bulk-table tbody tr.row-invalid').count()).toBe(2);
        expect(await page.getByRole('button', { name: 'Generate' }).isDisabled()).toBe(true);
        await page.getByLabel('Show only the rows that need fixing').check();
        expect(await page.locator('.bulk-table tbody th').allTextContents()).toEqual(['7', '150']);

        // The fixed file, by keyboard: Tab from the template to the source choice, to the file input
        // (Enter opens the chooser), to Check, to Generate.
        await page.getByLabel('Template (optional)').focus();
        await page.keyboard.press('Tab');
        await page.keyboard.press('Tab');
        expect(await focusedName(page)).toBe('bulk-file');
        expect(await page.evaluate(() => getComputedStyle(document.querySelector('.drop-zone')!).outlineWidth)).toBe('3px');
        const chooser = await chooserByKeyboard(page);
        await chooser.setFiles({ name: 'tables-fixed.csv', mimeType: 'text/csv', buffer: Buffer.from(tablesCsv()) });
        await page.getByText('Chosen: tables-fixed.csv.').waitFor();
        expect(await page.getByRole('button', { name: 'Generate' }).isDisabled()).toBe(true);
        await page.keyboard.press('Tab');
        expect(await focusedName(page)).toBe('Check');
        await page.keyboard.press('Enter');
        await expect.poll(() => summary(page)).toBe('200 rows ready.');
        expect(await markedCells(page)).toEqual([]);

        // The queue held: the answer is a 202 and the bar waits at 0; released, it runs to the ZIP.
        const queue = api.ctx.queues['bulk-generate'];
        await queue.pause();
        await page.keyboard.press('Tab');
        expect(await focusedName(page)).toBe('Generate');
        const sent = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/api/v1/bulk-generate'));
        await page.keyboard.press('Enter');
        expect((await sent).headers()['idempotency-key']).toMatch(/^[0-9a-f]{32}$/);
        // Focus moves to the batch's panel; another Enter there makes no second batch.
        await expect.poll(() => page.evaluate(() => document.activeElement?.className)).toBe('bulk-run-wrap');
        await page.keyboard.press('Enter');
        const bar = page.getByRole('progressbar', { name: 'The batch' });
        await bar.waitFor({ timeout: 10_000 });
        expect(await bar.getAttribute('aria-valuenow')).toBe('0');
        expect(await page.locator('.bulk-run [role="status"]').textContent()).toBe('Waiting for its turn…');
        await queue.resume();
        const download = page.getByRole('button', { name: 'Download the codes (qr-codes.zip)' });
        await download.waitFor({ timeout: 30_000 });
        expect(await page.locator('.bulk-run [role="status"]').textContent()).toBe(
          'Done: 200 links made. The ZIP of their codes is ready.',
        );
        // The same rows are not offered again: another press could only answer the same batch.
        expect(await page.getByRole('button', { name: 'Generate' }).isDisabled()).toBe(true);
        await page.locator('.bulk-run').evaluate((e) => e.scrollIntoView({ block: 'center' }));
        await consoleScreenshot(page, 'bulk-done');
        await page.keyboard.press('Tab');
        expect(await focusedName(page)).toBe('Download the codes (qr-codes.zip)');
        const [file] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
        const entries = await unzip(await readFile(await file.path()));
        expect([...entries.keys()].filter((n) => n.endsWith('.png'))).toHaveLength(ROWS);
        const manifest = parse(entries.get('manifest.csv')!);
        expect(manifest).toHaveLength(ROWS + 1);
        const [, name, slug, shortUrl, png] = manifest[42]!;
        expect(name).toBe('Table 42');
        // The short URL with the source marker every rendered code carries.
        expect(await decodesAll([entries.get(png!)!], `${shortUrl!}?q`)).toEqual([true]);

        // One batch, in the folder, and the link decoded is one of them.
        const jobs = (await call(api.app, owner.key, 'GET', '/api/v1/jobs'))
          .json()
          .data.filter((j: { type: string }) => j.type === 'bulk-generate');
        expect(jobs).toHaveLength(1);
        const link = (await call(api.app, owner.key, 'GET', `/api/v1/links/${slug}`)).json().data;
        expect([link.name, link.folder_id, link.meta_data.url]).toEqual(['Table 42', folderId, 'https://example.com/menu?table=42']);

        // The batch's print sheets (POST /print-sheets {bulkJobId}): asked in a dialog that Escape closes, focus back on its button.
        await page.getByRole('button', { name: 'Print sheets' }).click();
        await page.getByRole('dialog', { name: 'Print sheets of this batch' }).waitFor();
        await page.keyboard.press('Escape');
        await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
        expect(await focusedName(page)).toBe('Print sheets');

        await page.getByRole('link', { name: 'See the new links' }).click();
        await page.getByRole('heading', { name: 'Links', exact: true }).waitFor();
        expect(new URL(page.url()).hash).toBe(`#/links?folder=${folderId}`);
        await expect.poll(() => page.locator('.link-row').count()).toBe(20);
        expect(await page.locator('.link-row .link-name').first().textContent()).toMatch(/^Table \d+$/);
        expect(await page.locator('.pager').textContent()).toContain(`Page 1 of ${ROWS / 20}`);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );

  it('pasted rows are fixed in the textarea and checked again', async () => {
    const { context, page } = await openBulk({ size: PHONE });
    try {
      await page.getByLabel('Link type').selectOption('sms');
      expect(await page.locator('.bulk-columns').textContent()).toMatch(/Required.*name.*phone.*Optional.*message/s);
      await page.getByLabel('Paste rows').check();
      const rows = page.getByLabel('Rows as CSV: the header row first, then one row per link');
      await rows.fill('name,phone,message\nDesk,+1 555 0100,Hello\nBar,call me,\nTerrace,+1 555 0102,"Hi, there"');
      await page.getByRole('button', { name: 'Check' }).click();
      await expect.poll(() => summary(page)).toBe('2 rows ready, 1 needs fixing.');
      expect(await markedCells(page)).toEqual([['3', 'phone', 'call meMust be a valid phone number']]);
      await rows.fill('name,phone,message\nDesk,+1 555 0100,Hello\nBar,+1 555 0101,\nTerrace,+1 555 0102,"Hi, there"');
      // The report stays until checked again, and Generate waits for that check.
      expect(await page.locator('#bulk-generate-why').textContent()).toContain('changed since the last check');
      await page.getByRole('button', { name: 'Check' }).click();
      await expect.poll(() => summary(page)).toBe('3 rows ready.');
      expect(await page.getByRole('button', { name: 'Generate' }).isEnabled()).toBe(true);
      // A header the type does not take is said at the file and its column.
      await rows.fill('name,mobile\nDesk,+1 555 0100');
      await page.getByRole('button', { name: 'Check' }).click();
      await expect.poll(() => summary(page)).toBe('The rows could not be read: fix the problems shown at the file and check again.');
      expect(await page.locator('#field-file-error').textContent()).toContain('the columns of sms records are');
      expect(await page.locator('.bulk-table thead .cell-invalid').textContent()).toBe('mobileUnknown column "mobile"');
    } finally {
      await context.close();
    }
  });

  it('a key without the folder and template scopes makes batches without them; without bulk.create the page says why', async () => {
    const bulkOnly = await addKey(api.ctx, owner.accountId, ['bulk.create']);
    const first = await openBulk({ key: bulkOnly.key });
    try {
      await expect
        .poll(() => first.page.locator('.bulk-form').textContent())
        .toContain('This key lacks the folders.read scope. The batch is made without one.');
      expect(await first.page.locator('.bulk-form').textContent()).toContain(
        'This key lacks the templates.read scope. The batch is made without one.',
      );
      expect(await first.page.locator('#field-folderId').count()).toBe(0);
    } finally {
      await first.context.close();
    }
    const linksOnly = await addKey(api.ctx, owner.accountId, ['links.read']);
    const second = await browser.newContext({ ...DESKTOP });
    try {
      await signInBeforeLoad(second, linksOnly.key);
      const page = await second.newPage();
      await page.goto(`${base}#/bulk`);
      await page.getByRole('heading', { name: 'Bulk', exact: true }).waitFor();
      expect(await page.locator('main').textContent()).toContain('This key lacks the bulk.create scope.');
      expect(await page.locator('nav li.disabled', { hasText: 'Bulk' }).textContent()).toContain('This key lacks the bulk.create scope.');
    } finally {
      await second.close();
    }
  });

  it('has no serious or critical axe-core finding with a report of bad rows, at both widths and in both themes', async () => {
    for (const size of [PHONE, DESKTOP]) {
      const { context, page } = await openBulk({ size, bypassCSP: true });
      try {
        await checkedWithTwoBadRows(page);
        expect(await overflowingElements(page, size.viewport.width), `wider than ${size.viewport.width} px`).toEqual([]);
        await page.getByLabel('Show only the rows that need fixing').check();
        await page.locator('.bulk-actions').evaluate((e) => e.scrollIntoView());
        await consoleScreenshot(page, 'bulk', { dark: true });
        expect(await seriousViolationsByTheme(page), `bulk ${size.viewport.width}`).toEqual({ light: [], dark: [] });
      } finally {
        await context.close();
      }
    }
  });
});
