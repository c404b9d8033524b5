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
import { ensureConsoleBuilt } from '../console/build.js';
import { bucketLabel, deviceLabel, exportBody, viewFromQuery } from '../console/src/analytics/view.js';
import {
  consoleScreenshot,
  DESKTOP,
  hasChromium,
  launchChromium,
  overflowingElements,
  PHONE,
  seriousViolationsByTheme,
  signInBeforeLoad,
} from './support/browser.js';
import { geoSample } from './support/geo.js';
import { call } from './support/harness.js';
import { SCAN_USER_AGENTS, startScanStack, type ScanStack } from './support/redirect.js';

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
  page.on('console', (m) => (m.type() === 'error' || m.type() === 'warning') && problems.push(`${m.type()}: ${m.text()}`));
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
        li.querySelector('.ranked-name')!.textContent!.trim(),
        Number(li.querySelector('.ranked-count')!.firstChild!.textContent!.replace(/\D/g, '')),
      ]),
    );
/** The chart's buckets as the table beside it lists them. */
const buckets = (page: Page) =>
  page
    .locator('.analytics-series tbody tr')
    .evaluateAll((rows) => rows.map((r) => [r.querySelector('th')!.textContent, Number(r.querySelector('td')!.textContent)]));
type Series = { x: string[]; y: number[] };
const apiBuckets = (series: Series) => series.x.map((d, i) => [bucketLabel(d), series.y[i]]);
/** The buckets uPlot has drawn (data-drawn, set by its draw hook). */
const drawn = (page: Page) => page.locator('.scan-chart').getAttribute('data-drawn');

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
      const gridSum = await page.locator('.heatmap tbody td').evaluateAll((cells) => cells.reduce((s, c) => s + Number(c.textContent), 0));
      expect(gridSum).toBe(5);
      await consoleScreenshot(page, 'analytics', { dark: true });

      // A new scan shows within a poll, no reload.
      await scan(table.slug, UA.linuxFirefox, ip.JP);
      await expect.poll(() => total(page, 'scans'), { timeout: 12_000, interval: 500 }).toBe('6');

      // A zone 14 hours ahead of UTC: the scans made now fall in other local hours and on another local day.
      await page.getByLabel('Time zone').selectOption('Pacific/Kiritimati');
      await expect.poll(() => new URL(page.url()).hash).toBe('#/analytics?tz=Pacific%2FKiritimati');
      const farHours = apiBuckets((await api('/analytics/activity?duration=7_days&timezone=Pacific/Kiritimati')).Hour);
      await expect.poll(() => buckets(page)).toEqual(farHours);
      const utcHours = apiBuckets((await api('/analytics/activity?duration=7_days&timezone=UTC')).Hour);
      expect(farHours.at(-1)![0]).not.toBe(utcHours.at(-1)![0]);

      // The export: the job's progress, then the file, with exactly the API's rows for the same days.
      await page.getByRole('button', { name: 'Export CSV' }).click();
      const downloadButton = page.getByRole('button', { name: /^Download / });
      await downloadButton.waitFor({ timeout: 20_000 });
      const [download] = await Promise.all([page.waitForEvent('download'), downloadButton.click()]);
      const file = await readFile((await download.path())!, 'utf8');
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

  it('has no serious accessibility finding at phone and desktop width, light and dark, and fits a phone', async () => {
    const visits = [
      { size: PHONE, hash: '/analytics', shot: 'analytics' },
      { size: PHONE, hash: `/analytics/${table.slug}`, shot: 'analytics-link' },
      { size: DESKTOP, hash: `/analytics/${menu.slug}`, shot: null },
    ];
    for (const { size, hash, shot } of visits) {
      const { context, page } = await open(hash, { size, bypassCSP: true });
      try {
        expect(await seriousViolationsByTheme(page), `${hash} at ${size.viewport.width}`).toEqual({ light: [], dark: [] });
        if (size === PHONE) expect(await overflowingElements(page, PHONE.viewport.width)).toEqual([]);
        if (shot) await consoleScreenshot(page, shot, { dark: true });
      } finally {
        await context.close();
      }
    }
  }, 40_000);
});
