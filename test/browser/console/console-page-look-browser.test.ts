/**
 * The link editor's page look in headless Chromium against the real api: a link branded through
 * the form (title, description, website, language, colours, logo) reads back over the API, the
 * form shows it again, a bad website is refused at its field in words, and turning the look off
 * clears it; axe-core's serious and critical findings at the phone width, in light and dark.
 */
import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium, PHONE, seriousViolationsByTheme, signInBeforeLoad } from '../../support/browser.js';
import { startConsoleApi } from '../../support/console.js';
import { pngBytes } from '../../support/fixtures.js';
import { call, createTestAccount, type TestAccount, type TestApi } from '../../support/harness.js';

let api: TestApi;
let base: string;
let browser: Browser;
let owner: TestAccount;
let context: BrowserContext;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  ({ api, base } = await startConsoleApi());
  owner = await createTestAccount(api.ctx, { plan: 'pro', name: 'Cafe Aroma' });
  if (!hasChromium) return;
  browser = await launchChromium();
  // axe-core is injected as a script: the console's CSP would refuse it.
  context = await browser.newContext({ ...PHONE, bypassCSP: true });
  await signInBeforeLoad(context, owner.key);
  page = await context.newPage();
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  page.setDefaultTimeout(20_000);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await api?.close();
});

const at = (path: string) => page.locator(`#field-${path.replace(/[^A-Za-z0-9_-]/g, '-')}`);

async function storedStyle(slug: string): Promise<unknown> {
  const res = await call(api.app, owner.key, 'GET', `/api/v1/links/${slug}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.page_style;
}

describe.skipIf(!hasChromium)('console page look', () => {
  it('brands a link through the form, shows it again, refuses a bad website at its field, and clears it', async () => {
    await page.goto(`${base}#/links/new?type=wifi`);
    await page
      .getByRole('heading', { name: 'New wi-fi link' })
      .or(page.getByRole('heading', { level: 1 }))
      .first()
      .waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Guest Wi-Fi');
    await at('data.ssid').fill('Aroma Guests');
    await at('data.password').fill('espresso-2026');

    await page.getByLabel('Brand the pages visitors see').check();
    await at('pageStyle.title').fill('Café Aroma');
    await at('pageStyle.description').fill('Coffee and cakes by the river.');
    await at('pageStyle.website').fill('cafe-aroma');
    await at('pageStyle.language').selectOption('pt-PT');
    await page.getByLabel('Use my colours for buttons and links').check();
    await at('pageStyle.accentColor').fill('#8a4b2a');
    await at('pageStyle.accentColorDark').fill('#f0b27a');
    await at('pageStyle.logo.fileId').setInputFiles({
      name: 'aroma-logo.png',
      mimeType: 'image/png',
      buffer: pngBytes(8, 8, [...randomBytes(3)] as [number, number, number]),
    });
    await page.getByText('Attached: aroma-logo.png').waitFor();

    // The website is checked before anything is sent, in words at its field, and focus goes there.
    await page.getByRole('button', { name: 'Create link' }).click();
    await expect
      .poll(() => page.locator('#field-pageStyle-website-error').textContent())
      .toBe('Enter a full web address, such as https://example.com.');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('field-pageStyle-website');
    await at('pageStyle.website').fill('https://cafe-aroma.example');

    expect(await seriousViolationsByTheme(page)).toEqual({ light: [], dark: [] });

    await page.getByRole('button', { name: 'Create link' }).click();
    await page.waitForURL(/#\/links\/[^/]+\/edit/);
    const slug = decodeURIComponent(/#\/links\/([^/]+)\/edit/.exec(page.url())![1]!);
    const { rows } = await api.ctx.database.pool.query<{ id: string }>(
      'select id from files where account_id = $1 and original_name = $2',
      [owner.accountId, 'aroma-logo.png'],
    );
    expect(await storedStyle(slug)).toEqual({
      title: 'Café Aroma',
      description: 'Coffee and cakes by the river.',
      website: 'https://cafe-aroma.example/',
      language: 'pt-PT',
      accentColor: '#8a4b2a',
      accentColorDark: '#f0b27a',
      logo: { fileId: rows[0]!.id },
    });

    // The edit form shows the look as stored.
    await at('pageStyle.title').waitFor();
    expect(await at('pageStyle.title').inputValue()).toBe('Café Aroma');
    expect(await at('pageStyle.language').inputValue()).toBe('pt-PT');
    expect(await at('pageStyle.accentColor').inputValue()).toBe('#8a4b2a');
    expect(await page.getByText(/Attached: /).count()).toBe(1);

    // Turning the look off clears it on save.
    await page.getByLabel('Brand the pages visitors see').uncheck();
    await page.getByText('Saving removes the brand').waitFor();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Changes saved.').waitFor();
    expect(await storedStyle(slug)).toBeNull();
    expect(problems).toEqual([]);
  }, 90_000);
});
