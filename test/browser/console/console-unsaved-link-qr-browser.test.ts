/**
 * A new link's QR code before it exists, in headless Chromium against the real api: the designer
 * of an unsaved link draws a preview of a placeholder short URL but offers no download (its
 * buttons are off and say why), with or without a custom slug typed, and once the link is created
 * its downloaded code decodes to the link's own short URL. `preview`, the placeholder's slug, in
 * any case, and the redirect's own root paths cannot be taken as a custom slug: the console says
 * so at the field and the API answers 400 at `linkConfigurations.customUrl`.
 */
import { readFile } from 'node:fs/promises';
import type { Browser, Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, hasChromium, launchChromium, signInBeforeLoad } from '../../support/browser.js';
import { startConsoleApi } from '../../support/console.js';
import { call, createTestAccount, type TestAccount, type TestApi } from '../../support/harness.js';
import { decodePng } from '../../support/qr-reference.js';

let api: TestApi;
let base: string;
let browser: Browser;
let owner: TestAccount;

beforeAll(async () => {
  ({ api, base } = await startConsoleApi());
  owner = await createTestAccount(api.ctx, { plan: 'pro' });
  if (hasChromium) browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await api?.close();
});

async function open(hash: string) {
  const context = await browser.newContext({ ...DESKTOP, acceptDownloads: true });
  await signInBeforeLoad(context, owner.key);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  // Every file the page hands over, from the first moment: none may be a code of an unsaved link.
  const downloads: Download[] = [];
  page.on('download', (d) => downloads.push(d));
  await page.goto(`${base}#${hash}`);
  return { context, page, problems, downloads };
}

const downloadButtons = (page: Page) => page.getByRole('group', { name: 'Download' }).getByRole('button');

describe.skipIf(!hasChromium)('the QR code of a link not saved yet', () => {
  it('offers no download before the link exists, says why, and downloads the saved link’s own code after', async () => {
    const { context, page, problems, downloads } = await open('/links/new?type=website');
    try {
      await page.getByLabel('Name', { exact: true }).fill('Spring flyer');
      await page.getByLabel('Web address').fill('https://example.com/spring');
      const preview = page.getByTestId('qr-preview');
      await preview.waitFor();
      // The picture is a placeholder, and says so.
      expect(await preview.getAttribute('alt')).toBe(`QR code preview encoding ${api.ctx.config.SHORT_URL_BASE}/preview?q`);

      const buttons = downloadButtons(page);
      expect(await buttons.allTextContents()).toEqual(['Download PNG', 'Download SVG']);
      const why = page.getByText('Save the link to download its code: until then it has no short URL to encode.');
      await why.waitFor();
      for (const button of await buttons.all()) {
        expect(await button.isDisabled()).toBe(true);
        expect(await button.getAttribute('aria-describedby')).toBe(await why.getAttribute('id'));
        // A click that does not wait for the button to be usable is still no download.
        await button.click({ force: true });
      }
      // With a custom slug typed (not taken yet: anyone could still take it), the same.
      await page.getByLabel('Custom short URL').check();
      await page.locator('#field-linkConfigurations-customUrl').fill('spring-flyer');
      await expect.poll(() => preview.getAttribute('alt')).toContain('/spring-flyer');
      for (const button of await buttons.all()) {
        expect(await button.isDisabled()).toBe(true);
        await button.click({ force: true });
      }

      await page.getByRole('button', { name: 'Create link' }).click();
      await page.getByRole('heading', { name: 'Edit Spring flyer' }).waitFor();
      const link = (await call(api.app, owner.key, 'GET', '/api/v1/links/spring-flyer')).json().data;
      await why.waitFor({ state: 'detached' });
      await page.getByLabel('Download size', { exact: true }).selectOption('512');
      const [png] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download PNG' }).click()]);
      expect(decodePng(await readFile(await png.path()))).toBe(`${link.full_dynamic_url}?q`);
      // The one file handed over in the whole visit is the saved link's code.
      expect(downloads).toHaveLength(1);
      expect(downloads[0]).toBe(png);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('refuses `preview` in any case and the redirect’s own paths as a custom slug, in the console and the API', async () => {
    const { context, page, problems } = await open('/links/new?type=website');
    try {
      await page.getByLabel('Name', { exact: true }).fill('Claim');
      await page.getByLabel('Web address').fill('https://example.com/claim');
      await page.getByLabel('Custom short URL').check();
      const slug = page.locator('#field-linkConfigurations-customUrl');
      for (const taken of ['Preview', 'preview']) {
        await slug.fill(taken);
        await page.getByRole('button', { name: 'Create link' }).click();
        await expect
          .poll(() => page.locator('#field-linkConfigurations-customUrl-error').textContent())
          .toBe('This address is reserved for the service itself; choose another.');
        expect(page.url()).toContain('/links/new');
      }
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }

    // The API, for any client: `preview` in three cases, and paths the redirect serves at its root.
    for (const customUrl of ['preview', 'Preview', 'PREVIEW', 'metrics', 'Health', 'files']) {
      const res = await call(api.app, owner.key, 'POST', '/api/v1/links', {
        name: 'Claim',
        type: 'website',
        data: { url: 'https://example.com/claim' },
        linkConfigurations: { urlActive: true, customUrl },
      });
      expect(res.statusCode, customUrl).toBe(400);
      expect(res.json().errors, customUrl).toEqual([{ path: 'linkConfigurations.customUrl', message: 'This URL is reserved' }]);
    }
  });
});
