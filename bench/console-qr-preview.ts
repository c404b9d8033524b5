/**
 * How fast the console's QR designer preview follows a change, in headless Chromium: from the
 * control's input event until the preview shows the new picture, decoded (test/support/qr-preview.ts),
 * over alternating dot style and dot colour changes. Baseline in the same run: the renderer
 * alone, in Node, drawing the same design's SVG (the work the page repeats on each change).
 */
import { eq } from 'drizzle-orm';
import { performance } from 'node:perf_hooks';
import { ensureConsoleBuilt } from '#console/build.js';
import { createDatabase } from '#infra/database.js';
import { accounts } from '#domain/schema.js';
import { createAccount } from '#domain/accounts/accounts.js';
import { createApiKey } from '#domain/accounts/api-keys.js';
import { withQrDefaults } from '#domain/qr/options.js';
import { renderSvg } from '#domain/qr/render/index.js';
import { launchChromium } from '../test/support/browser.js';
import { previewTimes } from '../test/support/qr-preview.js';
import { freshDatabase, median, printTable, startBenchApi, stopProcess } from './support.js';

const ROUNDS = Number(process.env.BENCH_SAMPLES ?? 50);
const ms = (v: number) => v.toFixed(1);
const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.95)]!;

export async function benchConsoleQrPreview(): Promise<string> {
  await ensureConsoleBuilt();
  const DATABASE_URL = await freshDatabase('console_qr');
  const database = createDatabase(DATABASE_URL, 2);
  const account = await createAccount(database.db, { name: 'bench-console-qr', plan: 'pro' });
  const key = (await createApiKey(database.db, { accountId: account.id, scopes: ['all'] })).key;
  const api = await startBenchApi(DATABASE_URL);
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addInitScript((k) => sessionStorage.setItem('qrlinks.apiKey', k), key);
    const page = await context.newPage();
    await page.goto(`${api.origin}/#/templates/new`);
    await page.getByTestId('qr-preview').waitFor();
    await previewTimes(page, 3); // warm-up
    const inPage = await previewTimes(page, ROUNDS);
    await context.close();

    const data = `${api.origin}/Preview`;
    const alone: number[] = [];
    for (let i = 0; i < ROUNDS * 2; i++) {
      const opts = withQrDefaults({ dotsOptions: { type: i % 2 ? 'dots' : 'rounded', color: i % 2 ? '#1d4ed8' : '#0b3d2e' } }, data);
      const start = performance.now();
      renderSvg(opts);
      alone.push(performance.now() - start);
    }
    return printTable(
      `console QR preview: a change until the new picture is shown, ${ROUNDS * 2} changes`,
      ['what', 'median ms', 'p95 ms', 'max ms'],
      [
        ['baseline: the renderer alone in Node (renderSvg, same designs)', ms(median(alone)), ms(p95(alone)), ms(Math.max(...alone))],
        ['headless Chromium (1440×900): input event → preview decoded', ms(median(inPage)), ms(p95(inPage)), ms(Math.max(...inPage))],
      ],
    );
  } finally {
    await browser.close();
    await stopProcess(api.child);
    await database.db.delete(accounts).where(eq(accounts.id, account.id));
    await database.close();
  }
}
