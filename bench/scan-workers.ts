/**
 * Draining a backlog with 1, 2 and 4 worker processes (target: 2 workers ≥ 1.5× one; Postgres
 * lock waits < 10% of its backends' time). The backlog is one account's scans over 10,000 links,
 * a third of them on ten hot links (a broadcast, a stadium), the rest spread over the others, from
 * visitors of many kinds (so nearly every scan writes rollup rows of its own) with keys from a pool
 * of 100,000. Each case drains the same number of scans from the paused `scans` queue once its
 * workers are up; pg_stat_activity is sampled every 20 ms meanwhile, and the share of active
 * backends waiting on a heavyweight lock (`wait_event_type = 'Lock'`: rows, advisory locks,
 * another transaction's key) is reported. BENCH_SCANS (default 200,000) and BENCH_RUNS (rounds of
 * the three cases, default 1; medians) change the load.
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { cpus } from 'node:os';
import type { ChildProcess } from 'node:child_process';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';
import { createDatabase } from '#infra/database.js';
import { createAccount } from '#domain/accounts/accounts.js';
import { encodeScanBatch } from '#domain/scans/batch.js';
import { SCAN_JOB_OPTIONS } from '#infra/scans/scan-jobs.js';
import { newScanId } from '#domain/scans/scan-id.js';
import type { ScanEvent } from '#domain/scans/types.js';
import { batches, untilQueueEmpty } from './scans.js';
import { commandCpuSeconds, freshDatabase, machineCpuTicks, median, printTable, processCpuSeconds, startWorker } from './support.js';

const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = 'qrlinks-bench-scan-workers';
const SCANS = Number(process.env.BENCH_SCANS ?? 200_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 1);
const WORKERS = [1, 2, 4];
const LINKS = 10_000;
const HOT_LINKS = 10;
const HOT_SHARE = 1 / 3;

const BROWSERS = [
  ['Mobile Safari', 'iOS', 'mobile', 'Apple'],
  ['Chrome', 'Android', 'mobile', 'Samsung'],
  ['Chrome', 'Windows', 'desktop', null],
  ['Safari', 'Mac OS', 'desktop', 'Apple'],
  ['Firefox', 'Linux', 'desktop', null],
  ['Samsung Internet', 'Android', 'mobile', 'Samsung'],
] as const;
const PLACES = Array.from({ length: 40 }, (_, i) => [`Country ${i % 20}`, `Region ${i}`, `City ${i}`] as const);

function backlog(accountId: string, linkIds: string[]): ScanEvent[] {
  const now = Date.now();
  return Array.from({ length: SCANS }, (_, i) => {
    const hot = Math.random() < HOT_SHARE;
    const link = hot
      ? linkIds[Math.floor(Math.random() * HOT_LINKS)]!
      : linkIds[HOT_LINKS + Math.floor(Math.random() * (LINKS - HOT_LINKS))]!;
    const [browserName, osName, deviceType, deviceVendor] = BROWSERS[i % BROWSERS.length]!;
    const [countryName, region, city] = PLACES[Math.floor(Math.random() * PLACES.length)]!;
    return {
      id: newScanId(),
      linkId: link,
      accountId,
      at: now - (SCANS - i) * 2,
      browserName,
      deviceType,
      deviceVendor,
      osName,
      countryName,
      region,
      city,
      isBot: i % 20 === 0,
      visitorKey: `v${Math.floor(Math.random() * 100_000)}`,
    };
  });
}

/** Samples the active client backends of the bench's database until stopped: how many samples waited on a lock. */
function sampleWaits(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  let active = 0;
  let locked = 0;
  let running = true;
  const done = (async () => {
    await client.connect();
    while (running) {
      const { rows } = await client.query<{ wait: string | null; n: number }>(
        `select wait_event_type as wait, count(*)::int as n from pg_stat_activity
         where datname = current_database() and state = 'active' and backend_type = 'client backend' and pid <> pg_backend_pid()
         group by 1`,
      );
      for (const { wait, n } of rows) {
        active += n;
        if (wait === 'Lock') locked += n;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    await client.end();
  })();
  return {
    async stop() {
      running = false;
      await done;
      return { active, locked };
    },
  };
}

interface Case {
  scansPerSecond: number;
  lockShare: number;
  postgresCpuMicros: number;
  workerCpuMicros: number;
  /** Share of the machine's CPU time (all cores) that was busy while the backlog drained. */
  machineBusy: number;
}

async function drain(
  databaseUrl: string,
  pool: pg.Pool,
  queue: Queue,
  accountId: string,
  linkIds: string[],
  workers: number,
): Promise<Case> {
  await pool.query('truncate scans, scan_rollups, link_scan_hours, scan_visitor_days');
  await pool.query('update link_counters set scan_count = 0, human_scan_count = 0, last_scanned_at = null');
  await pool.query('vacuum analyze scans, scan_rollups, link_scan_hours, scan_visitor_days, link_counters');
  await queue.pause();
  const jobs = batches(backlog(accountId, linkIds)).map((batch) => ({
    name: 'scans',
    data: encodeScanBatch(batch),
    opts: { ...SCAN_JOB_OPTIONS, jobId: randomUUID() },
  }));
  for (let i = 0; i < jobs.length; i += 50) await queue.addBulk(jobs.slice(i, i + 50));
  const children: ChildProcess[] = [];
  try {
    for (let w = 0; w < workers; w++)
      children.push(
        await startWorker({
          DATABASE_URL: databaseUrl,
          REDIS_URL,
          REDIS_NAMESPACE: PREFIX,
          MIGRATE_ON_START: 'false',
          BULK_PACE_SCANS_PER_SEC: '0',
        }),
      );
    const cpuBefore = await commandCpuSeconds('postgres');
    const workersBefore = await workerCpu(children);
    const machineBefore = await machineCpuTicks();
    const sampler = sampleWaits(databaseUrl);
    const start = performance.now();
    await queue.resume();
    await untilQueueEmpty(queue);
    const ms = performance.now() - start;
    const { active, locked } = await sampler.stop();
    const cpu = (await commandCpuSeconds('postgres')) - cpuBefore;
    const workersCpu = (await workerCpu(children)) - workersBefore;
    const machine = await machineCpuTicks();
    const { rows } = await pool.query<{ n: number }>('select count(*)::int as n from scans');
    if (rows[0]!.n !== SCANS) throw new Error(`expected ${SCANS} scans, found ${rows[0]!.n}`);
    return {
      scansPerSecond: SCANS / (ms / 1000),
      lockShare: active ? locked / active : 0,
      postgresCpuMicros: (cpu * 1e6) / SCANS,
      workerCpuMicros: (workersCpu * 1e6) / SCANS,
      machineBusy: (machine.busy - machineBefore.busy) / (machine.total - machineBefore.total),
    };
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.filter((child) => child.exitCode === null).map((child) => once(child, 'exit')));
  }
}

async function workerCpu(children: ChildProcess[]): Promise<number> {
  let seconds = 0;
  for (const child of children) seconds += await processCpuSeconds(child.pid!);
  return seconds;
}

export async function benchScanWorkers(): Promise<string> {
  const DATABASE_URL = await freshDatabase('scan_workers');
  const database = createDatabase(DATABASE_URL, 2);
  const { pool } = database;
  const account = await createAccount(database.db, { name: 'bench-scan-workers', plan: 'pro' });
  const { rows: links } = await pool.query<{ id: string }>(
    `insert into links (account_id, slug, name, type, meta_data, qr_options)
     select $1, 'w' || substr(md5(random()::text || g), 1, 12), 'Link ' || g, 'website', '{"url":"https://example.com"}', '{}'
     from generate_series(1, ${LINKS}) g returning id`,
    [account.id],
  );
  const linkIds = links.map((l) => l.id);
  const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const queue = new Queue('scans', { connection, prefix: PREFIX });
  await queue.obliterate({ force: true });
  const results = new Map<number, Case[]>(WORKERS.map((w) => [w, []]));
  try {
    for (let run = 0; run < RUNS; run++) {
      for (const workers of WORKERS) results.get(workers)!.push(await drain(DATABASE_URL, pool, queue, account.id, linkIds, workers));
    }
  } finally {
    await queue.obliterate({ force: true });
    await queue.close();
    await connection.quit();
    await database.close();
  }
  const one = median(results.get(1)!.map((c) => c.scansPerSecond));
  return printTable(
    `scan-workers: a backlog of ${SCANS.toLocaleString('en')} scans (one account, ${LINKS.toLocaleString('en')} links, a third on ${HOT_LINKS} hot links) drained by 1, 2 and 4 worker processes, median of ${RUNS}`,
    [
      'worker processes',
      'scans/s',
      '× one worker',
      'Postgres lock waits (share of active backend samples)',
      'Postgres CPU per scan',
      'workers CPU per scan',
      `machine busy (${cpus().length} cores)`,
    ],
    WORKERS.map((w) => {
      const cases = results.get(w)!;
      const rate = median(cases.map((c) => c.scansPerSecond));
      return [
        w,
        Math.round(rate),
        (rate / one).toFixed(2),
        `${(median(cases.map((c) => c.lockShare)) * 100).toFixed(0)}%`,
        `${median(cases.map((c) => c.postgresCpuMicros)).toFixed(0)} µs`,
        `${median(cases.map((c) => c.workerCpuMicros)).toFixed(0)} µs`,
        `${(median(cases.map((c) => c.machineBusy)) * 100).toFixed(0)}%`,
      ];
    }),
  );
}
