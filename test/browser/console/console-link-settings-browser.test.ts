/**
 * The link editor's settings and smart-url rules against the real api (and redirect) in headless
 * Chromium: a smart-url link with two rules made and reordered by keyboard, read back over the
 * API and summed up in words; a custom slug already taken refused at its field; a schedule in a
 * chosen time zone (not the browser's) and a scan limit stored as shown; a protected link edited
 * without touching its password still protected, then given a new one; axe-core's serious and
 * critical findings at both widths.
 */
import bcrypt from 'bcrypt';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  consoleScreenshot,
  DESKTOP,
  hasChromium,
  launchChromium,
  overflowingElements,
  PHONE,
  seriousViolationsOn,
  signInBeforeLoad,
} from '../../support/browser.js';
import { startConsoleApi } from '../../support/console.js';
import { call, createLinkVia, createTestAccount, type TestAccount, type TestApi } from '../../support/harness.js';
import { startTestRedirect, type TestRedirect } from '../../support/redirect.js';

let api: TestApi;
let base: string;
let browser: Browser;
let redirect: TestRedirect;
let owner: TestAccount;
const problems: string[] = [];

beforeAll(async () => {
  ({ api, base } = await startConsoleApi());
  owner = await createTestAccount(api.ctx, { plan: 'pro', name: 'Cafe Aroma' });
  redirect = await startTestRedirect(api.ctx);
  if (hasChromium) browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await redirect?.close();
  await api?.close();
});

