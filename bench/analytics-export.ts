/**
 * Analytics export (target: >= 300,000 rows/s end to end; the worker's memory flat in the rows):
 * an account-wide CSV export of 2,000,000 scans over 100 links, from the request to the api
 * (`Prefer: respond-async`) to the job completed with its file in storage, by one real worker
 * process; the same for 200,000 rows in another account. Each export runs in a fresh worker
 * process, whose peak RSS (VmHWM) is read when the job is done.
 *
 * Baselines in the same run, over the same rows: Postgres writing them itself
 * (`COPY (select …) TO STDOUT (FORMAT csv)` through psql into /dev/null), and the export's own
 * stream read in this process and thrown away (`scansCsv`: the same COPY with the export's
 * neutralising select, its record ends made CRLF; no api, queue, job or storage), which shows what
 * the job around it costs. The export is Postgres's CSV since docs/decisions/0346, so COPY into
 * /dev/null is about the most it can reach.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { rm, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { scansCsv } from '#domain/analytics/export.js';
import { createDatabase } from '#infra/database.js';
import { createAccount } from '#domain/accounts/accounts.js';
import { createApiKey } from '#domain/accounts/api-keys.js';
import { freePort, freshDatabase, printTable, procStatusMb, startServer, startWorker } from './support.js';

const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = 'qrlinks-bench-export';
const LINKS = 100;
const SIZES = [200_000, 2_000_000];
const TARGET = 300_000;

/** `rows` human scans of `accountId`'s links spread over the last 40 hours (inside the default 48). */
async function seed(pool: pg.Pool, accountId: string, rows: number): Promise<void> {
  await pool.query(
    `insert into links (account_id, slug, name, type, meta_data, qr_options)
     select $1, 'x' || substr(md5(random()::text || g), 1, 10), 'Table ' || g, 'website', '{"url":"https://example.com"}', '{}'
     from generate_series(1, ${LINKS}) g`,
    [accountId],
  );
  await pool.query(
    `with l as (select array_agg(id) ids from links where account_id = $1)
     insert into scans (id, link_id, account_id, created_at, browser_name, device_type, device_vendor, os_name, country_name, region, city, is_bot)
     select gen_random_uuid(), l.ids[1 + g % ${LINKS}], $1, now() - interval '40 hours' + g * (interval '40 hours' / $2::int),
            (array['Chrome','Mobile Safari','Firefox','Samsung Internet'])[1 + g % 4], (array['mobile','desktop','tablet'])[1 + g % 3],
            case when g % 5 = 0 then null else 'Apple' end, (array['iOS','Android','Windows','Mac OS'])[1 + g % 4],
            (array['Germany','Brazil','United States','Japan'])[1 + g % 4], (array['Bavaria','São Paulo','California','Tokyo'])[1 + g % 4],
            (array['München','São Paulo','San Francisco, CA','東京'])[1 + g % 4], false
     from l, generate_series(1, $2::int) g`,
    [accountId, rows],
  );
}

/** The export's stream over the default window (the last 48 hours), in this process, thrown away. */
async function streamOnly(pool: pg.Pool, accountId: string, expectedRows: number): Promise<number> {
  const start = performance.now();
  let rows = 0;
  const csv = scansCsv(
    pool,
    { accountId, defaultHost: 'qr.example', from: new Date(Date.now() - 48 * 3_600_000), to: new Date() },
    async (progress) => {
      rows = progress.rows;
    },
  );
  for await (const chunk of csv) void chunk;
  const ms = performance.now() - start;
  if (rows !== expectedRows) throw new Error(`expected ${expectedRows} rows, the stream had ${rows}`);
  return ms;
}

/** Postgres formatting the same rows as CSV itself, into /dev/null. */
async function copyToDevNull(databaseUrl: string, accountId: string): Promise<number> {
  const sql = `\\copy (select l.slug, s.browser_name, s.device_type, s.device_vendor, s.os_name, to_char(s.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), s.country_name, s.region, s.city from scans s join links l on l.id = s.link_id where s.account_id = '${accountId}' and s.created_at >= now() - interval '48 hours' and not s.is_bot order by s.created_at, s.id) to '/dev/null' with (format csv, header)`;
  const start = performance.now();
  const child = spawn('psql', [databaseUrl, '-q', '-c', sql], { stdio: ['ignore', 'ignore', 'inherit'] });
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`psql exited with ${code}`);
  return performance.now() - start;
}

interface ExportRun {
  ms: number;
  rows: number;
  bytes: number;
  peakRssMb: number;
  idleRssMb: number;
}

