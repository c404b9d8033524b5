/**
 * The console's home screen in headless Chromium against the real api, with scans recorded by the
 * scans worker's own ingestion SQL at known times: today's and the last 7 days' scans exactly,
 * each against the period before with its direction, the top links of the week, the cafes with
 * today's menu scans, recent links, the next steps (no "Invite people" while there are no people),
 * a key without links.read (what it may see, and why not the rest), a new account's first step,
 * and axe-core's serious and critical findings at phone and desktop width in both themes.
 */
import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeScanBatch } from '#domain/scans/batch.js';
import { ingestScanBatches } from '#domain/scans/ingest.js';
import type { ScanEvent } from '#domain/scans/types.js';
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
import { addKey, call, createTestAccount, type TestAccount, type TestApi } from '../../support/harness.js';
import { startConsoleApi } from '../../support/console.js';

let api: TestApi;
let base: string;
let browser: Browser;
let owner: TestAccount;
let fresh: TestAccount;
let cafeReader: string;
const DAY = 86_400_000;

async function link(name: string) {
  const res = await call(api.app, owner.key, 'POST', '/api/v1/links', { name, type: 'website', data: { url: 'https://example.com/' } });
  expect(res.statusCode).toBe(200);
  return idOf(res.json().id);
}

async function idOf(slug: string) {
  const { rows } = await api.ctx.database.pool.query<{ id: string }>('select id from links where slug = $1', [slug]);
  return { slug, id: rows[0]!.id };
}

function scansOf(linkId: string, at: number, count: number): ScanEvent[] {
  return Array.from({ length: count }, (_, i) => ({
    id: randomUUID(),
    linkId,
    accountId: owner.accountId,
    at: at + i * 1000,
    browserName: 'Chrome',
    deviceType: 'mobile',
    deviceVendor: null,
    osName: 'Android',
    countryName: 'Portugal',
    region: null,
    city: 'Lisbon',
    isBot: false,
  }));
}

beforeAll(async () => {
  ({ api, base } = await startConsoleApi());
  owner = await createTestAccount(api.ctx, { name: 'Cafe Aroma' });
  fresh = await createTestAccount(api.ctx, { name: 'Padaria Nova' });
  cafeReader = (await addKey(api.ctx, owner.accountId, ['cafe.read'])).key;
  const menu = await link('Menu');
  const table = await link('Table 4');
  const terrace = await link('Terrace');
  const cafe = (await call(api.app, owner.key, 'POST', '/api/v1/cafes', { name: 'Aroma Chiado' })).json().data;
  const cafeLink = await idOf(cafe.link.dynamic_link_id);
  // The browser runs in UTC: today is the UTC day. Times well inside each day, whenever this runs.
  const now = Date.now();
  const today = Math.floor(now / DAY) * DAY;
  const inToday = today + Math.floor((now - today) / 2);
  const scans = [
    ...scansOf(menu.id, inToday, 2),
    ...scansOf(cafeLink.id, inToday, 1),
    ...scansOf(menu.id, today - DAY / 2, 2), // yesterday
    ...scansOf(table.id, today - DAY / 2 + 10_000, 2), // yesterday
    ...scansOf(terrace.id, today - 3 * DAY, 1),
    ...scansOf(menu.id, today - 10 * DAY, 3), // the 7 days before the last 7
  ];
  const result = await ingestScanBatches(api.ctx.database.pool, [encodeScanBatch(scans)]);
  expect(result.inserted).toBe(scans.length);
  if (hasChromium) browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await api?.close();
});

async function open(key: string, size: typeof PHONE | typeof DESKTOP = DESKTOP, bypassCSP = false) {
  const context = await browser.newContext({ ...size, timezoneId: 'UTC', bypassCSP });
  await signInBeforeLoad(context, key);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => (m.type() === 'error' || m.type() === 'warning') && problems.push(`${m.type()}: ${m.text()}`));
  await page.goto(base);
  return { context, page, problems };
}

