/**
 * The link editor's UTM section and the UTM templates page against the real api in headless
 * Chromium: a template made, edited and deleted (with its confirm) on its page; a website link
 * filled from it, its destination previewed as the redirect makes it, its query policy chosen,
 * and what was saved read back over the API; axe-core's serious and critical findings in the
 * light and dark themes, and nothing past the edge, at 390 px and 1440 px.
 */
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP,
  hasChromium,
  launchChromium,
  overflowingElements,
  PHONE,
  seriousViolationsByTheme,
  signInBeforeLoad,
} from '../../support/browser.js';
import { startConsoleApi } from '../../support/console.js';
import { call, createTestAccount, type TestAccount, type TestApi } from '../../support/harness.js';

let api: TestApi;
let base: string;
let browser: Browser;
let owner: TestAccount;
const problems: string[] = [];

beforeAll(async () => {
  ({ api, base } = await startConsoleApi());
  owner = await createTestAccount(api.ctx, { plan: 'pro', name: 'Cafe Aroma' });
  if (hasChromium) browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await api?.close();
});

async function open(hash: string, size: typeof PHONE | typeof DESKTOP) {
  // bypassCSP: axe's injected script.
  const context = await browser.newContext({ ...size, bypassCSP: true });
  await signInBeforeLoad(context, owner.key);
  const page = await context.newPage();
  page.setDefaultTimeout(8_000);
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on(
    'console',
    (m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource') && problems.push(`console: ${m.text()}`),
  );
  await page.goto(`${base}#${hash}`);
  return { context, page };
}

describe.skipIf(!hasChromium)('UTM in the console', () => {
  afterEach(() => {
    expect(problems.splice(0)).toEqual([]);
  });

  it('makes, edits and deletes a UTM template on its page', async () => {
    for (const size of [PHONE, DESKTOP]) {
      const { context, page } = await open('/utm-templates', size);
      try {
        const name = `Spring ${size.viewport.width}`;
        await page.getByRole('button', { name: 'New UTM template' }).click();
        await page.getByLabel('Template name').fill(name);
        await page.getByLabel('Source', { exact: true }).fill('flyer');
        await page.getByLabel('Medium', { exact: true }).fill('print');
        expect(await seriousViolationsByTheme(page)).toEqual({ light: [], dark: [] });
        expect(await overflowingElements(page, size.viewport.width)).toEqual([]);
        await page.getByRole('button', { name: 'Create UTM template' }).click();
        const row = page.locator('.utm-template-row', { hasText: name });
        await expect.poll(() => row.locator('.utm-summary').textContent()).toBe('source=flyer · medium=print');
        expect(await seriousViolationsByTheme(page)).toEqual({ light: [], dark: [] });
        expect(await overflowingElements(page, size.viewport.width)).toEqual([]);

        await row.getByRole('link', { name }).click();
        await page.getByLabel('Campaign', { exact: true }).fill('spring');
        await page.getByRole('button', { name: 'Save changes' }).click();
        await expect.poll(() => row.locator('.utm-summary').textContent()).toBe('source=flyer · medium=print · campaign=spring');

        await row.getByRole('button', { name: `Delete ${name}` }).click();
        const dialog = page.getByRole('dialog');
        expect(await seriousViolationsByTheme(page)).toEqual({ light: [], dark: [] });
        await dialog.getByRole('button', { name: 'Delete' }).click();
        await expect.poll(() => page.getByRole('status').first().textContent()).toBe(`Deleted “${name}”.`);
        await expect.poll(() => row.count()).toBe(0);
      } finally {
        await context.close();
      }
    }
  });

  it('fills a website link from a template, previews its destination and saves its UTM and query policy', async () => {
    const made = await call(api.app, owner.key, 'POST', '/api/v1/utm-templates', {
      name: 'Autumn mail',
      utm: { source: 'newsletter', campaign: 'autumn sale' },
    });
    expect(made.statusCode).toBe(200);
    for (const size of [PHONE, DESKTOP]) {
      const { context, page } = await open('/links/new?type=website', size);
      try {
        await page.locator('form.link-form').waitFor();
        await page.getByLabel('Name', { exact: true }).fill(`Menu ${size.viewport.width}`);
        await page.getByLabel('Web address').fill('https://example.com/menu?utm_source=web&lang=fr');
        const picker = page.getByLabel('Fill from a UTM template');
        await expect.poll(() => picker.isEnabled()).toBe(true);
        await picker.selectOption({ label: 'Autumn mail' });
        expect(await page.getByLabel('Source', { exact: true }).inputValue()).toBe('newsletter');
        await page.getByLabel('Medium', { exact: true }).fill('email');
        await expect
          .poll(() => page.locator('.utm-preview-url').textContent())
          .toBe('https://example.com/menu?lang=fr&utm_source=newsletter&utm_medium=email&utm_campaign=autumn%20sale');
        await page.getByLabel("Pass the visitor's query on").check();
        expect(await seriousViolationsByTheme(page)).toEqual({ light: [], dark: [] });
        expect(await overflowingElements(page, size.viewport.width)).toEqual([]);
        await page.getByRole('button', { name: 'Create link' }).click();
        await page.waitForURL(/#\/links\/[^/]+\/edit/);
        const slug = decodeURIComponent(/#\/links\/([^/]+)\/edit/.exec(page.url())![1]!);
        const link = (await call(api.app, owner.key, 'GET', `/api/v1/links/${slug}`)).json().data;
        expect(link).toMatchObject({ utm: { source: 'newsletter', medium: 'email', campaign: 'autumn sale' }, query_policy: 'merge' });
        // The edit page shows what was saved, and clearing the fields removes the tags.
        await expect.poll(() => page.getByLabel('Medium', { exact: true }).inputValue()).toBe('email');
        expect(await page.getByLabel("Pass the visitor's query on").isChecked()).toBe(true);
        for (const field of ['Source', 'Medium', 'Campaign']) await page.getByLabel(field, { exact: true }).fill('');
        await page.getByLabel('Drop it').check();
        await page.getByRole('button', { name: 'Save changes' }).click();
        await expect
          .poll(async () => (await call(api.app, owner.key, 'GET', `/api/v1/links/${slug}`)).json().data)
          .toMatchObject({
            utm: null,
            query_policy: 'drop',
          });
      } finally {
        await context.close();
      }
    }
  });
});