/** One export through the api and a fresh worker: request → poll GET /jobs/:id → completed. */
async function exportRun(api: string, key: string, env: Record<string, string>): Promise<ExportRun> {
  const worker = await startWorker(env);
  try {
    const idleRssMb = await procStatusMb(worker.pid!, 'VmHWM');
    const auth = { authorization: `Basic ${key}`, 'content-type': 'application/json' };
    const start = performance.now();
    const res = await fetch(`${api}/api/v1/analytics/export`, {
      method: 'POST',
      headers: { ...auth, prefer: 'respond-async' },
      body: '{}',
    });
    if (res.status !== 202) throw new Error(`export answered ${res.status}: ${await res.text()}`);
    const { jobId } = (await res.json()) as { jobId: string };
    for (;;) {
      const job = (await (await fetch(`${api}/api/v1/jobs/${jobId}`, { headers: auth })).json()) as {
        state: string;
        error?: string;
        result?: { rows: number; bytes: number };
      };
      if (job.state === 'failed') throw new Error(`export failed: ${job.error}`);
      if (job.state === 'completed') {
        const ms = performance.now() - start;
        return { ms, rows: job.result!.rows, bytes: job.result!.bytes, peakRssMb: await procStatusMb(worker.pid!, 'VmHWM'), idleRssMb };
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    worker.kill('SIGTERM');
    await once(worker, 'exit');
  }
}

export async function benchAnalyticsExport(): Promise<string> {
  const DATABASE_URL = await freshDatabase('analytics_export');
  const database = createDatabase(DATABASE_URL, 2);
  const { pool } = database;
  const storageDir = await mkdtemp(join(tmpdir(), 'qrlinks-bench-export-'));
  const env = {
    DATABASE_URL,
    REDIS_URL,
    REDIS_NAMESPACE: PREFIX,
    STORAGE_DIR: storageDir,
    MIGRATE_ON_START: 'false',
    // The worker's default nice only matters beside a busy api; alone here it would only add noise.
    WORKER_NICE: '0',
  };
  const port = await freePort();
  const api = `http://127.0.0.1:${port}`;
  const apiProcess = await startServer('api/server.ts', { ...env, PORT: String(port), RATE_LIMIT_MAX: '100000000' }, `${api}/health`);
  try {
    const accounts: Array<{ size: number; id: string; key: string }> = [];
    for (const size of SIZES) {
      const account = await createAccount(database.db, { name: `bench-export-${size}`, plan: 'pro' });
      await seed(pool, account.id, size);
      const { key } = await createApiKey(database.db, { accountId: account.id, scopes: ['all'], expiresAt: null }, 100);
      accounts.push({ size, id: account.id, key });
    }
    await pool.query('vacuum analyze scans, links');

    const rows: Array<Array<string | number>> = [];
    const figures: string[] = [];
    for (const account of accounts) {
      // Warm the table and its index into the page cache first, so every contender reads from memory.
      await streamOnly(pool, account.id, account.size);
      const streamMs = await streamOnly(pool, account.id, account.size);
      const copyMs = await copyToDevNull(DATABASE_URL, account.id);
      const run = await exportRun(api, account.key, env);
      if (run.rows !== account.size) throw new Error(`expected ${account.size} rows, the export has ${run.rows}`);
      const rate = (ms: number) => Math.round(account.size / (ms / 1000));
      const label = account.size.toLocaleString('en');
      rows.push([
        `${label}: COPY … TO STDOUT (FORMAT csv) via psql into /dev/null (baseline)`,
        rate(copyMs),
        (copyMs / 1000).toFixed(2),
        '1.00',
        '—',
        '—',
      ]);
      rows.push([
        `${label}: the export's stream alone, in-process (scansCsv: COPY, CRLF; no api, queue or storage)`,
        rate(streamMs),
        (streamMs / 1000).toFixed(2),
        (copyMs / streamMs).toFixed(2),
        '—',
        '—',
      ]);
      rows.push([
        `${label}: **export job end to end** (api → queue → worker → CSV in storage)`,
        rate(run.ms),
        (run.ms / 1000).toFixed(2),
        (copyMs / run.ms).toFixed(2),
        `${run.peakRssMb.toFixed(0)} (idle ${run.idleRssMb.toFixed(0)})`,
        rate(run.ms) >= TARGET ? 'yes' : 'NO',
      ]);
      figures.push(`${label} rows: ${(run.bytes / 1e6).toFixed(1)} MB of CSV`);
    }
    return printTable(
      `analytics-export: account-wide CSV of ${LINKS} links' scans, one worker process (${figures.join('; ')})`,
      ['run', 'rows/s', 's', '× baseline', 'worker peak RSS MB', `>= ${TARGET.toLocaleString('en')}/s`],
      rows,
    );
  } finally {
    apiProcess.kill('SIGTERM');
    await once(apiProcess, 'exit');
    await database.close();
    await rm(storageDir, { recursive: true, force: true });
  }
}
