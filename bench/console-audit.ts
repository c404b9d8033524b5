/**
 * The console's screens audited by Lighthouse as a marketer (desktop preset: 1350×940, fast
 * network, no CPU slowdown) and a cafe owner on a phone (mobile defaults: Moto G Power screen,
 * simulated slow 4G, 4× CPU slowdown) open them, for an account with 10,000 links
 * (BENCH_LINKS), a tenth of them carrying a logo in their stored design: home, the links list,
 * a link's editor, the analytics dashboard and the cafes page. Baseline in the same run: the
 * sign-in screen, which loads the same shell and script but asks the api nothing.
 *
 * The key is put in the browser's own localStorage ("Remember on this device"), which Lighthouse
 * is told to keep (it clears storage by default). One page at a time, each audited RUNS times,
 * median performance score reported (Lighthouse's timings vary on a shared 2-core machine).
 */
import { createRequire } from 'node:module';
import { sql } from 'drizzle-orm';
import lighthouse, { type Config, type Flags, type Result } from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium } from 'playwright-core';
import sharp from 'sharp';
import { ensureConsoleBuilt } from '#console/build.js';
import { createDatabase } from '#infra/database.js';
import { createAccount } from '#domain/accounts/accounts.js';
import { createApiKey } from '#domain/accounts/api-keys.js';
import { withQrDefaults } from '#domain/qr/options.js';
import { CHROMIUM_PATH } from '../test/support/browser.js';
import { seedLinks } from './links-list.js';
import { freePort, freshDatabase, median, printTable, startBenchApi, stopProcess } from './support.js';

const LINKS = Number(process.env.BENCH_LINKS ?? 10_000);
const RUNS = Number(process.env.BENCH_AUDIT_RUNS ?? 3);
const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
const KEY_ITEM = 'qrlinks.apiKey';
/** Only the screens whose label contains one of these words (`BENCH_AUDIT_SCREENS=links,analytics`). */
const ONLY = process.env.BENCH_AUDIT_SCREENS?.split(',').filter(Boolean);

interface Screen {
  label: string;
  hash: string;
  /** Signed in, or the sign-in screen (the baseline). */
  signedIn: boolean;
}

type Preset = 'desktop' | 'mobile';

async function audit(url: string, port: number, preset: Preset): Promise<Result> {
  const flags: Flags = { port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES], disableStorageReset: true };
  const result = await lighthouse(url, flags, preset === 'desktop' ? desktopConfig : undefined);
  if (!result) throw new Error('Lighthouse answered nothing');
  if (result.lhr.runtimeError) throw new Error(`Lighthouse: ${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message}`);
  return result.lhr;
}

/** The script that kept the main thread busiest, with its scripting time (Lighthouse's bootup-time). */
function busiestScript(lhr: Result): string {
  const items = (lhr.audits['bootup-time']?.details as { items?: Array<{ url: string; scripting: number }> } | undefined)?.items ?? [];
  const top = [...items].sort((a, b) => b.scripting - a.scripting)[0];
  return top ? `${top.url.replace(/^https?:\/\/[^/]+/, '') || top.url} ${top.scripting.toFixed(0)} ms` : '—';
}

/** A small round logo as a data URL, as a design stores it. */
async function logoDataUrl(): Promise<string> {
  const png = await sharp(
    Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256"><circle cx="128" cy="128" r="120" fill="#8a4b2a"/><path d="M80 150h80a30 30 0 0 0 0-60H80z" fill="#fbf7f0"/></svg>',
    ),
  )
    .png()
    .toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}

