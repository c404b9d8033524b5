/**
 * `link.scanned` in batches: scans recorded as the redirect records them (the real ScanRecorder,
 * its queue, two worker processes' worth of workers and dispatchers on their own connections) reach
 * a real receiver in deliveries of at most 100, each scan in exactly one delivery, never with an
 * address; a link's scan limit reached is told once; a cafe's menu import is told with what it made.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers, type RunningWorkers } from '#workers/index.js';
import { closeContext, createContext, type AppContext } from '#infra/context.js';
import { ScanRecorder } from '#infra/scans/recorder.js';
import { newScanId } from '#domain/scans/scan-id.js';
import { call, createLinkVia, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';
import { recordScan } from '../../support/record-scan.js';
import { until } from '../../support/until.js';
import { startReceiver, type TestReceiver } from '../../support/webhook-receiver.js';

let api: TestApi;
let second: AppContext;
const running: RunningWorkers[] = [];
let recorder: ScanRecorder;
let me: TestAccount;
const receivers: TestReceiver[] = [];

beforeAll(async () => {
  api = await startTestApi();
  // A second worker process's share: its own connections, workers and dispatcher.
  second = await createContext(api.ctx.config, 'worker');
  running.push(await startWorkers(api.ctx), await startWorkers(second));
  recorder = new ScanRecorder(
    { ...api.ctx.config, SCAN_SPOOL_DIR: await mkdtemp(join(tmpdir(), 'qrlinks-webhook-spool-')) },
    api.ctx.logger,
    api.ctx.database.pool,
  );
  await recorder.start();
  await until(() => recorder.stats().connected);
  me = await createTestAccount(api.ctx, { plan: 'enterprise' });
});
afterAll(async () => {
  await recorder?.close();
  await Promise.all(receivers.map((r) => r.close()));
  await Promise.all(running.map((w) => w.close()));
  if (second) await closeContext(second);
  await api?.close();
});

async function hooked(acct: TestAccount, events: string[], extra: Record<string, unknown> = {}) {
  const r = await startReceiver();
  receivers.push(r);
  const res = await call(api.app, acct.key, 'POST', '/api/v1/webhooks', { url: r.url, events, ...extra });
  expect(res.statusCode, res.body).toBe(201);
  r.secrets = [res.json().secret];
  return r;
}

/** Every scan here is of a printed code, with no placement, referrer or campaign. */
const QR_SCAN = Object.freeze({ source: 'qr', placementId: null, referrerHost: null, utmCampaign: null });

const VISITOR = Object.freeze({
  browserName: 'Safari',
  deviceType: 'mobile',
  deviceVendor: 'Apple',
  osName: 'iOS',
  countryName: 'Portugal',
  region: 'Lisbon',
  city: 'Lisbon',
  isBot: false,
});

function scansOf(link: { id: string }, acct: TestAccount, n: number, start = Date.now()) {
  return Array.from({ length: n }, (_, i) => ({
    id: newScanId(start + i),
    linkId: link.id,
    accountId: acct.accountId,
    at: start + i,
    visitor: VISITOR,
    // A visitor of its own each (22 characters, as the redirect's keys).
    visitorKey: randomBytes(16).toString('base64url'),
    origin: QR_SCAN,
  }));
}

/** The scans of every delivery the receiver accepted, one entry per webhook-id. */
function delivered(r: TestReceiver) {
  const byId = new Map<string, { count: number; scans: Array<Record<string, unknown>> }>();
  for (const got of r.received) {
    if (typeof got.answered !== 'number' || got.answered >= 300 || got.payload.type !== 'link.scanned') continue;
    byId.set(got.id, got.payload.data as { count: number; scans: Array<Record<string, unknown>> });
  }
  return [...byId.values()];
}

