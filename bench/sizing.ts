/**
 * What a sustained scan rate costs the machines behind it, measured on this one: a backlog of
 * scan batches is put in the `scans` queue with no worker running (Redis memory per waiting scan),
 * then one real worker process (default settings) drains it while Postgres's own counters are read
 * before and after: WAL bytes, commits and table growth per scan, and the worker's peak memory.
 * docs/sizing.md turns these into processes and bytes for 10,000 scans/s. BENCH_SCANS, BENCH_RUNS,
 * and BENCH_SCAN_LINKS (the links the scans spread over; 1200) change the load.
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type pg from 'pg';
import { createDatabase } from '#infra/database.js';
import { createAccount } from '#domain/accounts/accounts.js';
import { encodeScanBatch } from '#domain/scans/batch.js';
import { SCAN_JOB_OPTIONS } from '#infra/scans/scan-jobs.js';
import { batches, makeScans, seedLinks, untilQueueEmpty } from './scans.js';
import { commandCpuSeconds, freshDatabase, median, peakRssWhile, printTable, processCpuSeconds, startWorker } from './support.js';

const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = 'qrlinks-bench-sizing';
const SCANS = Number(process.env.BENCH_SCANS ?? 200_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
/** The tables a scan writes: the scan itself, the rollups and the day's visitor keys, the link's counters. */
const TABLES = ['scans', 'scan_rollups', 'link_scan_hours', 'scan_visitor_days', 'link_counters'];

interface PostgresCounters {
  walBytes: number;
  commits: number;
  tableBytes: number;
}

async function postgresCounters(pool: pg.Pool): Promise<PostgresCounters> {
  // Statistics are sent to the collector asynchronously; a fresh snapshot keeps the reading current.
  await pool.query('select pg_stat_clear_snapshot()');
  const { rows } = await pool.query<{ wal: string; commits: string; bytes: string }>(
    `select pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint::text as wal,
            (select xact_commit from pg_stat_database where datname = current_database())::text as commits,
            (select sum(pg_total_relation_size(c))::bigint::text from unnest($1::regclass[]) c) as bytes`,
    [TABLES],
  );
  const row = rows[0]!;
  return { walBytes: Number(row.wal), commits: Number(row.commits), tableBytes: Number(row.bytes) };
}

async function redisUsedMemory(redis: Redis): Promise<number> {
  const info = await redis.info('memory');
  return Number(/used_memory:(\d+)/.exec(info)![1]);
}

interface Round {
  redisBytesPerScan: number;
  scansPerSecond: number;
  walBytesPerScan: number;
  commitsPer1000: number;
  tableBytesPerScan: number;
  workerPeakMb: number;
  /** CPU per scan, µs: Postgres's (every postgres process) and the worker process's. */
  postgresCpuMicros: number;
  workerCpuMicros: number;
}

async function round(databaseUrl: string, pool: pg.Pool, queue: Queue, redis: Redis, accountId: string, linkIds: string[]): Promise<Round> {
  await queue.obliterate({ force: true });
  await queue.pause();
  const jobs = batches(makeScans(accountId, linkIds, SCANS)).map((batch) => ({
    name: 'scans',
    data: encodeScanBatch(batch),
    opts: { ...SCAN_JOB_OPTIONS, jobId: randomUUID() },
  }));
  const redisBefore = await redisUsedMemory(redis);
  for (let i = 0; i < jobs.length; i += 50) await queue.addBulk(jobs.slice(i, i + 50));
  const redisBytesPerScan = ((await redisUsedMemory(redis)) - redisBefore) / SCANS;

  const worker = await startWorker({ DATABASE_URL: databaseUrl, REDIS_URL, REDIS_NAMESPACE: PREFIX, MIGRATE_ON_START: 'false' });
  try {
    const before = await postgresCounters(pool);
    const cpuBefore = { postgres: await commandCpuSeconds('postgres'), worker: await processCpuSeconds(worker.pid!) };
    const start = performance.now();
    await queue.resume();
    const { peakMb: workerPeakMb } = await peakRssWhile(worker.pid!, untilQueueEmpty(queue), 100);
    const seconds = (performance.now() - start) / 1000;
    const cpuAfter = { postgres: await commandCpuSeconds('postgres'), worker: await processCpuSeconds(worker.pid!) };
    // A backend reports its commits when it ends at the latest: the worker's connections end with it.
    worker.kill('SIGTERM');
    await once(worker, 'exit');
    const after = await postgresCounters(pool);
    const { rows } = await pool.query<{ n: number }>('select count(*)::int as n from scans where account_id = $1', [accountId]);
    if (rows[0]!.n % SCANS !== 0) throw new Error(`scans landed: ${rows[0]!.n}, not a multiple of ${SCANS}`);
    return {
      redisBytesPerScan,
      scansPerSecond: SCANS / seconds,
      walBytesPerScan: (after.walBytes - before.walBytes) / SCANS,
      commitsPer1000: ((after.commits - before.commits) / SCANS) * 1000,
      tableBytesPerScan: (after.tableBytes - before.tableBytes) / SCANS,
      workerPeakMb,
      postgresCpuMicros: ((cpuAfter.postgres - cpuBefore.postgres) * 1e6) / SCANS,
      workerCpuMicros: ((cpuAfter.worker - cpuBefore.worker) * 1e6) / SCANS,
    };
  } finally {
    if (worker.exitCode === null && worker.signalCode === null) {
      worker.kill('SIGTERM');
      await once(worker, 'exit');
    }
  }
}

