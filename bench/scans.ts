/**
 * Scan ingestion (target: > 20,000 scans/s into Postgres by one worker): 200,000 scans of a
 * 1200-link account (BENCH_SCAN_LINKS links instead, if set), in jobs of 1000 (the recorder's batch under load), taken from the real
 * `scans` queue by one real worker process (workers/server.ts), counters included. Baseline in
 * the same run: the same rows as plain multi-row INSERTs of 1000 on one connection, with no
 * queue, no idempotency and no counters: the cost of writing these rows at all.
 *
 * And what describing a visitor costs the redirect hot path: the geo database's load, and
 * microseconds per call for user agents (parsed and cached) and addresses (IPv4, IPv6, private),
 * and for the scan's visitor key (against HMAC-SHA256, the construction it stands in for).
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type pg from 'pg';
import { createDatabase } from '#infra/database.js';
import { createAccount } from '#domain/accounts/accounts.js';
import { encodeScanBatch } from '#domain/scans/batch.js';
import { loadGeo } from '#domain/scans/geo.js';
import { SCAN_JOB_OPTIONS } from '#infra/scans/scan-jobs.js';
import { newScanId } from '#domain/scans/scan-id.js';
import type { ScanEvent } from '#domain/scans/types.js';
import { createVisitorDescriber } from '#domain/scans/visitor.js';
import { VisitorKeys, visitorKey, visitorKeyHmac } from '#domain/scans/visitor-key.js';
import { createLogger } from '#platform/logger.js';
import { createFailFastRedis } from '#platform/redis/client.js';
import { freshDatabase, printTable, startWorker } from './support.js';

const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SCANS = Number(process.env.BENCH_SCANS ?? 200_000);
/** BENCH_SCAN_LINKS: how many links the scans spread over (the sizing bench reads it too). */
const LINKS = Number(process.env.BENCH_SCAN_LINKS ?? 1200);
const BATCH = 1000;
const CONCURRENCIES = [1, 8, 64];
const PREFIX = 'qrlinks-bench-scans';
const TARGET = 20_000;

const VISITORS: Array<Omit<ScanEvent, 'id' | 'linkId' | 'accountId' | 'at'>> = [
  {
    browserName: 'Mobile Safari',
    deviceType: 'mobile',
    deviceVendor: 'Apple',
    osName: 'iOS',
    countryName: 'United States',
    region: 'California',
    city: 'San Francisco',
    isBot: false,
  },
  {
    browserName: 'Chrome',
    deviceType: 'mobile',
    deviceVendor: 'Samsung',
    osName: 'Android',
    countryName: 'Germany',
    region: 'Bavaria',
    city: 'Munich',
    isBot: false,
  },
  {
    browserName: 'Chrome',
    deviceType: 'desktop',
    deviceVendor: null,
    osName: 'Windows',
    countryName: 'India',
    region: 'Maharashtra',
    city: 'Mumbai',
    isBot: false,
  },
  {
    browserName: 'Safari',
    deviceType: 'desktop',
    deviceVendor: 'Apple',
    osName: 'Mac OS',
    countryName: 'France',
    region: 'Île-de-France',
    city: 'Paris',
    isBot: false,
  },
  {
    browserName: null,
    deviceType: null,
    deviceVendor: null,
    osName: null,
    countryName: 'United States',
    region: 'Virginia',
    city: 'Ashburn',
    isBot: true,
  },
];

/** `count` scans (default BENCH_SCANS) spread uniformly over the links, from a few kinds of visitors. */
export function makeScans(accountId: string, linkIds: string[], count = SCANS): ScanEvent[] {
  const now = Date.now();
  return Array.from({ length: count }, (_, i) => ({
    id: newScanId(),
    // Uniform over the account's links: a batch touches ~680 of the 1200, each a counter update.
    linkId: linkIds[Math.floor(Math.random() * linkIds.length)]!,
    accountId,
    at: now - (count - i) * 3,
    ...VISITORS[i % VISITORS.length]!,
    // One of 100,000 visitors: most scans bring a key new for the day (a row per link and account).
    visitorKey: `v${Math.floor(Math.random() * 100_000)}`,
  }));
}

export function batches(scans: ScanEvent[]): ScanEvent[][] {
  const out: ScanEvent[][] = [];
  for (let i = 0; i < scans.length; i += BATCH) out.push(scans.slice(i, i + BATCH));
  return out;
}

const COLUMNS = [
  'id',
  'link_id',
  'account_id',
  'created_at',
  'browser_name',
  'device_type',
  'device_vendor',
  'os_name',
  'country_name',
  'region',
  'city',
  'is_bot',
];

