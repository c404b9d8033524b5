/**
 * The console's analytics dashboard in headless Chromium on the analytics benchmark's account of
 * 5,000,000 scans (bench/analytics.ts: its kept seed, or seeded now through the real ingestion):
 * from navigation start until every chart is drawn (target < 1 s). "Drawn" is the scans chart's
 * `data-drawn` attribute, set by uPlot's draw hook once its buckets are on the canvas; the totals,
 * the weekday-hour grid and the ranked panels render in the same commit just before it, so by then
 * the whole dashboard is on screen. Baseline in the same run: the same dashboard for an account
 * with no scans, which costs the same HTML, JavaScript and ten API calls over empty data.
 */
import { eq, inArray } from 'drizzle-orm';
import { ensureConsoleBuilt } from '#console/build.js';
import { createDatabase } from '#infra/database.js';
import { accounts, apiKeys } from '#domain/schema.js';
import { createAccount } from '#domain/accounts/accounts.js';
import { createApiKey } from '#domain/accounts/api-keys.js';
import { launchChromium } from '../test/support/browser.js';
import { analyticsSeed } from './analytics.js';
import { SAMPLES, timesToSelector } from './console-links.js';
import { median, printTable, startBenchApi, stopProcess } from './support.js';

const DRAWN = '.scan-chart[data-drawn]:not([data-drawn="0"])';
const TARGET_MS = 1000;

export async function benchConsoleAnalytics(): Promise<string> {
  await ensureConsoleBuilt();
  const { url, seeded, kept } = await analyticsSeed();
  const database = createDatabase(url, 2);
  const empty = await createAccount(database.db, { name: 'bench-console-analytics-empty', plan: 'business' });
  const fullKey = await createApiKey(database.db, { accountId: seeded.accountId, scopes: ['all'], name: 'bench-console-analytics' });
  const emptyKey = await createApiKey(database.db, { accountId: empty.id, scopes: ['all'], name: 'bench-console-analytics' });
  let api: Awaited<ReturnType<typeof startBenchApi>> | undefined;
  let browser: Awaited<ReturnType<typeof launchChromium>> | undefined;
  try {
    api = await startBenchApi(url);
    browser = await launchChromium();
    const [origin, chromium] = [api.origin, browser];
    const rows: Array<Array<string | number>> = [];
    const measure = async (label: string, key: string, hash: string, timezoneId = 'UTC') => {
      const times = await timesToSelector(chromium, key, `${origin}/#${hash}`, DRAWN, { timezoneId, inPage: true });
      const mid = median(times);
      rows.push([label, hash, timezoneId, mid.toFixed(0), Math.max(...times).toFixed(0), mid < TARGET_MS ? 'yes' : 'no']);
    };
    await measure('no scans (baseline)', emptyKey.key, '/analytics');
    const account = `${(5_000_000).toLocaleString('en')} scans`;
    await measure(`${account}: default view (last 7 days, per hour)`, fullKey.key, '/analytics');
    await measure(`${account}: last 48 hours (per hour)`, fullKey.key, '/analytics?duration=48_hours');
    await measure(`${account}: last 30 days (per day)`, fullKey.key, '/analytics?duration=30_days');
    await measure(`${account}: last year (per day)`, fullKey.key, '/analytics?duration=1_year');
    // A :30 zone: the hours come from raw scans (a week of them), not the rollups.
    await measure(
      `${account}: last 7 days in Asia/Kolkata (per hour, a half hour of raw scans per hour)`,
      fullKey.key,
      '/analytics',
      'Asia/Kolkata',
    );
    await measure(`hottest link: last 7 days (per hour)`, fullKey.key, `/analytics/${seeded.hotSlug}`);
    const seededNote = kept ? `reused seed of ${seeded.seededAt.toISOString()}` : `seeded now in ${seeded.seedSeconds.toFixed(0)} s`;
    return printTable(
      `console analytics dashboard: navigation start to every chart drawn, headless Chromium (1440×900), median and max of ${SAMPLES} after a warm-up (${seededNote})`,
      ['dashboard', 'route', 'browser zone', 'median ms', 'max ms', `< ${TARGET_MS} ms`],
      rows,
    );
  } finally {
    // The kept database keeps none of this run's keys or accounts, whatever failed.
    await browser?.close();
    if (api) await stopProcess(api.child);
    await database.db.delete(apiKeys).where(inArray(apiKeys.id, [fullKey.id, emptyKey.id]));
    await database.db.delete(accounts).where(eq(accounts.id, empty.id));
    await database.close();
  }
}