describe.skipIf(!hasChromium)('console home', () => {
  it('shows scans today and this week against the periods before, the top links, the cafes, recent links and the next steps', async () => {
    const { context, page, problems } = await open(owner.key);
    try {
      await page.locator('[data-total="today"]').waitFor();
      expect(await page.title()).toBe('Home · qrlinks console');
      expect(await page.getByRole('link', { name: 'Home' }).getAttribute('aria-current')).toBe('page');
      expect(await page.locator('[data-total="today"]').textContent()).toBe('3');
      expect(await page.locator('[data-delta="today"]').textContent()).toBe('−25% vs all of yesterday (4)');
      expect(await page.locator('[data-delta="today"]').getAttribute('class')).toContain('down');
      expect(await page.locator('[data-total="week"]').textContent()).toBe('8');
      expect(await page.locator('[data-delta="week"]').textContent()).toBe('+167% vs the 7 days before (3)');
      expect(await page.locator('[data-delta="week"]').getAttribute('class')).toContain('up');

      const top = page.getByRole('region', { name: 'Top links this week' });
      const rows = await top.locator('li').evaluateAll((items) => items.map((li) => li.textContent));
      expect(rows.slice(0, 2)).toEqual(['Menu4 scans', 'Table 42 scans']);
      expect(rows).toHaveLength(4);
      expect(await top.getByRole('link', { name: 'Menu' }).getAttribute('href')).toMatch(/^#\/analytics\/[A-Za-z0-9]+$/);

      const cafes = page.getByRole('region', { name: 'Cafes' });
      await cafes.getByRole('link', { name: '1 scan today' }).waitFor();
      expect(await cafes.getByRole('link', { name: 'Aroma Chiado' }).count()).toBe(1);

      const recent = page.getByRole('region', { name: 'Recent activity' });
      expect(await recent.getByRole('link').allTextContents()).toEqual(expect.arrayContaining(['Terrace', 'Table 4', 'Menu']));

      const steps = page.getByRole('group', { name: 'Next steps' });
      expect(await steps.getByRole('link').allTextContents()).toEqual(['New link', 'New cafe', 'Bulk create']);
      expect(await steps.getByRole('link', { name: 'New link' }).getAttribute('class')).toBe('button primary');
      expect(await page.getByText('Invite people').count()).toBe(0);
      expect(await page.getByRole('region', { name: 'This key' }).getByRole('link', { name: 'Manage API keys' }).count()).toBe(1);
      await consoleScreenshot(page, 'home', { dark: true });

      await steps.getByRole('link', { name: 'New link' }).click();
      await expect.poll(() => new URL(page.url()).hash).toBe('#/links/new');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('a key without links.read sees the scans and cafes, and why the links and the steps are not there', async () => {
    const { context, page, problems } = await open(cafeReader);
    try {
      await page.locator('[data-total="week"]').waitFor();
      expect(await page.locator('[data-total="week"]').textContent()).toBe('8');
      const recent = page.getByRole('region', { name: 'Recent activity' });
      expect(await recent.textContent()).toContain('This key lacks the links.read scope, so it cannot list the links.');
      expect(await page.getByRole('group', { name: 'Next steps' }).getByRole('link').count()).toBe(0);
      expect(await page.locator('.home-actions').textContent()).toContain(
        'New link, New cafe, Bulk create: this key lacks links.create, cafe.create, bulk.create.',
      );
      await page.getByRole('region', { name: 'Cafes' }).getByRole('link', { name: 'Aroma Chiado' }).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 30_000);

  it('a new account is asked to create its first link', async () => {
    const { context, page } = await open(fresh.key);
    try {
      await page.getByRole('heading', { name: 'Create your first link' }).waitFor();
      expect(await page.locator('.empty-state').getByRole('link', { name: 'New link' }).getAttribute('href')).toBe('#/links/new');
      await consoleScreenshot(page, 'home-new', { dark: true });
    } finally {
      await context.close();
    }
  }, 30_000);

  it('has no serious accessibility finding at phone and desktop width, light and dark, and fits a phone', async () => {
    for (const [size, key] of [
      [PHONE, owner.key],
      [DESKTOP, owner.key],
      [PHONE, fresh.key],
    ] as const) {
      const { context, page } = await open(key, size, true);
      try {
        await page.locator('[data-total="week"], .empty-state').first().waitFor();
        await page.locator('.skeleton').waitFor({ state: 'detached' });
        expect(await seriousViolationsByTheme(page), `${size.viewport.width}`).toEqual({ light: [], dark: [] });
        if (size === PHONE) expect(await overflowingElements(page, PHONE.viewport.width)).toEqual([]);
        if (size === PHONE && key === owner.key) await consoleScreenshot(page, 'home', { dark: true });
      } finally {
        await context.close();
      }
    }
  }, 60_000);
});