export async function benchSizing(): Promise<string> {
  const databaseUrl = await freshDatabase('sizing');
  const database = createDatabase(databaseUrl, 2);
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const queue = new Queue('scans', { connection: redis, prefix: PREFIX });
  try {
    const account = await createAccount(database.db, { name: 'bench-sizing', plan: 'pro' });
    const linkIds = await seedLinks(database.pool, account.id);
    // Rounds add up: the tables grow from round to round, as a day's traffic would grow them.
    const rounds: Round[] = [];
    for (let i = 0; i < RUNS; i++) rounds.push(await round(databaseUrl, database.pool, queue, redis, account.id, linkIds));
    const m = (pick: (r: Round) => number) => median(rounds.map(pick));
    const perSecond = 10_000;
    const rows: Array<Array<string | number>> = [
      [
        'Redis memory per scan waiting in the queue',
        `${Math.round(m((r) => r.redisBytesPerScan))} B`,
        gb(perSecond * 60 * m((r) => r.redisBytesPerScan), 'per minute of backlog'),
      ],
      [
        'scans ingested per second by one worker process (default settings)',
        Math.round(m((r) => r.scansPerSecond)),
        `${(perSecond / m((r) => r.scansPerSecond)).toFixed(1)} worker processes at full load`,
      ],
      ['worker process peak RSS while ingesting', `${Math.round(m((r) => r.workerPeakMb))} MB`, '—'],
      [
        'CPU per scan ingested: Postgres (all its processes) / the worker process',
        `${m((r) => r.postgresCpuMicros).toFixed(1)} µs / ${m((r) => r.workerCpuMicros).toFixed(1)} µs`,
        `${((perSecond * m((r) => r.postgresCpuMicros)) / 1e6).toFixed(2)} cores of Postgres, ${((perSecond * m((r) => r.workerCpuMicros)) / 1e6).toFixed(2)} of workers`,
      ],
      [
        'Postgres WAL per scan',
        `${Math.round(m((r) => r.walBytesPerScan))} B`,
        `${((perSecond * m((r) => r.walBytesPerScan)) / 1e6).toFixed(1)} MB/s of WAL`,
      ],
      [
        'Postgres commits per 1000 scans',
        m((r) => r.commitsPer1000).toFixed(2),
        `${Math.round((perSecond * m((r) => r.commitsPer1000)) / 1000)} commits/s`,
      ],
      [
        'table and index growth per scan (scans, rollups, visitor days, link counters)',
        `${Math.round(m((r) => r.tableBytesPerScan))} B`,
        gb(perSecond * 86_400 * m((r) => r.tableBytesPerScan), 'per day'),
      ],
    ];
    return printTable(
      `sizing: ${SCANS.toLocaleString('en')} scans over ${linkIds.length} links, one worker process, median of ${RUNS} rounds`,
      ['measured', 'value', 'at 10,000 scans/s'],
      rows,
    );
  } finally {
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
    await redis.quit();
    await database.close();
  }
}

function gb(bytes: number, what: string): string {
  return `${(bytes / 1e9).toFixed(bytes < 1e10 ? 2 : 0)} GB ${what}`;
}