/** A signed-in tab at `hash`, in Tokyo: no schedule below is in the browser's zone. */
async function open(hash: string, size: typeof PHONE | typeof DESKTOP = DESKTOP, bypassCSP = false) {
  const context = await browser.newContext({ ...size, timezoneId: 'Asia/Tokyo', bypassCSP });
  await signInBeforeLoad(context, owner.key);
  const page = await context.newPage();
  page.setDefaultTimeout(8_000);
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  // A CSP refusal is logged as an error; a refused request the test makes on purpose (the taken slug's 409) is not a problem.
  page.on(
    'console',
    (m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource') && problems.push(`console: ${m.text()}`),
  );
  await page.goto(`${base}#${hash}`);
  await page.locator('form.link-form').waitFor();
  return { context, page };
}

const getLink = async (slug: string) => (await call(api.app, owner.key, 'GET', `/api/v1/links/${slug}`)).json().data;
/** The slug the editor moved to after creating a link (`#/links/<slug>/edit?saved=created`). */
async function createdSlug(page: Page): Promise<string> {
  await page.waitForURL(/#\/links\/[^/]+\/edit/);
  return decodeURIComponent(/#\/links\/([^/]+)\/edit/.exec(page.url())![1]!);
}
const summaries = (page: Page) => page.locator('.rule-summary, .rule-default').allTextContents();

describe.skipIf(!hasChromium)('link settings and smart-url rules in the editor', () => {
  afterEach(() => {
    expect(problems.splice(0)).toEqual([]);
  });

  it('makes a smart-url link with two rules, reordered by keyboard, and says what each does', async () => {
    const { context, page } = await open('/links/new?type=smart-url');
    try {
      await page.getByLabel('Name', { exact: true }).fill('Cafe app');
      await page.getByLabel('Default web address').fill('https://example.com/');
      await page.getByRole('button', { name: 'Add rule' }).click();
      // Focus went to the new rule's first field; the country is found by name and taken with Enter.
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('field-data-rules-0-conditionType');
      await page.locator('#field-data-rules-0-countries').fill('portug');
      await page.locator('#field-data-rules-0-countries').press('Enter');
      await page.locator('#field-data-rules-0-url').fill('https://example.pt/');
      await page.getByRole('button', { name: 'Add rule' }).click();
      await page.locator('#field-data-rules-1-conditionType').selectOption('device');
      const second = page.locator('.rule').nth(1);
      await second.getByLabel('iPhone or iPad (iOS)').check();
      await second.getByLabel('Android').check();
      await page.locator('#field-data-rules-1-url').fill('https://example.com/app');
      expect(await summaries(page)).toEqual([
        'Visitors in Portugal → https://example.pt/',
        'Visitors on iPhone/iPad or Android → https://example.com/app',
        'Everyone else → https://example.com/',
      ]);

      // Keyboard: the device rule goes first; focus stays with it (its up button is now disabled, so on its down button).
      await page.getByRole('button', { name: 'Move up rule 2' }).focus();
      await page.keyboard.press('Enter');
      expect(await summaries(page)).toEqual([
        'Visitors on iPhone/iPad or Android → https://example.com/app',
        'Visitors in Portugal → https://example.pt/',
        'Everyone else → https://example.com/',
      ]);
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Move down rule 1');

      await page.getByRole('button', { name: 'Create link' }).click();
      const slug = await createdSlug(page);
      expect((await getLink(slug)).meta_data).toEqual({
        defaultUrl: 'https://example.com/',
        rules: [
          { conditionType: 'device', operator: 'is', devices: ['ios', 'android'], url: 'https://example.com/app' },
          { conditionType: 'location', operator: 'is', countries: ['PT'], url: 'https://example.pt/' },
        ],
      });
      // Read back into the editor, the rules read the same.
      await expect
        .poll(() => summaries(page))
        .toEqual([
          'Visitors on iPhone/iPad or Android → https://example.com/app',
          'Visitors in Portugal → https://example.pt/',
          'Everyone else → https://example.com/',
        ]);
    } finally {
      await context.close();
    }
  });

  it('refuses a slug in its own words, and one already taken with the API’s error at the slug field', async () => {
    const taken = `taken-${Date.now()}`;
    await createLinkVia(api.app, owner.key, {
      name: 'First',
      type: 'website',
      data: { url: 'https://example.com/' },
      linkConfigurations: { urlActive: true, customUrl: taken },
    });
    const { context, page } = await open('/links/new?type=website');
    try {
      await page.getByLabel('Name', { exact: true }).fill('Second');
      await page.getByLabel('Web address').fill('https://example.com/two');
      await page.getByLabel('Custom short URL').check();
      const slug = page.locator('#field-linkConfigurations-customUrl');
      await slug.fill('spring menu');
      await page.getByRole('button', { name: 'Create link' }).click();
      await expect.poll(() => slug.getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('#field-linkConfigurations-customUrl-error').textContent()).toBe(
        'Use only letters, digits, - and _ (no spaces or other signs).',
      );
      await slug.fill(taken);
      expect(await page.locator('#field-linkConfigurations-customUrl-hint').textContent()).toContain(`/${taken}`);
      await page.getByRole('button', { name: 'Create link' }).click();
      await expect.poll(() => page.locator('#field-linkConfigurations-customUrl-error').textContent()).toBe('Custom URL is already in use');
      expect(await slug.getAttribute('aria-invalid')).toBe('true');
      expect(page.url()).toContain('/links/new');
    } finally {
      await context.close();
    }
  });

  it('stores a schedule in the chosen zone, not the browser’s, and a scan limit, as the form said', async () => {
    const { context, page } = await open('/links/new?type=website');
    try {
      await page.getByLabel('Name', { exact: true }).fill('Advent');
      await page.getByLabel('Web address').fill('https://example.com/advent');
      await page.getByLabel('Schedule: work only between two moments').check();
      await page.getByLabel('Starts').fill('2026-12-01T09:00');
      await page.getByLabel('Ends').fill('2026-12-24T18:00');
      await page.getByLabel('Time zone of these times').selectOption('America/New_York');
      await expect
        .poll(() => page.locator('.link-settings .summary').first().textContent())
        .toContain('Opens 1 Dec 2026 09:00, closes 24 Dec 2026 18:00, New York time.');
      await page.getByLabel('Scan limit').check();
      await page.getByLabel('Maximum scans').fill('500');
      await page.getByRole('button', { name: 'Create link' }).click();
      const slug = await createdSlug(page);
      // 09:00 and 18:00 in New York (EST, UTC-5), whatever the browser's zone (Tokyo).
      expect(await getLink(slug)).toMatchObject({
        schedule_active: true,
        start_date: '2026-12-01T14:00:00.000Z',
        end_date: '2026-12-24T23:00:00.000Z',
        schedule_timezone: 'America/New_York',
        scan_limit_active: true,
        scan_limit: 500,
      });
      // The editor shows it back as it was entered, with the scans so far.
      await expect.poll(() => page.getByLabel('Starts').inputValue()).toBe('2026-12-01T09:00');
      expect(await page.getByLabel('Ends').inputValue()).toBe('2026-12-24T18:00');
      expect(await page.getByLabel('Time zone of these times').inputValue()).toBe('America/New_York');
      expect(await page.locator('#field-linkConfigurations-scanLimit-hint').textContent()).toContain('Scanned 0 times so far');
    } finally {
      await context.close();
    }
  });

  it('edits a protected link without touching its password: still protected, same password; then changes it', async () => {
    const { slug } = await createLinkVia(api.app, owner.key, {
      name: 'Members',
      type: 'website',
      data: { url: 'https://example.com/members' },
      linkConfigurations: { passwordProtectedActive: true, password: 'open sesame' },
    });
    const hash = (await getLink(slug)).password;
    const { context, page } = await open(`/links/${slug}/edit`);
    try {
      expect(await page.getByRole('group', { name: 'A password is set' }).isVisible()).toBe(true);
      expect(await page.getByLabel('Keep the current password').isChecked()).toBe(true);
      // The hash is never put in a field.
      expect(await page.locator('input[type="password"]').count()).toBe(0);
      await page.getByLabel('Name', { exact: true }).fill('Members only');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await expect.poll(async () => (await getLink(slug)).name).toBe('Members only');
      expect(await getLink(slug)).toMatchObject({ password_protected_active: true, password: hash });
      // The short link still asks for the password.
      const visit = await redirect.get(`/${slug}`);
      expect(visit.status).toBe(200);
      expect(await visit.text()).toMatch(/type="password"/);
      // Changing it is a choice of its own; the new password is what the link then takes.
      await page.getByLabel('Set a new password').check();
      await page.getByLabel('New password', { exact: true }).fill('new sesame');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await expect.poll(async () => (await getLink(slug)).password).not.toBe(hash);
      expect(await bcrypt.compare('new sesame', (await getLink(slug)).password)).toBe(true);
    } finally {
      await context.close();
    }
  });

  for (const size of [PHONE, DESKTOP]) {
    it(`has no serious or critical accessibility violation and fits at ${size.viewport.width} px`, async () => {
      const { slug } = await createLinkVia(api.app, owner.key, {
        name: 'Cafe app',
        type: 'smart-url',
        data: {
          defaultUrl: 'https://example.com/',
          rules: [
            { conditionType: 'location', operator: 'is_not', countries: ['PT', 'ES'], url: 'https://example.com/world' },
            {
              conditionType: 'time',
              operator: 'between',
              timezone: 'Europe/Lisbon',
              timeFrom: '09:00',
              timeTo: '17:00',
              url: 'https://example.com/open',
            },
          ],
        },
        linkConfigurations: {
          scheduleActive: true,
          startDate: '2026-12-01T09:00',
          endDate: '2026-12-24T18:00',
          scheduleTimezone: 'Europe/Lisbon',
          scanLimitActive: true,
          scanLimit: 500,
          passwordProtectedActive: true,
          password: 'pw',
        },
      });
      const { context, page } = await open(`/links/${slug}/edit`, size, true);
      try {
        await page.locator('#field-data-rules-0-countries').fill('fra');
        expect(await summaries(page)).toEqual([
          'Visitors outside Portugal and Spain → https://example.com/world',
          'Between 09:00 and 17:00 (Lisbon time) → https://example.com/open',
          'Everyone else → https://example.com/',
        ]);
        expect(await seriousViolationsOn(page)).toEqual([]);
        expect(await overflowingElements(page, size.viewport.width)).toEqual([]);
        await page.locator('#field-data-rules-0-countries').fill('');
        await page.locator('.rules-editor').scrollIntoViewIfNeeded();
        await consoleScreenshot(page, 'link-rules', { dark: true });
        await page.getByRole('group', { name: 'Link settings' }).scrollIntoViewIfNeeded();
        await consoleScreenshot(page, 'link-settings', { dark: true });
      } finally {
        await context.close();
      }
    });
  }
});
