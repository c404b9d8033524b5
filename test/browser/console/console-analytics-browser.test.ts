/**
 * The console's analytics dashboard against the real scan path in headless Chromium: scans sent
 * through the redirect and recorded by the workers show on the dashboard with the API's numbers,
 * a new scan appears without a reload, switching the time zone moves the hour buckets, a long
 * range draws days instead of hours, device types beside browsers and systems, the CSV
 * export downloads the API's rows, the per-link dashboard from the link's row, nothing the CSP
 * blocks, and axe-core's serious and critical findings at phone and desktop width in both themes.
 */
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureConsoleBuilt } from '#console/build.js';
import { bucketLabel, deviceLabel, exportBody, viewFromQuery } from '#console/src/analytics/view.js';
import {
  isOfflineFavicon,
  consoleScreenshot,
  DESKTOP,
  hasChromium,
  launchChromium,
  overflowingElements,
  PHONE,
  seriousViolationsByTheme,
  signInBeforeLoad,
} from '../../support/browser.js';
import { geoSample } from '../../support/geo.js';
import { call } from '../../support/harness.js';
import { SCAN_USER_AGENTS, startScanStack, type ScanStack } from '../../support/redirect.js';

const UA = SCAN_USER_AGENTS;

let stack: ScanStack;
let base: string;
let browser: Browser;
let ip: Awaited<ReturnType<typeof geoSample>>;
let menu: { id: string; slug: string };
let table: { id: string; slug: string };

async function scan(slug: string, userAgent: string, address: string) {
  const res = await stack.redirect.get(`/${slug}`, { headers: { 'user-agent': userAgent, 'x-forwarded-for': address } });
  expect(res.status).toBe(302);
}