/** The baseline: `insert into scans values (...), (...)` 1000 rows at a time, one connection. */
async function plainInserts(pool: pg.Pool, scans: ScanEvent[]): Promise<number> {
  const start = performance.now();
  for (const batch of batches(scans)) {
    const values: unknown[] = [];
    const rows = batch.map((s, r) => {
      values.push(
        s.id,
        s.linkId,
        s.accountId,
        new Date(s.at),
        s.browserName,
        s.deviceType,
        s.deviceVendor,
        s.osName,
        s.countryName,
        s.region,
        s.city,
        s.isBot,
      );
      return `(${COLUMNS.map((_, c) => `$${r * COLUMNS.length + c + 1}`).join(',')})`;
    });
    await pool.query(`insert into scans (${COLUMNS.join(',')}) values ${rows.join(',')}`, values);
  }
  return performance.now() - start;
}

/** Enqueues every batch into the paused queue, starts a worker, starts the clock with resume(), waits until the queue is empty. */
async function workerRun(databaseUrl: string, queue: Queue, scans: ScanEvent[], concurrency: number): Promise<number> {
  await queue.pause();
  const jobs = batches(scans).map((batch) => ({
    name: 'scans',
    data: encodeScanBatch(batch),
    opts: { ...SCAN_JOB_OPTIONS, jobId: randomUUID() },
  }));
  for (let i = 0; i < jobs.length; i += 50) await queue.addBulk(jobs.slice(i, i + 50));
  const worker = await startWorker({
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    REDIS_NAMESPACE: PREFIX,
    MIGRATE_ON_START: 'false',
    SCAN_WORKER_CONCURRENCY: String(concurrency),
  });
  try {
    const start = performance.now();
    await queue.resume();
    await untilQueueEmpty(queue);
    return performance.now() - start;
  } finally {
    worker.kill('SIGTERM');
    await once(worker, 'exit');
  }
}

/**
 * Resolves when `queue` has nothing waiting, active or delayed; rejects when a job failed. Asking
 * Redis, not Postgres, whether the queue is done keeps the poll off the measured database.
 */
