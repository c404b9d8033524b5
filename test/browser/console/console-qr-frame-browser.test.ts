/**
 * The QR designer's Frame section against the real api in headless Chromium: a frame chosen by
 * keyboard or pointer and a call to action typed change the server-drawn preview and are stored
 * in the link's qr_options.frameOptions; "No frame" brings back the in-browser preview and removes
 * them; a control character is refused with the server's message beside the field; a framed PNG
 * download is the server's picture; axe-core finds nothing serious at 390 and 1440 px in either theme.
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
  signInBeforeLoad,
} from '../../support/browser.js';
import { startConsoleApi } from '../../support/console.js';
import { call, createLinkVia, createTestAccount, type TestAccount, type TestApi } from '../../support/harness.js';
import { choice, openSection, previewSvg } from '../../support/qr-designer.js';

let api: TestApi;
let base: string;
let browser: Browser;
let owner: TestAccount;

beforeAll(async () => {
  ({ api, base } = await startConsoleApi());
  owner = await createTestAccount(api.ctx, { plan: 'pro', name: 'Cafe Aroma' });
  if (hasChromium) browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
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
  const previews: unknown[] = [];
  page.on('request', (r) => r.url().endsWith('/api/v1/qr/preview') && previews.push(r.postDataJSON()));
  await page.goto(`${base}#${hash}`);
  return { context, page, problems, previews };
}

const frameStyle = (page: Page, name: string) => choice(page, 'Frame style', name);
const frameText = (page: Page) => page.getByLabel('Call to action', { exact: true });
/** The preview once nothing is pending (a framed one is the server's). */
async function settledPreview(page: Page): Promise<string> {
  await page.locator('.qr-preview:not(:has([aria-busy="true"])) [data-testid="qr-preview"]').waitFor({ timeout: 30_000 });
  return previewSvg(page);
}
const storedLink = async (slug: string) =>
  (await call(api.app, owner.key, 'GET', `/api/v1/links/${slug}`)).json<{ data: { qr_options: Record<string, unknown> } }>().data;