async function api(path: string) {
  const res = await call(stack.api.app, stack.me.key, 'GET', `/api/v1${path}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

beforeAll(async () => {
  await ensureConsoleBuilt();
  stack = await startScanStack({ TRUSTED_PROXIES: '127.0.0.1' }, { name: 'Cafe Aroma' });
  await stack.api.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(stack.api.app.server.address() as { port: number }).port}/`;
  ip = await geoSample();
  menu = await stack.createLink({ name: 'Menu', type: 'website', data: { url: 'https://example.com/menu' } });
  table = await stack.createLink({ name: 'Table 4', type: 'website', data: { url: 'https://example.com/table' } });
  await scan(menu.slug, UA.iosSafari, ip.DE);
  await scan(menu.slug, UA.androidChrome, ip.JP);
  await scan(menu.slug, UA.linuxFirefox, ip.US);
  await scan(menu.slug, UA.googlebot, ip.US);
  await scan(table.slug, UA.iosSafari, ip.DE);
  await scan(table.slug, UA.androidChrome, ip.DE);
  await stack.waitForScans(menu.id, 4);
  await stack.waitForScans(table.id, 2);
  if (hasChromium) browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

/** A signed-in page at `hash` in `timezoneId`, recording page errors and everything logged (a CSP violation is logged as an error). */
async function open(hash: string, options: { size?: typeof PHONE | typeof DESKTOP; bypassCSP?: boolean; timezoneId?: string } = {}) {
  const context = await browser.newContext({
    ...(options.size ?? DESKTOP),
    bypassCSP: options.bypassCSP ?? false,
    timezoneId: options.timezoneId ?? 'UTC',
    acceptDownloads: true,
  });
  await signInBeforeLoad(context, stack.me.key);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on(
    'console',
    (m) => (m.type() === 'error' || m.type() === 'warning') && !isOfflineFavicon(m.text()) && problems.push(`${m.type()}: ${m.text()}`),
  );
  await page.goto(`${base}#${hash}`);
  await page.locator('[data-total="scans"]').waitFor();
  return { context, page, problems };
}

const total = (page: Page, name: string) => page.locator(`[data-total="${name}"]`).textContent();
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
/** The chart's buckets as the table folded under it lists them (opened first, as a reader would). */
async function buckets(page: Page) {
  const table = page.locator('details').filter({ has: page.locator('summary', { hasText: 'as a table' }) });
  if (!(await table.evaluate((d: HTMLDetailsElement) => d.open))) await table.locator('summary').click();
  await page.locator('.analytics-series').waitFor();
  return page
    .locator('.analytics-series tbody tr')
    .evaluateAll((rows) => rows.map((r) => [r.querySelector('th')!.textContent, Number(r.querySelector('td')!.textContent)]));
}
/** Scrolls to each panel drawn only near the screen (the heatmap, the map) until all are drawn. */
async function drawBelowFold(page: Page) {
  await expect
    .poll(() =>
      page.evaluate(
        () => (document.querySelector('.when-near')?.scrollIntoView({ block: 'center' }), document.querySelectorAll('.when-near').length),
      ),
    )
    .toBe(0);
}
/** The weekday-hour grid's cells, summed. */
async function heatmapSum(page: Page) {
  await drawBelowFold(page);
  return page.locator('.heatmap tbody td').evaluateAll((cells) => cells.reduce((s, c) => s + Number(c.textContent), 0));
}
type Series = { x: string[]; y: number[] };
const apiBuckets = (series: Series) => series.x.map((d, i) => [bucketLabel(d), series.y[i]]);
/** The buckets uPlot has drawn (data-drawn, set by its draw hook). */
const drawn = (page: Page) => page.locator('.scan-chart').getAttribute('data-drawn');

/** Clicks a country on the map where a finger would, on its land: a point inside its outline (its box's centre may be sea). */
async function clickOnLand(page: Page, country: string) {
  const path = page.locator(`svg.world-map a[data-country="${country}"] path`);
  await path.scrollIntoViewIfNeeded();
  const point = await path.evaluate((p: SVGPathElement) => {
    const box = p.getBBox();
    for (let i = 1; i < 20; i++)
      for (let j = 1; j < 20; j++) {
        const x = box.x + (box.width * i) / 20;
        const y = box.y + (box.height * j) / 20;
        if (p.isPointInFill(new DOMPoint(x, y))) {
          const screen = new DOMPoint(x, y).matrixTransform(p.getScreenCTM()!);
          return { x: screen.x, y: screen.y };
        }
      }
    return null;
  });
  expect(point).not.toBeNull();
  await page.mouse.click(point!.x, point!.y);
}

describe.skipIf(!hasChromium)('console analytics dashboard', () => {
  it('shows the API’s numbers, takes in a new scan without a reload, moves hours with the zone, exports the API’s rows, and draws days for a month', async () => {
    const { context, page, problems } = await open('/analytics');
    try {
      const general = await api('/analytics/general?duration=7_days&timezone=UTC');
      expect(general).toMatchObject({ numberOfScans: 5, botScans: 1 });
      expect(await total(page, 'scans')).toBe(String(general.numberOfScans));
      expect(await total(page, 'visitors')).toBe(String(general.uniqueVisitors));
      expect(await total(page, 'links')).toBe('2');
      const rows = (data: Array<{ name: string; scans: number }>) => data.map((r) => [r.name, r.scans]);
      expect(await ranked(page, 'Browsers')).toEqual(rows(await api('/analytics/browser?duration=7_days&timezone=UTC&limit=10')));
      expect(await ranked(page, 'Top QR codes')).toEqual(rows(await api('/analytics/qr-code?duration=7_days&timezone=UTC&limit=10')));
      expect((await ranked(page, 'Countries'))[0]).toEqual(['🇩🇪 Germany', 3]);
      // Each top QR code leads to its link's dashboard.
      expect(await page.getByRole('region', { name: 'Top QR codes' }).getByRole('link', { name: 'Menu' }).getAttribute('href')).toBe(
        `#/analytics/${menu.slug}`,
      );
      expect(await ranked(page, 'Devices')).toEqual(
        (await api('/analytics/device?duration=7_days&timezone=UTC&limit=10')).map((r: { name: string; scans: number }) => [
          deviceLabel(r.name),
          r.scans,
        ]),
      );
      expect(await ranked(page, 'Devices')).toEqual([
        ['Mobile', 4],
        ['Desktop', 1],
      ]);
      // The last 7 days are drawn per hour: every hour of the API's answer, on uPlot's canvas.
      const hours = (await api('/analytics/activity?duration=7_days&timezone=UTC')).Hour as Series;
      expect(await page.getByRole('heading', { name: 'Scans per hour (UTC)' }).count()).toBe(1);
      expect(await buckets(page)).toEqual(apiBuckets(hours));
      expect(hours.x.length).toBeGreaterThan(6 * 24);
      expect(await drawn(page)).toBe(String(hours.x.length));
      expect(await page.locator('.scan-chart canvas').count()).toBeGreaterThan(0);
      // The weekday-hour grid counts every scan.
      const gridSum = await heatmapSum(page);
      expect(gridSum).toBe(5);
      await consoleScreenshot(page, 'analytics', { dark: true });

      // A new scan shows within a poll, no reload.
      await scan(table.slug, UA.linuxFirefox, ip.JP);
      await expect.poll(() => total(page, 'scans'), { timeout: 12_000, interval: 500 }).toBe('6');

      // A zone 14 hours ahead of UTC: the scans made now fall in other local hours and on another local day.
      await page.getByLabel('Time zone').selectOption('Pacific/Kiritimati');
      await expect.poll(() => new URL(page.url()).hash).toBe('#/analytics?tz=Pacific%2FKiritimati');
      const farHours = apiBuckets((await api('/analytics/activity?duration=7_days&timezone=Pacific/Kiritimati')).Hour);
      // The chart's heading names the new zone once the dashboard has re-rendered for it. Read before
      // that, the table can be replaced under the read, which then never returns, and the poll fails
      // however long it waits (the step failed so on a busy machine, on Node 20 and 24 alike).
      // One read takes most of a second on a loaded machine: longer than the poll's default timeout.
      await page.getByRole('heading', { name: 'Scans per hour (Pacific/Kiritimati)' }).waitFor();
      await expect.poll(() => buckets(page), { timeout: 10_000 }).toEqual(farHours);
      const utcHours = apiBuckets((await api('/analytics/activity?duration=7_days&timezone=UTC')).Hour);
      expect(farHours.at(-1)![0]).not.toBe(utcHours.at(-1)![0]);

      // The export: the job's progress, then the file, with exactly the API's rows for the same days.
      await page.getByRole('button', { name: 'Export CSV' }).click();
      const downloadButton = page.getByRole('button', { name: /^Download / });
      await downloadButton.waitFor({ timeout: 20_000 });
      const [download] = await Promise.all([page.waitForEvent('download'), downloadButton.click()]);
      const file = await readFile(await download.path(), 'utf8');
      const body = exportBody(viewFromQuery('tz=Pacific/Kiritimati', 'UTC'), new Date());
      const expected = await call(stack.api.app, stack.me.key, 'POST', '/api/v1/analytics/export', body);
      expect(expected.statusCode).toBe(200);
      expect(file).toBe(expected.body);
      expect(file.trim().split('\n')).toHaveLength(1 + 6);

      // Longer than 7 days: one bar per day.
      await page.getByLabel('Range').selectOption('30_days');
      await page.getByRole('heading', { name: 'Scans per day (Pacific/Kiritimati)' }).waitFor();
      const days = (await api('/analytics/activity?duration=30_days&timezone=Pacific/Kiritimati')).Day as Series;
      await expect.poll(() => buckets(page)).toEqual(apiBuckets(days));
      await expect.poll(() => drawn(page)).toBe('30');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('a link’s dashboard from its row’s scan count: that link’s numbers only', async () => {
    const { context, page, problems } = await open('/analytics');
    try {
      await page.goto(`${base}#/links`);
      await page.getByRole('link', { name: /^\d+ scans of Table 4: its analytics$/ }).click();
      // Named as its owner named the link, with its short address beside it.
      await page.getByRole('heading', { name: 'Analytics of Table 4' }).waitFor();
      expect(await page.locator('.analytics-slug').textContent()).toBe(`/${table.slug}`);
      expect(new URL(page.url()).hash).toBe(`#/analytics/${table.slug}`);
      const general = await api(`/links/${table.slug}/analytics/general?duration=7_days&timezone=UTC`);
      await expect.poll(() => total(page, 'scans')).toBe(String(general.numberOfScans));
      expect(general.numberOfScans).toBe(3);
      expect(await total(page, 'visitors')).toBe(String(general.uniqueVisitors));
      expect(await page.getByRole('region', { name: 'Top QR codes' }).count()).toBe(0);
      await consoleScreenshot(page, 'analytics-link', { dark: true });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 30_000);

  it('a click on a country (list or map), browser or system filters every panel and the export; chips remove them; the address keeps them', async () => {
    const { context, page, problems } = await open('/analytics');
    try {
      // The map draws the countries with human scans, each named with its count, and no other as a link.
      const countries = await api('/analytics/country?duration=7_days&timezone=UTC&limit=300');
      await drawBelowFold(page);
      const mapped = page.locator('svg.world-map a[data-country]');
      await expect.poll(() => mapped.count()).toBe(countries.length);
      expect(countries.map((c: { name: string }) => c.name).sort()).toEqual(['Germany', 'Japan', 'United States']);
      for (const c of countries as Array<{ name: string; scans: number }>)
        expect(await page.locator(`svg.world-map a[data-country="${c.name}"]`).getAttribute('aria-label')).toBe(
          `${c.name}: ${c.scans} scan${c.scans === 1 ? '' : 's'}`,
        );

      // Germany in the list: every panel narrows to the API's filtered answers.
      await page
        .getByRole('region', { name: 'Countries', exact: true })
        .getByRole('link', { name: /Germany/ })
        .click();
      await expect.poll(() => new URL(page.url()).hash).toBe('#/analytics?country=Germany');
      const germany = await api('/analytics/general?duration=7_days&timezone=UTC&country=Germany');
      expect(germany.numberOfScans).toBe(3);
      await expect.poll(() => total(page, 'scans')).toBe('3');
      const rows = (data: Array<{ name: string; scans: number }>) => data.map((r) => [r.name, r.scans]);
      expect(await ranked(page, 'Browsers')).toEqual(
        rows(await api('/analytics/browser?duration=7_days&timezone=UTC&limit=10&country=Germany')),
      );
      expect(await ranked(page, 'Top QR codes')).toEqual([
        ['Table 4', 2],
        ['Menu', 1],
      ]);
      expect(await ranked(page, 'Countries')).toEqual([['🇩🇪 Germany', 3]]);
      const gridSum = await heatmapSum(page);
      expect(gridSum).toBe(3);
      expect(await page.locator('svg.world-map a[data-country]').count()).toBe(1);
      const chip = page.getByRole('link', { name: 'Remove the filter Country: Germany' });
      expect(await chip.textContent()).toBe('Country: Germany');

      // The export follows the filter: the file is the API's filtered rows.
      await page.getByRole('button', { name: 'Export CSV' }).click();
      const downloadButton = page.getByRole('button', { name: /^Download / });
      await downloadButton.waitFor({ timeout: 20_000 });
      const [download] = await Promise.all([page.waitForEvent('download'), downloadButton.click()]);
      const file = await readFile(await download.path(), 'utf8');
      const body = exportBody(viewFromQuery('country=Germany', 'UTC'), new Date());
      expect(body).toMatchObject({ country: 'Germany' });
      const expected = await call(stack.api.app, stack.me.key, 'POST', '/api/v1/analytics/export', body);
      expect(file).toBe(expected.body);
      expect(file.trim().split('\n')).toHaveLength(1 + 3);

      // A browser on top: both chips; the address keeps both, so a reload shows the same.
      await page.getByRole('region', { name: 'Browsers', exact: true }).getByRole('link', { name: 'Mobile Safari' }).click();
      await expect.poll(() => new URL(page.url()).hash).toBe('#/analytics?country=Germany&browser=Mobile+Safari');
      await expect.poll(() => total(page, 'scans')).toBe('2');
      await page.reload();
      await page.locator('[data-total="scans"]').waitFor();
      expect(await total(page, 'scans')).toBe('2');
      expect(await page.locator('.filter-chip').allTextContents()).toEqual(['Country: Germany', 'Browser: Mobile Safari']);

      // Removing the country chip keeps the browser's.
      await page.getByRole('link', { name: 'Remove the filter Country: Germany' }).click();
      await expect.poll(() => new URL(page.url()).hash).toBe('#/analytics?browser=Mobile+Safari');
      await expect
        .poll(() => total(page, 'scans'))
        .toBe(String((await api('/analytics/general?duration=7_days&timezone=UTC&browser=Mobile%20Safari')).numberOfScans));
      await page.getByRole('link', { name: 'Remove the filter Browser: Mobile Safari' }).click();
      await expect.poll(() => new URL(page.url()).hash).toBe('#/analytics');

      // Japan on the map filters as the list does.
      await clickOnLand(page, 'Japan');
      await expect.poll(() => new URL(page.url()).hash).toBe('#/analytics?country=Japan');
      const japan = await api('/analytics/general?duration=7_days&timezone=UTC&country=Japan');
      await expect.poll(() => total(page, 'scans')).toBe(String(japan.numberOfScans));
      expect(japan.numberOfScans).toBeGreaterThan(0);
      await consoleScreenshot(page, 'analytics-filtered', { dark: true });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('has no serious accessibility finding at phone and desktop width, light and dark, and fits a phone', async () => {
    const visits = [
      { size: PHONE, hash: '/analytics', shot: 'analytics' },
      { size: PHONE, hash: `/analytics/${table.slug}`, shot: 'analytics-link' },
      { size: DESKTOP, hash: `/analytics/${menu.slug}`, shot: null },
      { size: DESKTOP, hash: '/analytics?country=Germany', shot: null },
      { size: PHONE, hash: '/analytics?country=Germany', shot: null },
    ];
    for (const { size, hash, shot } of visits) {
      const { context, page } = await open(hash, { size, bypassCSP: true });
      try {
        expect(await seriousViolationsByTheme(page), `${hash} at ${size.viewport.width}`).toEqual({ light: [], dark: [] });
        if (size === PHONE) expect(await overflowingElements(page, PHONE.viewport.width), hash).toEqual([]);
        if (shot) await consoleScreenshot(page, shot, { dark: true });
      } finally {
        await context.close();
      }
    }
  }, 40_000);
});