describe('link.scanned', () => {
  it('sends 5,000 scans in batches of at most 100, each exactly once, with two workers', async () => {
    const r = await hooked(me, ['link.scanned']);
    const link = await createLinkVia(api.app, me.key);
    const other = await createLinkVia(api.app, me.key);
    const scans = scansOf(link, me, 4_000);
    const more = scansOf(other, me, 1_000, Date.now() + 10_000);
    await Promise.all([...scans, ...more].map((s) => recordScan(recorder, s)));
    await until(() => delivered(r).reduce((n, d) => n + d.count, 0) >= 5_000, 60_000);
    const batches = delivered(r);
    const ids = batches.flatMap((b) => b.scans.map((s) => s.id as string));
    expect(ids).toHaveLength(5_000);
    expect(new Set(ids).size).toBe(5_000);
    expect(new Set(ids)).toEqual(new Set([...scans, ...more].map((s) => s.id)));
    for (const b of batches) {
      expect(b.scans.length).toBe(b.count);
      expect(b.count).toBeLessThanOrEqual(100);
    }
    // Full batches while they were full: at most one short batch per endpoint per time the queue ran dry.
    expect(batches.length).toBeLessThan(5_000 / 100 + 20);
    const sample = batches[0]!.scans[0]!;
    expect(Object.keys(sample).sort()).toEqual(
      ['at', 'bot', 'browser', 'city', 'country', 'device', 'id', 'link', 'os', 'source', 'placement', 'referrer', 'campaign'].sort(),
    );
    expect(sample).toMatchObject({ country: 'Portugal', city: 'Lisbon', device: 'mobile', os: 'iOS', browser: 'Safari', bot: false });
    expect(sample).toMatchObject({ source: 'qr', placement: null, referrer: null, campaign: null });
    expect([link.slug, other.slug]).toContain(sample.link);
    // Every request verified under the endpoint's secret.
    expect(r.received.every((x) => x.verifiedBy.length === 1)).toBe(true);
  });

  it('sends a partial batch once its oldest scan has waited WEBHOOK_SCAN_BATCH_MS, only for the links chosen', async () => {
    const acct = await createTestAccount(api.ctx);
    const chosen = await createLinkVia(api.app, acct.key);
    const skipped = await createLinkVia(api.app, acct.key);
    const r = await hooked(acct, ['link.scanned'], { link_ids: [chosen.slug] });
    await Promise.all([...scansOf(chosen, acct, 7), ...scansOf(skipped, acct, 5)].map((s) => recordScan(recorder, s)));
    await until(() => delivered(r).length === 1, 20_000);
    expect(delivered(r)[0]!.count).toBe(7);
    expect(new Set(delivered(r)[0]!.scans.map((s) => s.link))).toEqual(new Set([chosen.slug]));
  });

  it('tells once that a link reached its scan limit', async () => {
    const acct = await createTestAccount(api.ctx);
    const r = await hooked(acct, ['link.scan_limit_reached']);
    const link = await createLinkVia(api.app, acct.key, {
      name: 'Limited',
      type: 'website',
      data: { url: 'https://example.com/' },
      linkConfigurations: { scanLimitActive: true, scanLimit: 3 },
    });
    // Five visitors, one scan each, in two batches: the limit is crossed once.
    const first = scansOf(link, acct, 2);
    await Promise.all(first.map((s) => recordScan(recorder, s)));
    const second = scansOf(link, acct, 3, Date.now() + 5_000);
    await Promise.all(second.map((s) => recordScan(recorder, s)));
    await until(() => r.acceptedIds().length === 1, 20_000);
    expect(r.received[0]!.payload.data).toMatchObject({ id: link.slug, scan_limit: 3 });
    // Later scans do not tell again.
    await Promise.all(scansOf(link, acct, 2, Date.now() + 9_000).map((s) => recordScan(recorder, s)));
    const counted = async () =>
      (await api.ctx.database.pool.query<{ n: number }>('select scan_count::int as n from link_counters where link_id = $1', [link.id]))
        .rows[0]!.n;
    await until(async () => (await counted()) === 7, 20_000);
    expect(r.received).toHaveLength(1);
  });

  it('tells that a cafe’s menu was imported, with what it made', async () => {
    const acct = await createTestAccount(api.ctx);
    const r = await hooked(acct, ['cafe.menu_imported']);
    const cafe = await call(api.app, acct.key, 'POST', '/api/v1/cafes', { name: 'Aroma' });
    expect(cafe.statusCode, cafe.body).toBeLessThan(300);
    const cafeId = cafe.json().id ?? cafe.json().data?.id;
    const imported = await call(api.app, acct.key, 'POST', `/api/v1/cafes/${cafeId}/items/bulk-insert`, {
      items: [
        { category: 'Coffee', name: 'Espresso', price: 1.2, currency: 'EUR' },
        { category: 'Coffee', name: 'Galão', price: 1.8, currency: 'EUR' },
      ],
    });
    expect([200, 202], imported.body).toContain(imported.statusCode);
    await until(() => r.acceptedIds().length === 1, 20_000);
    expect(r.received[0]!.payload.data).toMatchObject({ cafe_id: cafeId, cafe_name: 'Aroma', items: 2, categories: 1 });
  });
});
