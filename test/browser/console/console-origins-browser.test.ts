/**
 * Where scans come from, in the console against the real api in headless Chromium: a link's
 * placements on its edit page (added, one's PNG downloaded and decoded to its marked URL,
 * renamed, removed after a confirm; a reader sees the list without edit controls), and the
 * dashboards' source split, placements, referrers and campaigns for scans recorded by the scans
 * worker's own ingestion with their origins; axe-core's serious and critical findings at phone and
 * desktop width in both themes, and nothing wider than a phone.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { encodeScanBatch } from '#domain/scans/batch.js';
import { ingestScanBatches } from '#domain/scans/ingest.js';
import type { ScanEvent, ScanOrigin } from '#domain/scans/types.js';
import { campaignLabel, placementLabel, referrerLabel } from '#console/src/analytics/origins.js';
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
import { addKey, call, createLinkVia, createTestAccount, type TestAccount, type TestApi } from '../../support/harness.js';
import { decodePng } from '../../support/qr-reference.js';

let api: TestApi;
let base: string;
let browser: Browser;
let owner: TestAccount;
let reader: string;
let menu: { slug: string; id: string };
const problems: string[] = [];

async function json(key: string, method: 'GET' | 'POST', path: string, body?: unknown) {
  const res = await call(api.app, key, method, `/api/v1${path}`, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

/** `count` scans of the menu link an hour ago, from `origin`. */
function scans(count: number, origin: ScanOrigin | undefined): ScanEvent[] {
  const at = Date.now() - 3_600_000;
  return Array.from({ length: count }, (_, i) => ({
    id: randomUUID(),
    linkId: menu.id,
    accountId: owner.accountId,
    at: at + i * 1000,
    browserName: 'Mobile Safari',
    deviceType: 'mobile',
    deviceVendor: 'Apple',
    osName: 'iOS',
    countryName: 'Portugal',
    region: null,
    city: 'Lisbon',
    isBot: false,
    ...(origin ? { origin } : {}),
  }));
}

const qr = (placementId: string | null, utmCampaign: string | null = null): ScanOrigin => ({
  source: 'qr',
  placementId,
  referrerHost: null,
  utmCampaign,
});

beforeAll(async () => {
  ({ api, base } = await startConsoleApi());
  owner = await createTestAccount(api.ctx, { plan: 'pro', name: 'Cafe Aroma' });
  reader = (await addKey(api.ctx, owner.accountId, ['links.read'])).key;
  menu = await createLinkVia(api.app, owner.key, { name: 'Spring menu', type: 'website', data: { url: 'https://example.com/menu' } });
  const tent = await json(owner.key, 'POST', `/links/${menu.slug}/placements`, { name: 'Table tent' });
  const window = await json(owner.key, 'POST', `/links/${menu.slug}/placements`, { name: 'Window' });
  const batch = [
    ...scans(3, qr(tent.id, 'spring')),
    ...scans(1, qr(window.id)),
    ...scans(2, qr(null)),
    ...scans(2, { source: 'link', placementId: null, referrerHost: 'chat.example', utmCampaign: null }),
    // A code printed before markers: no origin at all.
    ...scans(1, undefined),
  ];
  expect((await ingestScanBatches(api.ctx.database.pool, [encodeScanBatch(batch)])).inserted).toBe(batch.length);
  if (hasChromium) browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await api?.close();
});

async function open(hash: string, options: { key?: string; size?: typeof PHONE | typeof DESKTOP } = {}) {
  const context = await browser.newContext({ ...(options.size ?? DESKTOP), bypassCSP: true, timezoneId: 'UTC', acceptDownloads: true });
  await signInBeforeLoad(context, options.key ?? owner.key);
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  await page.goto(`${base}#${hash}`);
  return { context, page };
}

/** A placement card's names on the edit page, in order. */
const placementNames = (page: Page) => page.getByRole('region', { name: 'Placements' }).locator('.placement-name strong').allTextContents();

/** A ranked card's rows as [shown name, scans]. */
const ranked = (page: Page, title: string) =>
  page
    .getByRole('region', { name: title, exact: true })
    .locator('li')
    .evaluateAll((items) =>
      items.map((li) => [
        li.querySelector('.ranked-name')!.textContent.trim(),
        Number(li.querySelector('.ranked-count')!.firstChild!.textContent!.replace(/\D/g, '')),
      ]),
    );

/** The source legend as [label, scans]. */
const sources = (page: Page) =>
  page
    .locator('.source-legend li')
    .evaluateAll((items) =>
      items.map((li) => [
        li.querySelector('.source-name')!.textContent.trim(),
        Number(li.querySelector('.ranked-count')!.firstChild!.textContent!.replace(/\D/g, '')),
      ]),
    );

/** The seeded scans by source, as the legend lists them. */
const EVERY_SOURCE = [
  ['QR code', 6],
  ['Link', 2],
  ['Unknown – codes printed before sources were tracked', 1],
];

