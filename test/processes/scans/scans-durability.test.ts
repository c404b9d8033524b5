/**
 * No scan is lost or counted twice when the worker side fails mid-ingestion, with the real
 * worker entry (workers/server.ts) as a child process:
 *   - kill -9 of the worker while it writes 50,000 queued scans: a new worker takes over the dead
 *     one's batches once their (short) locks expire;
 *   - Postgres unreachable for a few seconds (a TCP proxy resets every connection): the batches
 *     are retried with backoff until it is back.
 * Either way every scan ends up in Postgres exactly once, with the link counters to match.
 */
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '#infra/database.js';
import type { DatabaseHandle } from '#domain/database.js';
import { createAccount } from '#domain/accounts/accounts.js';
import { SCAN_JOB_OPTIONS } from '#infra/scans/scan-jobs.js';
import { decodeScanBatch, encodeScanBatch } from '#domain/scans/batch.js';
import type { ScanBatchPayload, ScanEvent } from '#domain/scans/types.js';
import { startEntry, stopProcess } from '../../support/processes.js';
import { startTcpProxy } from '../../support/tcp-proxy.js';

const BATCH_SIZE = 1000;
const PREFIX = `qrlinks-test-durability-${randomUUID().slice(0, 8)}`;
// Statements of 10,000 scans, so a run of 40,000-50,000 is written in several and a kill lands mid-way.
const WORKER_ENV = { REDIS_NAMESPACE: PREFIX, SCAN_WORKER_LOCK_MS: '1000', MIGRATE_ON_START: 'false', SCAN_INGEST_MAX_SCANS: '10000' };

let database: DatabaseHandle;
let connection: Redis;
let queue: Queue<ScanBatchPayload>;

beforeAll(() => {
  database = createDatabase(process.env.DATABASE_URL!, 2);
  connection = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
  queue = new Queue<ScanBatchPayload>('scans', { connection, prefix: PREFIX });
});
afterAll(async () => {
  await queue.obliterate({ force: true });
  await queue.close();
  await connection.quit();
  await database.close();
});

async function count(sql: string, accountId: string): Promise<number> {
  const { rows } = await database.pool.query<{ n: number }>(sql, [accountId]);
  return rows[0]!.n;
}

/** An account with 100 links and `batches` queued jobs of scans over them (every 7th a bot). */
async function queueScans(batches: number) {
  const accountId = (await createAccount(database.db, { name: 'scan-durability', plan: 'pro' })).id;
  const { rows: links } = await database.pool.query<{ id: string }>(
    `insert into links (account_id, slug, name, type, meta_data, qr_options)
     select $1, 'd' || substr(md5(random()::text), 1, 12), 'Link ' || g, 'website', '{}', '{}' from generate_series(1, 100) g returning id`,
    [accountId],
  );
  const jobs = Array.from({ length: batches }, (_, b) => {
    const scans = Array.from({ length: BATCH_SIZE }, (_, i): ScanEvent => ({
      id: randomUUID(),
      linkId: links[(b * BATCH_SIZE + i) % links.length]!.id,
      accountId,
      at: Date.now() - i,
      browserName: 'Chrome',
      deviceType: 'mobile',
      deviceVendor: 'Samsung',
      osName: 'Android',
      countryName: 'Brazil',
      region: 'São Paulo',
      city: 'São Paulo',
      isBot: (b + i) % 7 === 0,
    }));
    return { name: 'scans', data: encodeScanBatch(scans), opts: { ...SCAN_JOB_OPTIONS, jobId: randomUUID() } };
  });
  await queue.addBulk(jobs);
  const humans = jobs.flatMap((j) => decodeScanBatch(j.data)).filter((s) => !s.isBot).length;
  return {
    accountId,
    total: batches * BATCH_SIZE,
    humans,
    scanRows: () => count('select count(*)::int as n from scans where account_id = $1', accountId),
  };
}

/** Polls (every 10 ms) until the account has some scans but not all of them yet. */
async function untilMidway(scanRows: () => Promise<number>, total: number): Promise<number> {
  let rows = 0;
  while (rows === 0) {
    await new Promise((r) => setTimeout(r, 10));
    rows = await scanRows();
  }
  expect(rows).toBeLessThan(total);
  return rows;
}

async function untilQueueDrained(): Promise<void> {
  const end = Date.now() + 90_000;
  for (;;) {
    const { waiting, active, delayed, failed } = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed');
    expect(failed).toBe(0);
    if (!waiting && !active && !delayed) return;
    if (Date.now() > end) throw new Error(`queue not drained: ${waiting} waiting, ${active} active, ${delayed} delayed`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function expectExactlyOnce({ accountId, total, humans }: { accountId: string; total: number; humans: number }) {
  expect(await count('select count(*)::int as n from scans where account_id = $1', accountId)).toBe(total);
  expect(await count('select sum(scan_count)::int as n from link_counters where account_id = $1', accountId)).toBe(total);
  expect(await count('select sum(human_scan_count)::int as n from link_counters where account_id = $1', accountId)).toBe(humans);
}

describe('scan ingestion survives failures of the worker side', () => {
  it('kill -9 of the worker mid-way: every scan lands exactly once', { timeout: 120_000 }, async () => {
    const run = await queueScans(50);
    const first = startEntry('workers/server.ts', [], WORKER_ENV);
    await untilMidway(run.scanRows, run.total);
    await stopProcess(first, 'SIGKILL');
    // The dead worker's batches are still "active", under locks nobody renews.
    expect(await queue.getActiveCount()).toBeGreaterThan(0);

    const second = startEntry('workers/server.ts', [], WORKER_ENV);
    try {
      await untilQueueDrained();
    } finally {
      await stopProcess(second, 'SIGTERM');
    }
    await expectExactlyOnce(run);
  });

  it('Postgres unreachable for 3 s mid-way: the batches wait and then land exactly once', { timeout: 120_000 }, async () => {
    const target = new URL(process.env.DATABASE_URL!);
    const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    const run = await queueScans(40);
    const worker = startEntry('workers/server.ts', [], { ...WORKER_ENV, DATABASE_URL: proxy.url(process.env.DATABASE_URL!) });
    try {
      await untilMidway(run.scanRows, run.total);
      proxy.cut();
      await new Promise((r) => setTimeout(r, 3000));
      // Retrying, not given up: nothing failed for good while Postgres was away.
      expect(await queue.getJobCounts('failed')).toEqual({ failed: 0 });
      expect(await run.scanRows()).toBeLessThan(run.total);
      proxy.restore();
      await untilQueueDrained();
    } finally {
      await stopProcess(worker, 'SIGTERM');
      await proxy.close();
    }
    await expectExactlyOnce(run);
  });
});