describe.skipIf(!hasChromium)('console QR designer: frames', () => {
  it('a frame and its text change the server-drawn preview and are saved; No frame removes them; control characters are refused', async () => {
    const { slug } = await createLinkVia(api.app, owner.key, {
      name: 'Terrace',
      type: 'website',
      data: { url: 'https://example.com/menu' },
    });
    const { context, page, problems, previews } = await open(`/links/${slug}/edit`);
    try {
      await page.getByTestId('qr-preview').waitFor();
      const plain = await previewSvg(page);
      await openSection(page, 'Frame');
      expect(await frameStyle(page, 'No frame').isChecked()).toBe(true);
      expect(await frameText(page).count()).toBe(0);

      // By keyboard: the arrow moves from "No frame" to the first style, as in any radio group.
      await frameStyle(page, 'No frame').focus();
      await page.keyboard.press('ArrowRight');
      expect(await frameStyle(page, 'Bottom banner').isChecked()).toBe(true);
      await expect.poll(() => settledPreview(page), { timeout: 30_000 }).not.toBe(plain);
      const banner = await previewSvg(page);
      // The server's picture: taller than the code (the banner), its text as outlines (paths, no <text>).
      const [, w, h] = /viewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(banner) ?? /width="([\d.]+)" height="([\d.]+)"/.exec(banner)!;
      expect(Number(h)).toBeGreaterThan(Number(w));
      expect(banner).not.toContain('<text');
      expect(await frameText(page).getAttribute('placeholder')).toBe('Scan me');
      await frameStyle(page, 'Table tent').click();
      expect(await frameText(page).getAttribute('placeholder')).toBe('Scan for the menu');
      await expect.poll(() => settledPreview(page), { timeout: 30_000 }).not.toBe(banner);

      // Typed text: one question for the last value (debounced), and a picture that differs.
      const tent = await previewSvg(page);
      const asked = previews.length;
      await frameText(page).pressSequentially('Menu here');
      await expect.poll(() => settledPreview(page), { timeout: 30_000 }).not.toBe(tent);
      expect(previews.length - asked).toBeLessThanOrEqual(2);
      expect(previews.at(-1)).toMatchObject({ qr_options: { frameOptions: { style: 'table-tent', text: 'Menu here' } }, format: 'svg' });

      // A frame colour from the swatches.
      await choice(page, 'Frame colour', 'Royal blue').click();
      await expect
        .poll(() => (previews.at(-1) as { qr_options: { frameOptions: { color?: string } } }).qr_options.frameOptions.color)
        .toBeTruthy();
      await settledPreview(page);

      // A framed PNG download is the server's picture at the chosen size (at most 1024 px).
      const downloaded = page.waitForEvent('download');
      const pngAsked = page.waitForRequest(
        (r) => r.url().endsWith('/api/v1/qr/preview') && (r.postDataJSON() as { format: string }).format === 'png',
      );
      await page.getByRole('button', { name: 'Download PNG' }).click();
      expect((await pngAsked).postDataJSON()).toMatchObject({
        format: 'png',
        size: 1024,
        qr_options: { frameOptions: { style: 'table-tent' } },
      });
      expect((await downloaded).suggestedFilename()).toMatch(/-1024\.png$/);

      // Saved: the stored design has the frame.
      await page.getByRole('button', { name: 'Save changes' }).click();
      await expect
        .poll(async () => (await storedLink(slug)).qr_options.frameOptions, { timeout: 15_000 })
        .toMatchObject({ style: 'table-tent', text: 'Menu here' });

      // A control character: the server's message beside the field, the last picture kept.
      const good = await previewSvg(page);
      await frameText(page).fill('Menu\u0007here');
      const hint = page.locator('#field-frameOptions-text-hint');
      await expect.poll(() => hint.getAttribute('class'), { timeout: 30_000 }).toBe('field-error');
      expect(await hint.textContent()).toMatch(/control characters/);
      expect(await frameText(page).getAttribute('aria-invalid')).toBe('true');
      expect(await previewSvg(page)).toBe(good);
      await frameText(page).fill('Menu here');
      await expect.poll(() => hint.getAttribute('class'), { timeout: 30_000 }).toBe('hint');

      // "No frame": the in-browser preview again, and the stored design loses frameOptions.
      await frameStyle(page, 'No frame').click();
      expect(await frameText(page).count()).toBe(0);
      await expect.poll(() => previewSvg(page)).toBe(plain);
      await page.getByRole('button', { name: 'Save changes' }).click();
      await expect.poll(async () => 'frameOptions' in (await storedLink(slug)).qr_options, { timeout: 15_000 }).toBe(false);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('has no serious or critical axe-core finding at 390 and 1440 px, light and dark, with a frame', async () => {
    for (const size of [PHONE, DESKTOP]) {
      const { context, page, problems } = await open('/templates/new', { size, bypassCSP: true });
      try {
        await page.getByTestId('qr-preview').waitFor();
        await openSection(page, 'Frame');
        await frameStyle(page, 'Speech bubble').click();
        await frameText(page).fill('Order here');
        await expect.poll(() => settledPreview(page), { timeout: 30_000 }).toContain('<svg');
        await expect.poll(() => page.locator('.qr-framed[aria-busy="false"] img').count(), { timeout: 30_000 }).toBe(1);
        await page.evaluate(() => window.scrollTo(0, 0));
        await consoleScreenshot(page, 'qr-frame-preview', { dark: true });
        await page.locator('.qr-frames').scrollIntoViewIfNeeded();
        await consoleScreenshot(page, 'qr-frame-section', { dark: true });
        expect(await overflowingElements(page, size.viewport.width), `wider than ${size.viewport.width} px`).toEqual([]);
        expect(await seriousViolationsByTheme(page), `frame ${size.viewport.width}`).toEqual({ light: [], dark: [] });
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    }
  }, 180_000);
});