export async function benchConsoleAudit(): Promise<string> {
  const started = performance.now();
  await ensureConsoleBuilt();
  const DATABASE_URL = await freshDatabase('console_audit');
  const database = createDatabase(DATABASE_URL, 2);
  const account = await createAccount(database.db, { name: 'Lisbon Coffee Co', plan: 'pro' });
  const { key } = await createApiKey(database.db, { accountId: account.id, scopes: ['all'], name: 'bench-console-audit' });
  await seedLinks(database, account.id, LINKS);
  // A tenth of the links carry a logo in their design, as branded codes do.
  const withLogo = JSON.stringify(withQrDefaults({ image: await logoDataUrl() }, 'http://localhost:3001/xxxxxxx'));
  await database.db.execute(sql`
    update links set qr_options = ${withLogo}::jsonb
    where account_id = ${account.id} and abs(('x' || substr(md5(id::text), 1, 8))::bit(32)::int) % 10 = 0`);
  await database.pool.query('vacuum analyze links');
  const { rows: first } = await database.pool.query<{ slug: string }>(
    'select slug from links where account_id = $1 order by created_at desc limit 1',
    [account.id],
  );
  const slug = first[0]!.slug;
  const api = await startBenchApi(DATABASE_URL);
  const port = await freePort();
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [`--remote-debugging-port=${port}`, '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-sync'],
  });
  // Lighthouse opens its tabs in the browser's default context; this second connection reaches
  // that context's storage, where the console looks for a remembered key.
  const cdp = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  const defaultContext = cdp.contexts()[0]!;
  const setKey = async (value: string | null) => {
    const page = await defaultContext.newPage();
    await page.goto(`${api.origin}/health`);
    await page.evaluate(({ item, v }) => (v === null ? localStorage.removeItem(item) : localStorage.setItem(item, v)), {
      item: KEY_ITEM,
      v: value,
    });
    await page.close();
  };
  const screens: Screen[] = [
    { label: 'sign-in (baseline)', hash: '/', signedIn: false },
    { label: 'home', hash: '/', signedIn: true },
    { label: `links (${LINKS.toLocaleString('en')})`, hash: '/links', signedIn: true },
    { label: 'link editor', hash: `/links/${slug}/edit`, signedIn: true },
    { label: 'analytics', hash: '/analytics', signedIn: true },
    { label: 'cafes', hash: '/cafes', signedIn: true },
  ];
  const chosen = ONLY ? screens.filter((screen) => ONLY.some((word) => screen.label.includes(word))) : screens;
  const rows: Array<Array<string | number>> = [];
  const indexes: number[] = [];
  try {
    for (const preset of ['desktop', 'mobile'] as const) {
      for (const screen of chosen) {
        await setKey(screen.signedIn ? key : null);
        const scores: Record<string, number[]> = Object.fromEntries(CATEGORIES.map((c) => [c, []]));
        const lcp: number[] = [];
        const tbt: number[] = [];
        let note = '';
        let busiest = '';
        for (let run = 0; run < RUNS; run++) {
          try {
            const lhr = await audit(`${api.origin}/#${screen.hash}`, port, preset);
            for (const c of CATEGORIES) scores[c]!.push(Math.round((lhr.categories[c]?.score ?? 0) * 100));
            lcp.push(lhr.audits['largest-contentful-paint']?.numericValue ?? NaN);
            tbt.push(lhr.audits['total-blocking-time']?.numericValue ?? NaN);
            indexes.push(lhr.environment.benchmarkIndex);
            busiest = busiestScript(lhr);
          } catch (error) {
            note = (error as Error).message.slice(0, 120);
          }
        }
        const mid = (values: number[]) => (values.length ? median(values).toFixed(0) : '—');
        rows.push([
          preset,
          screen.label,
          `${mid(scores.performance!)} (${scores.performance!.join(', ')})`,
          mid(scores.accessibility!),
          mid(scores['best-practices']!),
          mid(lcp),
          mid(tbt),
          busiest,
          note,
        ]);
        process.stderr.write(`console-audit: ${preset} ${screen.label} done at ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
      }
    }
  } finally {
    await cdp.close();
    await browser.close();
    await stopProcess(api.child);
    await database.close();
  }
  const version = (createRequire(import.meta.url)('lighthouse/package.json') as { version: string }).version;
  return printTable(
    `console audit: Lighthouse ${version}, desktop preset and mobile defaults, ${RUNS} runs per screen (median, runs in brackets), an account with ${LINKS.toLocaleString('en')} links (a tenth with a logo); benchmarkIndex ${indexes.length ? `${Math.min(...indexes)}–${Math.max(...indexes)}` : '—'}; ${((performance.now() - started) / 1000).toFixed(0)} s`,
    ['preset', 'screen', 'performance', 'a11y', 'best practices', 'LCP ms', 'TBT ms', 'busiest script (last run)', 'notes'],
    rows,
  );
}
