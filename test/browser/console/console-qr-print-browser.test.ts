/**
 * The QR designer's print check against the real api (its gate: simulated phones, jsQR and
 * zxing-wasm) in headless Chromium: a good design scans well, a pale grey one will fail and says
 * why, "Apply fix" changes the design and the toast's Undo restores it, the size chosen is the one
 * judged, and axe-core finds nothing serious at 390 and 1440 px in either theme.
 */
import { readFile } from 'node:fs/promises';
import type { Browser, Download, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { choice, openSection, previewSvg } from '../../support/qr-designer.js';
import { startWorkers, type RunningWorkers } from '#workers/index.js';

let api: TestApi;
let base: string;
let browser: Browser;
let owner: TestAccount;
let workers: RunningWorkers;

beforeAll(async () => {
  ({ api, base } = await startConsoleApi());
  // Print sheets are a job: the workers lay them out.
  workers = await startWorkers(api.ctx);
  owner = await createTestAccount(api.ctx, { plan: 'pro', name: 'Cafe Aroma' });
  if (hasChromium) browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await workers?.close();
  await api?.close();
});

async function open(hash: string, options: { size?: typeof PHONE | typeof DESKTOP; bypassCSP?: boolean } = {}) {
  const context = await browser.newContext({ ...(options.size ?? DESKTOP), bypassCSP: options.bypassCSP ?? false, acceptDownloads: true });
  await signInBeforeLoad(context, owner.key);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on(
    'console',
    (m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource') && problems.push(`console: ${m.text()}`),
  );
  const reports: Array<{ sizeMm: number }> = [];
  page.on('request', (r) => r.url().endsWith('/api/v1/qr/report') && reports.push(r.postDataJSON() as { sizeMm: number }));
  await page.goto(`${base}#${hash}`);
  return { context, page, problems, reports };
}

const verdict = (page: Page) => page.getByTestId('print-verdict');
/** The verdict once the gate has answered (nothing pending). */
async function settledVerdict(page: Page): Promise<string> {
  await page.locator('[data-testid="print-verdict"][aria-busy="false"] .qr-verdict-line strong').waitFor({ timeout: 30_000 });
  return (await verdict(page).locator('.qr-verdict-line strong').textContent())!;
}

describe.skipIf(!hasChromium)('console QR designer: the print check', () => {
  it('a good design scans well; a pale grey one will fail with its reason; Apply fix changes it and Undo restores it', async () => {
    const { context, page, problems, reports } = await open('/templates/new');
    try {
      await page.getByTestId('qr-preview').waitFor();
      expect(await settledVerdict(page)).toBe('Scans well');
      expect(await verdict(page).textContent()).toMatch(/8 of 8 simulated phones read it/);
      expect(await verdict(page).textContent()).toContain('printed 3 cm, read from 30 cm');
      // The report's facts at the default 3 cm.
      const facts = page.getByRole('definition');
      expect(await page.locator('.qr-print-facts').textContent()).toMatch(/Module.*mm.*QR version.*Quiet zone.*Contrast.*Reads up to/);
      expect(await facts.count()).toBeGreaterThanOrEqual(6);
      expect(await page.getByRole('button', { name: 'Apply fix' }).count()).toBe(0);

      // Pale grey dots on white: the gate says it will fail, and why.
      await page.getByLabel('Custom code colour', { exact: true }).fill('#f6f6f6');
      await expect.poll(() => previewSvg(page)).toContain('fill="#f6f6f6"');
      await expect.poll(() => settledVerdict(page), { timeout: 30_000 }).toBe('Will fail');
      const reasons = page.locator('.qr-print-reasons li');
      expect(await page.locator('.qr-print-reasons li[data-code="LOW_CONTRAST"]').count()).toBeGreaterThanOrEqual(1);
      expect(await reasons.first().textContent()).toMatch(/contrast/i);

      // Apply fix: black on white, announced with an Undo.
      const pale = await previewSvg(page);
      await page.getByRole('button', { name: 'Apply fix' }).click();
      await expect.poll(() => previewSvg(page)).not.toBe(pale);
      expect(await previewSvg(page)).toContain('fill="#000000"');
      expect(await previewSvg(page)).not.toContain('#f6f6f6');
      await page.locator('.toast').filter({ hasText: 'Fix applied' }).waitFor();
      await expect.poll(() => settledVerdict(page), { timeout: 30_000 }).toBe('Scans well');
      // Undo puts the pale design back, and the gate says so again.
      await page.locator('.toast').filter({ hasText: 'Fix applied' }).getByRole('button', { name: 'Undo' }).click();
      await expect.poll(() => previewSvg(page)).toBe(pale);
      await expect.poll(() => settledVerdict(page), { timeout: 30_000 }).toBe('Will fail');

      // The size chosen is the size judged: 2 cm, then a custom 12 mm, typed (debounced: one question for the last value).
      await choice(page, 'Printed width', '2 cm').click();
      await expect.poll(() => verdict(page).textContent(), { timeout: 30_000 }).toContain('printed 2 cm, read from 20 cm');
      const asked = reports.length;
      await page.getByLabel('Custom width (mm)').fill('');
      await page.getByLabel('Custom width (mm)').pressSequentially('120');
      await expect.poll(() => verdict(page).textContent(), { timeout: 30_000 }).toContain('printed 12 cm, read from 120 cm');
      expect(reports.slice(asked).map((r) => r.sizeMm)).toEqual([120]);
      expect(await choice(page, 'Printed width', '2 cm').isChecked()).toBe(false);
      // A reading distance of its own.
      await page.getByLabel('Reading distance (cm)').fill('50');
      await expect.poll(() => verdict(page).textContent(), { timeout: 30_000 }).toContain('read from 50 cm');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('"Download print PDF" asks for the saved link at the chosen size, CMYK and crop marks; blocked with a reason before a save', async () => {
    const { context, page, problems } = await open('/links/new?type=website');
    try {
      await page.getByTestId('qr-preview').waitFor();
      const pdfButton = page.getByRole('button', { name: /Download print PDF/ });
      expect(await pdfButton.isDisabled()).toBe(true);
      expect(await page.locator('#qr-print-pdf-blocked').textContent()).toContain('Save the link');
    } finally {
      await context.close();
    }
    const { slug } = await createLinkVia(api.app, owner.key, {
      name: 'Table tent',
      type: 'website',
      data: { url: 'https://example.com/menu' },
    });
    const saved = await open(`/links/${slug}/edit`);
    const files: Download[] = [];
    saved.page.on('download', (d) => files.push(d));
    try {
      const { page: linkPage } = saved;
      await linkPage.getByTestId('qr-preview').waitFor();
      await choice(linkPage, 'Printed width', '5 cm').click();
      const pdfButton = linkPage.getByRole('button', { name: 'Download print PDF (5 cm)' });
      expect(await pdfButton.isEnabled()).toBe(true);
      await linkPage.locator('.qr-print-pdf').scrollIntoViewIfNeeded();
      await consoleScreenshot(linkPage, 'qr-print-pdf', { dark: true });
      await linkPage.getByLabel('CMYK (for a print shop)').check();
      await linkPage.getByLabel('Crop marks').check();
      const asked = linkPage.waitForRequest((r) => r.url().includes(`/api/v1/links/${slug}/qr?`));
      await pdfButton.click();
      const query = new URL((await asked).url()).searchParams;
      expect(Object.fromEntries(query)).toEqual({ format: 'pdf', sizeMm: '50', colorSpace: 'cmyk', cropMarks: 'true' });
      await expect.poll(() => files.length).toBe(1);
      expect(files[0]!.suggestedFilename()).toBe('table-tent-50mm.pdf');
      expect((await readFile(await files[0]!.path())).subarray(0, 5).toString()).toBe('%PDF-');
      // The 300 dpi PNG of the same width, which says its size (5 cm: 591 px at 11,820 px/m).
      const pngAsked = linkPage.waitForRequest((r) => r.url().includes(`/api/v1/links/${slug}/qr?format=png`));
      await linkPage.getByRole('button', { name: 'PNG, 300 dpi' }).click();
      expect(Object.fromEntries(new URL((await pngAsked).url()).searchParams)).toEqual({ format: 'png', sizeMm: '50' });
      await expect.poll(() => files.length).toBe(2);
      expect(files[1]!.suggestedFilename()).toBe('table-tent-50mm.png');
      const png = await sharp(await readFile(await files[1]!.path())).metadata();
      expect([png.width, png.density]).toEqual([591, 300]);
      expect(await linkPage.locator('.toast-error').count()).toBe(0);
      // A changed design is drawn from the saved one, so the PDF waits for a save.
      await choice(linkPage, 'Dot style', 'Dots').click();
      await expect.poll(() => pdfButton.isDisabled()).toBe(true);
      expect(await linkPage.locator('#qr-print-pdf-blocked').textContent()).toContain('saved design');
      expect(saved.problems).toEqual([]);
    } finally {
      await saved.context.close();
    }
    expect(problems).toEqual([]);
  }, 60_000);

  it('"Download print PDF" on a saved template is its proof on sample data; a changed design waits for a save', async () => {
    const template = await call(api.app, owner.key, 'POST', '/api/v1/templates', { name: 'House style', qrOptions: {} });
    expect(template.statusCode, template.body).toBe(200);
    const { context, page, problems } = await open(`/templates/${template.json<{ id: string }>().id}`);
    const downloads: string[] = [];
    page.on('download', (d) => downloads.push(d.suggestedFilename()));
    try {
      await page.getByTestId('qr-preview').waitFor();
      const pdfButton = page.getByRole('button', { name: /Download print PDF/ });
      const asked = page.waitForRequest((r) => r.url().includes('/preview?') && r.url().includes('format=pdf'));
      await pdfButton.click();
      expect((await asked).url()).toMatch(/\/api\/v1\/templates\/[^/]+\/preview\?format=pdf&sizeMm=30&colorSpace=rgb&cropMarks=false$/);
      await expect.poll(() => downloads.length).toBe(1);
      expect(downloads[0]).toBe('house-style-30mm.pdf');
      await choice(page, 'Dot style', 'Dots').click();
      await expect.poll(() => pdfButton.isDisabled()).toBe(true);
      expect(await page.locator('#qr-print-pdf-blocked').textContent()).toContain('Save the template first');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
    const unsaved = await open('/templates/new');
    try {
      await unsaved.page.getByTestId('qr-preview').waitFor();
      expect(await unsaved.page.getByRole('button', { name: /Download print PDF/ }).isDisabled()).toBe(true);
      expect(await unsaved.page.locator('#qr-print-pdf-blocked').textContent()).toContain('Create the template');
    } finally {
      await unsaved.context.close();
    }
  }, 60_000);

  it('"Print sheets" on a folder asks paper, width and template, and follows the job to its PDF', async () => {
    const folderId = (await call(api.app, owner.key, 'POST', '/api/v1/folders', { name: 'Terrace tables' })).json<{ id: string }>().id;
    const cafe = await call(api.app, owner.key, 'POST', '/api/v1/cafes', { name: 'Aroma terrace' });
    const menu = cafe.json<{ data: { link: { dynamic_link_id: string } } }>().data.link.dynamic_link_id;
    expect((await call(api.app, owner.key, 'PUT', `/api/v1/links/${menu}/folder`, { folder_id: folderId })).statusCode).toBe(200);
    for (const size of [DESKTOP, PHONE]) {
      const { context, page, problems } = await open(`/links?folder=${folderId}`, { size, bypassCSP: true });
      try {
        const sent: unknown[] = [];
        page.on('request', (r) => r.url().endsWith('/api/v1/print-sheets') && sent.push(r.postDataJSON()));
        await page.getByRole('button', { name: 'Print sheets' }).click();
        const dialog = page.getByRole('dialog', { name: 'Print sheets of Terrace tables' });
        await dialog.waitFor();
        await consoleScreenshot(page, 'print-sheets-dialog', { dark: true });
        expect(await seriousViolationsByTheme(page), `dialog ${size.viewport.width}`).toEqual({ light: [], dark: [] });
        await dialog.getByLabel('Letter').check();
        await dialog.getByLabel('Code width').selectOption('50');
        await dialog.getByLabel('Table tents (A5, folded)').check();
        await dialog.getByRole('button', { name: 'Make the sheets' }).click();
        await expect.poll(() => sent.length).toBe(1);
        expect(sent[0]).toEqual({ folderId, paper: 'letter', sizeMm: 50, template: 'table-tent' });
        // The dialog closes, the job is followed to its file, and its download is offered where the button is.
        await dialog.waitFor({ state: 'detached' });
        await page.getByRole('button', { name: /^Download .*\.pdf$/ }).waitFor({ timeout: 60_000 });
        expect(await page.locator('.print-sheets-job').textContent()).toContain('Print sheets ready.');
        expect(await page.locator('.toast-error').count()).toBe(0);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    }
  }, 90_000);

  it('has no serious or critical axe-core finding at 390 and 1440 px, light and dark, passing and failing', async () => {
    for (const size of [PHONE, DESKTOP]) {
      const { context, page } = await open('/templates/new', { size, bypassCSP: true });
      try {
        await page.getByTestId('qr-preview').waitFor();
        expect(await settledVerdict(page)).toBe('Scans well');
        await page.locator('.qr-print').scrollIntoViewIfNeeded();
        await consoleScreenshot(page, 'qr-print-scans-well', { dark: true });
        expect(await seriousViolationsByTheme(page), `scans well ${size.viewport.width}`).toEqual({ light: [], dark: [] });
        await openSection(page, 'Colours');
        await page.getByLabel('Custom code colour', { exact: true }).fill('#f6f6f6');
        await expect.poll(() => settledVerdict(page), { timeout: 30_000 }).toBe('Will fail');
        await page.evaluate(() => window.scrollTo(0, 0));
        await consoleScreenshot(page, 'qr-print-will-fail', { dark: true });
        await page.locator('.qr-print').scrollIntoViewIfNeeded();
        await consoleScreenshot(page, 'qr-print-will-fail-report', { dark: true });
        expect(await overflowingElements(page, size.viewport.width), `wider than ${size.viewport.width} px`).toEqual([]);
        expect(await seriousViolationsByTheme(page), `will fail ${size.viewport.width}`).toEqual({ light: [], dark: [] });
      } finally {
        await context.close();
      }
    }
  }, 180_000);
});
