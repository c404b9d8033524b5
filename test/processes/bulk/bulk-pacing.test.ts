import { randomUUID } from 'node:crypto';
import type { Job } from 'bullmq';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '#platform/config/index.js';
import { BulkPacer } from '#domain/jobs/pacing.js';
import { createLogger } from '#platform/logger.js';
import { encodeScanBatch } from '#domain/scans/batch.js';
import { ScanTraffic } from '#domain/scans/traffic.js';
import type { ScanBatchPayload } from '#domain/scans/types.js';
import { scansProcessor } from '#workers/processors/scans.js';

describe('ScanTraffic: scans ingested over the last second', () => {
  it('sums the quarter-second buckets of the last second and forgets older ones', () => {
    let now = 1_000_000;
    const traffic = new ScanTraffic(() => now);
    expect(traffic.perSecond()).toBe(0);
    traffic.add(100);
    now += 600;
    traffic.add(50);
    expect(traffic.perSecond()).toBe(150);
    now += 500; // the first bucket is now more than a second old
    expect(traffic.perSecond()).toBe(50);
    traffic.add(7);
    expect(traffic.perSecond()).toBe(57);
    now += 5000;
    expect(traffic.perSecond()).toBe(0);
  });
});

describe('the scans processor meters scans when a batch arrives', () => {
  it('counts a batch before its write, which lingers for company', async () => {
    const config = loadConfig({ ...process.env, SCAN_INGEST_LINGER_MS: '300' });
    const pool = new pg.Pool({ connectionString: config.DATABASE_URL, max: 1 });
    try {
      const traffic = new ScanTraffic();
      const processScans = scansProcessor({ config, logger: createLogger({ LOG_LEVEL: 'silent' }, 'test'), database: { pool } }, traffic);
      const at = Date.now();
      const visitor = {
        browserName: null,
        deviceType: null,
        deviceVendor: null,
        osName: null,
        countryCode: null,
        countryName: null,
        region: null,
        city: null,
        isBot: false,
      };
      // Scans of a link that does not exist: the write drops them, after its linger.
      const linkId = randomUUID();
      const data = encodeScanBatch([1, 2, 3].map(() => ({ id: randomUUID(), linkId, accountId: randomUUID(), at, ...visitor })));
      let written = false;
      const done = Promise.resolve(processScans({ id: 'metered', data } as Job<ScanBatchPayload>, undefined)).then(() => (written = true));
      expect(traffic.perSecond()).toBe(3);
      expect(written).toBe(false);
      await done;
    } finally {
      await pool.end();
    }
  });
});

/** Keeps the thread busy for `ms`: a unit of bulk work. */
function work(ms: number) {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // busy
  }
}

describe('BulkPacer: bulk work keeps a share of the time while scans arrive', () => {
  const busyTraffic = () => {
    const traffic = new ScanTraffic();
    traffic.add(1000);
    return traffic;
  };

  it('at or above the rate it sleeps so the unit just done was its share of the time', async () => {
    const pacer = new BulkPacer(busyTraffic(), { scansPerSecond: 1000, share: 0.25 });
    expect(pacer.pacing).toBe(true);
    work(40);
    const before = performance.now();
    await pacer.betweenUnits();
    // 40 ms of work at a 25% share: 120 ms of pause.
    expect(performance.now() - before).toBeGreaterThanOrEqual(115);
    expect(pacer.pausedMs).toBeGreaterThanOrEqual(115);
  });

  it('below the rate, with the rate at 0, or with a share of 100% it does not pause', async () => {
    const quiet = new ScanTraffic();
    quiet.add(999);
    for (const pacer of [
      new BulkPacer(quiet, { scansPerSecond: 1000, share: 0.25 }),
      new BulkPacer(busyTraffic(), { scansPerSecond: 0, share: 0.25 }),
      new BulkPacer(busyTraffic(), { scansPerSecond: 1000, share: 1 }),
    ]) {
      expect(pacer.pacing).toBe(false);
      work(40);
      await pacer.betweenUnits();
      expect(pacer.pausedMs).toBe(0);
    }
  });
});
