/**
 * Time to interactive of the console's links page in headless Chromium, for an account with
 * 10,000 links (BENCH_LINKS): from navigation start to the first page of rows in the list (the
 * moment its controls work), for the default view, a far page, a search and a sort. Baseline in
 * the same run: the same page for an account with no links ("No links yet"), which costs the
 * same HTML, JavaScript and /me call but an empty list.
 */
import { eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { ensureConsoleBuilt } from '#console/build.js';
import { createDatabase } from '#infra/database.js';
import { accounts } from '#domain/schema.js';
import { createAccount } from '#domain/accounts/accounts.js';
import { createApiKey } from '#domain/accounts/api-keys.js';
import { launchChromium } from '../test/support/browser.js';
import { seedLinks } from './links-list.js';
import { freshDatabase, median, printTable, startBenchApi, stopProcess } from './support.js';

const LINKS = Number(process.env.BENCH_LINKS ?? 10_000);
export const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 9);
const DESKTOP = { viewport: { width: 1440, height: 900 } };

/**
 * Milliseconds from navigation start until `ready` (a CSS selector) is in the page, SAMPLES times
 * after one warm-up, each in a new context with the key in the tab. `timezoneId`: the browser's
 * zone. `inPage`: the time is taken in the page by a MutationObserver at the change that made the
 * selector match, not when the bench's poll sees it (which adds a round trip to the browser).
 */
export async function timesToSelector(
  browser: Browser,
  key: string,
  url: string,
  ready: string,
  options: { timezoneId?: string; inPage?: boolean } = {},
): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < SAMPLES + 1; i++) {
    const context = await browser.newContext({ ...DESKTOP, ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}) });
    await context.addInitScript((k) => sessionStorage.setItem('qrlinks.apiKey', k), key);
    if (options.inPage) {
      await context.addInitScript((selector) => {
        const seen: Window & { readyAt?: number } = window;
        const check = () => seen.readyAt ?? (document.querySelector(selector) && (seen.readyAt = performance.now()));
        new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
      }, ready);
    }
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForSelector(ready, { timeout: 30_000 });
    const ms = await page.evaluate(() => (window as Window & { readyAt?: number }).readyAt ?? performance.now());
    if (i > 0) times.push(ms);
    await context.close();
  }
  return times;
}

/** The median of timesToSelector. */
const timeToInteractive = async (browser: Browser, key: string, url: string, ready: string) =>
  median(await timesToSelector(browser, key, url, ready));

export async function benchConsoleLinks(): Promise<string> {
  await ensureConsoleBuilt();
  const DATABASE_URL = await freshDatabase('console_links');
  const database = createDatabase(DATABASE_URL, 2);
  const full = await createAccount(database.db, { name: 'bench-console-full', plan: 'pro' });
  const empty = await createAccount(database.db, { name: 'bench-console-empty', plan: 'pro' });
  const fullKey = (await createApiKey(database.db, { accountId: full.id, scopes: ['all'] })).key;
  const emptyKey = (await createApiKey(database.db, { accountId: empty.id, scopes: ['all'] })).key;
  await seedLinks(database, full.id, LINKS);
  await database.pool.query('vacuum analyze links');
  const api = await startBenchApi(DATABASE_URL);
  const browser = await launchChromium();
  const nthRow = (n: number) => `.link-list .link-row:nth-child(${n})`;
  try {
    const results: Array<Array<string | number>> = [
      [
        'no links: "No links yet" (baseline)',
        (await timeToInteractive(browser, emptyKey, `${api.origin}/#/links`, '.empty h2')).toFixed(0),
      ],
    ];
    // Each view with the row whose presence means the page of rows is shown.
    for (const [label, query, lastRow] of [
      ['default view (newest first, page 1)', '', 20],
      [`page ${LINKS / 20} (the last)`, `?page=${LINKS / 20}`, 20],
      ['search "menu 1"', '?search=menu+1', 20],
      ['sort by most scanned', '?sort=most_visited', 20],
      ['100 per page', '?size=100', 100],
    ] as const) {
      results.push([
        `${LINKS.toLocaleString('en')} links: ${label}`,
        (await timeToInteractive(browser, fullKey, `${api.origin}/#/links${query}`, nthRow(lastRow))).toFixed(0),
      ]);
    }
    return printTable(
      `console links page: time to interactive in headless Chromium (1440×900), median of ${SAMPLES}`,
      ['page', 'ms from navigation start'],
      results,
    );
  } finally {
    await browser.close();
    await stopProcess(api.child);
    await database.db.delete(accounts).where(eq(accounts.id, full.id));
    await database.db.delete(accounts).where(eq(accounts.id, empty.id));
    await database.close();
  }
}