describe.skipIf(!hasChromium)('where scans come from, in the console', () => {
  afterEach(() => {
    expect(problems.splice(0)).toEqual([]);
  });

  it("adds placements on a link's page, downloads one's code, renames and removes one", async () => {
    const flyer = await createLinkVia(api.app, owner.key, { name: 'Flyer', type: 'website', data: { url: 'https://example.com/flyer' } });
    const { context, page } = await open(`/links/${flyer.slug}/edit`);
    try {
      const panel = page.getByRole('region', { name: 'Placements' });
      await panel.getByText('No placements yet.').waitFor();
      for (const name of ['Table tent', 'Window']) {
        await panel.getByLabel('New placement').fill(name);
        await panel.getByRole('button', { name: 'Add placement' }).click();
        await page.getByText(`Placement “${name}” added.`).waitFor();
      }
      await expect.poll(() => placementNames(page), { timeout: 10_000 }).toEqual(['Table tent', 'Window']);
      // Names are unique within the link, ignoring case: the API's refusal is said at the field.
      await panel.getByLabel('New placement').fill('window');
      await panel.getByRole('button', { name: 'Add placement' }).click();
      expect(await panel.locator('.placement-form .field-error').textContent()).toBe('The link already has a placement of that name');
      // The refusal this step asked for, as Chromium logs it.
      expect(problems.splice(0)).toEqual(['console: Failed to load resource: the server responded with a status of 409 (Conflict)']);
      await panel.getByLabel('New placement').fill('');

      // Its PNG is the api's image of the placement's code: the short URL with ?q=<code>.
      const stored = await json(owner.key, 'GET', `/links/${flyer.slug}/placements`);
      const link = await json(owner.key, 'GET', `/links/${flyer.slug}`);
      const tent = stored.find((p: { name: string }) => p.name === 'Table tent');
      expect(tent.url).toBe(`${link.full_dynamic_url}?q=${tent.code}`);
      expect(await panel.locator('.placement-url').first().textContent()).toBe(tent.url.replace(/^https?:\/\//, ''));
      const [png] = await Promise.all([
        page.waitForEvent('download'),
        panel.getByRole('button', { name: 'Download PNG of Table tent' }).click(),
      ]);
      expect(png.suggestedFilename()).toBe('flyer-table-tent-1024.png');
      expect(decodePng(await readFile(await png.path()))).toBe(`${link.full_dynamic_url}?q=${tent.code}`);
      const [svg] = await Promise.all([
        page.waitForEvent('download'),
        panel.getByRole('button', { name: 'Download SVG of Window' }).click(),
      ]);
      expect(svg.suggestedFilename()).toBe('flyer-window-1024.svg');
      expect(await readFile(await svg.path(), 'utf8')).toContain('<svg');

      await panel.getByRole('button', { name: 'Rename Window' }).click();
      await panel.getByLabel('New name for Window').fill('Shop window');
      await panel.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('Placement renamed to “Shop window”.').waitFor();
      await expect.poll(() => placementNames(page), { timeout: 10_000 }).toEqual(['Table tent', 'Shop window']);

      await panel.getByRole('button', { name: 'Remove Table tent' }).click();
      const dialog = page.getByRole('dialog', { name: 'Remove the placement “Table tent”?' });
      expect(await dialog.textContent()).toContain('Codes already printed for it keep working');
      await dialog.getByRole('button', { name: 'Remove placement' }).click();
      await page.getByText('Placement “Table tent” removed.').waitFor();
      await expect.poll(() => placementNames(page), { timeout: 10_000 }).toEqual(['Shop window']);
      expect((await json(owner.key, 'GET', `/links/${flyer.slug}/placements`)).map((p: { name: string }) => p.name)).toEqual([
        'Shop window',
      ]);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('a reader sees the placements and their downloads, without edit controls', async () => {
    const { context, page } = await open(`/links/${menu.slug}/edit`, { key: reader });
    try {
      const panel = page.getByRole('region', { name: 'Placements' });
      await panel.locator('.placement').first().waitFor();
      expect(await placementNames(page)).toEqual(['Table tent', 'Window']);
      // Scans of the last 30 days beside each.
      await expect
        .poll(() => panel.locator('.placement-name .hint').allTextContents())
        .toEqual(['3 scans in the last 30 days', '1 scan in the last 30 days']);
      expect(await panel.getByRole('button', { name: 'Download PNG of Window' }).count()).toBe(1);
      expect(await panel.getByRole('button', { name: /^(Rename|Remove) / }).count()).toBe(0);
      expect(await panel.getByLabel('New placement').count()).toBe(0);
      expect(await panel.textContent()).toContain('This key lacks the links.update scope.');
    } finally {
      await context.close();
    }
  }, 30_000);

  it('the dashboards split scans by source and rank placements, referrers and campaigns', async () => {
    const { context, page } = await open('/analytics');
    try {
      await page.locator('[data-total="scans"]').waitFor();
      const origins = page.getByRole('region', { name: 'Where scans come from' });
      expect(await sources(page)).toEqual(EVERY_SOURCE);
      expect(await origins.textContent()).toContain('cannot be told from clicks');
      const query = 'duration=7_days&timezone=UTC&limit=10';
      const placements = await json(owner.key, 'GET', `/analytics/placement?${query}`);
      expect(await ranked(page, 'Placements')).toEqual(
        placements.map((r: { name: string; scans: number; linkName?: string }) => [
          r.name === '(none)' ? placementLabel(r.name) : `${r.name} · ${r.linkName}`,
          r.scans,
        ]),
      );
      expect(await ranked(page, 'Placements')).toEqual([
        ['No placement', 5],
        ['Table tent · Spring menu', 3],
        ['Window · Spring menu', 1],
      ]);
      // Account-wide, a placement leads to its link's dashboard.
      expect(await origins.getByRole('link', { name: 'Table tent · Spring menu' }).getAttribute('href')).toBe(`#/analytics/${menu.slug}`);
      const referrers = await json(owner.key, 'GET', `/analytics/referrer?${query}`);
      expect(await ranked(page, 'Referrers')).toEqual(
        referrers.map((r: { name: string; scans: number }) => [referrerLabel(r.name), r.scans]),
      );
      expect(await ranked(page, 'Referrers')).toEqual([
        ['Direct', 7],
        ['chat.example', 2],
      ]);
      const campaigns = await json(owner.key, 'GET', `/analytics/campaign?${query}`);
      expect(await ranked(page, 'Campaigns')).toEqual(
        campaigns.map((r: { name: string; scans: number }) => [campaignLabel(r.name), r.scans]),
      );
      expect(await ranked(page, 'Campaigns')).toEqual([
        ['No campaign', 6],
        ['spring', 3],
      ]);
      await origins.scrollIntoViewIfNeeded();
      await consoleScreenshot(page, 'analytics-origins', { dark: true });

      // The link's own dashboard: its placements by name.
      await origins.getByRole('link', { name: 'Table tent · Spring menu' }).click();
      await page.getByRole('heading', { name: 'Analytics of Spring menu' }).waitFor();
      await expect
        .poll(() => ranked(page, 'Placements'))
        .toEqual([
          ['No placement', 5],
          ['Table tent', 3],
          ['Window', 1],
        ]);
      expect(await sources(page)).toEqual(EVERY_SOURCE);

      // A source narrows the dashboard to its scans, as a country does; its chip takes it off again.
      await origins.getByRole('link', { name: 'Link', exact: true }).click();
      await page.getByRole('link', { name: 'Remove the filter Source: Link' }).waitFor();
      expect(new URL(page.url()).hash).toBe(`#/analytics/${menu.slug}?source=link`);
      await expect.poll(() => sources(page)).toEqual(EVERY_SOURCE.map(([label, scans]) => [label, label === 'Link' ? scans : 0]));
      const linkOnly = await json(owner.key, 'GET', `/links/${menu.slug}/analytics/general?duration=7_days&timezone=UTC&source=link`);
      expect(Number(await page.locator('[data-total="scans"]').textContent())).toBe(linkOnly.numberOfScans);
      await page.getByRole('link', { name: 'Remove the filter Source: Link' }).click();
      await expect.poll(() => sources(page)).toEqual(EVERY_SOURCE);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('has no serious accessibility finding at phone and desktop width, light and dark, and fits a phone', async () => {
    const visits = [
      { size: PHONE, hash: `/links/${menu.slug}/edit`, ready: '.placement', shot: 'link-placements' },
      { size: DESKTOP, hash: `/links/${menu.slug}/edit`, ready: '.placement', shot: 'link-placements' },
      { size: PHONE, hash: '/analytics', ready: '.source-legend', shot: 'analytics-origins' },
      { size: DESKTOP, hash: `/analytics/${menu.slug}`, ready: '.source-legend', shot: 'analytics-link-origins' },
    ];
    for (const { size, hash, ready, shot } of visits) {
      const { context, page } = await open(hash, { size });
      try {
        await page.locator(ready).first().waitFor();
        expect(await seriousViolationsByTheme(page), `${hash} at ${size.viewport.width}`).toEqual({ light: [], dark: [] });
        if (size === PHONE) expect(await overflowingElements(page, PHONE.viewport.width), hash).toEqual([]);
        if (shot) {
          await page.locator(ready === '.placement' ? '.placements' : '.origins').scrollIntoViewIfNeeded();
          await consoleScreenshot(page, shot, { dark: true });
        }
      } finally {
        await context.close();
      }
    }
  }, 60_000);
});