export async function untilQueueEmpty(queue: Queue): Promise<void> {
  for (;;) {
    const { waiting, active, delayed, failed } = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed');
    if (failed) throw new Error(`${failed} scan jobs failed`);
    if (!waiting && !active && !delayed) return;
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The account's LINKS website links, made in one statement; their ids. */
export async function seedLinks(pool: pg.Pool, accountId: string): Promise<string[]> {
  const { rows } = await pool.query<{ id: string }>(
    `insert into links (account_id, slug, name, type, meta_data, qr_options)
     select $1, 's' || substr(md5(random()::text || g), 1, 12), 'Table ' || g, 'website', '{"url":"https://example.com"}', '{}'
     from generate_series(1, ${LINKS}) g returning id`,
    [accountId],
  );
  return rows.map((l) => l.id);
}

async function reset(pool: pg.Pool, accountId: string) {
  await pool.query('delete from scans where account_id = $1', [accountId]);
  await pool.query('update link_counters set scan_count = 0, human_scan_count = 0, last_scanned_at = null where account_id = $1', [
    accountId,
  ]);
  await pool.query('vacuum analyze scans, link_counters');
}

export async function benchScans(): Promise<string> {
  // The visitor table first, while the process is fresh: its RSS figure is then the database's own.
  const visitor = await benchVisitor();
  return `${visitor}\n\n${await benchIngestion()}`;
}

async function benchIngestion(): Promise<string> {
  const DATABASE_URL = await freshDatabase('scans');
  const database = createDatabase(DATABASE_URL, 2);
  const { pool } = database;
  const account = await createAccount(database.db, { name: 'bench-scans', plan: 'pro' });
  const linkIds = await seedLinks(pool, account.id);
  const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const queue = new Queue('scans', { connection, prefix: PREFIX });
  await queue.obliterate({ force: true });
  try {
    await reset(pool, account.id);
    const baselineMs = await plainInserts(pool, makeScans(account.id, linkIds));
    const baseline = SCANS / (baselineMs / 1000);
    const rows: Array<Array<string | number>> = [
      [
        'plain multi-row INSERT, 1 connection, no counters (baseline)',
        Math.round(baseline),
        ((baselineMs / SCANS) * BATCH).toFixed(1),
        '1.00',
        '—',
      ],
    ];
    for (const concurrency of CONCURRENCIES) {
      await reset(pool, account.id);
      const ms = await workerRun(DATABASE_URL, queue, makeScans(account.id, linkIds), concurrency);
      const { rows: check } = await pool.query<{ n: number }>('select count(*)::int as n from scans where account_id = $1', [account.id]);
      if (check[0]!.n !== SCANS) throw new Error(`expected ${SCANS} scans, found ${check[0]!.n}`);
      const rate = SCANS / (ms / 1000);
      rows.push([
        `qrlinks worker (queue, group commit, counters), SCAN_WORKER_CONCURRENCY=${concurrency}${concurrency === 64 ? ' (default)' : ''}`,
        Math.round(rate),
        ((ms / SCANS) * BATCH).toFixed(1),
        (rate / baseline).toFixed(2),
        rate > TARGET ? 'yes' : 'NO',
      ]);
    }
    return printTable(
      `scans: ${SCANS.toLocaleString('en')} scans over ${LINKS} links in jobs of ${BATCH}, one worker process`,
      ['writer', 'scans/s', `ms per ${BATCH}`, '× baseline', `> ${TARGET.toLocaleString('en')}/s`],
      rows,
    );
  } finally {
    await queue.obliterate({ force: true });
    await queue.close();
    await connection.quit();
    await pool.query('delete from scans where account_id = $1', [account.id]);
    await pool.query('delete from accounts where id = $1', [account.id]);
    await database.close();
  }
}

const SAMPLE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

/** Microseconds per call of `fn(i)` over `calls` calls, after a warm-up. */
function microseconds(calls: number, fn: (i: number) => unknown): number {
  for (let i = 0; i < 20_000; i++) fn(i);
  const start = performance.now();
  for (let i = 0; i < calls; i++) fn(i);
  return ((performance.now() - start) * 1000) / calls;
}

export async function benchVisitor(): Promise<string> {
  const rssBefore = process.memoryUsage().rss;
  const loadStart = performance.now();
  const geo = await loadGeo();
  const loadMs = performance.now() - loadStart;
  const rssMb = (process.memoryUsage().rss - rssBefore) / 1e6;
  // The describer shares the database just loaded (one per process).
  const describe = await createVisitorDescriber();
  // Addresses spread over the public IPv4 space and over a few IPv6 networks.
  const ipv4 = Array.from({ length: 10_000 }, (_, i) => `${1 + ((i * 7) % 220)}.${(i * 13) % 256}.${(i * 31) % 256}.${i % 256}`);
  const ipv6 = Array.from({ length: 4000 }, (_, i) => `2a00:1450:4001:${i.toString(16)}::200e`);
  const agents = Array.from({ length: 1000 }, (_, i) => `${SAMPLE_UA} app/${i}`);
  // The salt of today from Redis, as a redirect process holds it.
  const redis = createFailFastRedis(REDIS_URL);
  const keys = new VisitorKeys({ redis, prefix: PREFIX, logger: createLogger({ LOG_LEVEL: 'silent' }, 'bench') });
  await keys.start();
  const salt = keys.saltFor(Math.floor(Date.now() / 86_400_000))!;
  const at = Date.now();
  const rows: Array<[string, number]> = [
    [
      'user agent never seen (ua-parser-js + isbot), private address',
      microseconds(50_000, (i) => describe(`${SAMPLE_UA} n/${i}`, '10.0.0.1')),
    ],
    ['user agent cached (1000 distinct), private address', microseconds(500_000, (i) => describe(agents[i % agents.length], '10.0.0.1'))],
    ['geo: IPv4 look-up (10,000 distinct addresses)', microseconds(500_000, (i) => geo.lookup(ipv4[i % ipv4.length]!))],
    ['geo: IPv6 look-up (4000 distinct addresses)', microseconds(500_000, (i) => geo.lookup(ipv6[i % ipv6.length]!))],
    ['geo: private address (skipped)', microseconds(500_000, () => geo.lookup('192.168.1.20'))],
    [
      'describeVisitor: cached user agent + public IPv4 (the common scan)',
      microseconds(500_000, (i) => describe(agents[i % agents.length], ipv4[i % ipv4.length])),
    ],
    [
      'visitor key: keyOf, public IPv4 + user agent (SHA-256 of salt ‖ address ‖ agent, one crypto.hash)',
      microseconds(500_000, (i) => keys.keyOf(ipv4[i % ipv4.length]!, agents[i % agents.length], at)),
    ],
    [
      'visitor key: the same with an IPv6 address',
      microseconds(500_000, (i) => keys.keyOf(ipv6[i % ipv6.length]!, agents[i % agents.length], at)),
    ],
    [
      'visitor key as HMAC-SHA256 (createHmac), for comparison (not used)',
      microseconds(500_000, (i) => visitorKeyHmac(salt, ipv4[i % ipv4.length]!, agents[i % agents.length])),
    ],
    [
      'visitor key: the hash alone (salt in hand)',
      microseconds(500_000, (i) => visitorKey(salt, ipv4[i % ipv4.length]!, agents[i % agents.length])),
    ],
  ];
  keys.stop();
  await redis.del(...(await redis.keys(`${PREFIX}:visitor-salt:*`)));
  redis.disconnect();
  return printTable(
    `visitor description on one core (DB-IP Lite city loaded in ${loadMs.toFixed(0)} ms, RSS +${rssMb.toFixed(0)} MB)`,
    ['call', 'µs per call', 'calls/s'],
    rows.map(([label, us]) => [label, us.toFixed(2), Math.round(1e6 / us).toLocaleString('en')]),
  );
}
