/**
 * What every benchmark shares: child processes for the servers (so the load generator does not
 * share their event loop), autocannon runs, medians, and a printed table. Numbers from one run
 * are only compared with a baseline measured in the same run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { request } from 'node:http';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { createDatabase } from '#infra/database.js';
import type { DatabaseHandle } from '#domain/database.js';
import { migrateDatabase } from '#platform/database/migrate.js';
import { ROLE_RUNTIME, type Role, type RoleRuntime } from '#platform/process/role-runtime.js';
import { createAccount } from '#domain/accounts/accounts.js';
import { createApiKey } from '#domain/accounts/api-keys.js';

import { freePort, stopProcess } from '../test/support/processes.js';

export { freePort, stopProcess };

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** One of our entry points (or a baseline) as a child process, logging warnings to our stderr. */
export function startProcess(entry: string, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** A role's entry module in dist/. */
const compiledEntry = (role: RoleRuntime) => join('dist', role.entry.replace(/\.ts$/, '.js'));

/**
 * A real worker process (workers/server.ts), resolved once it logs that its processors run; with
 * `compiled`, its dist/ bundle with the role's flags and environment, as production runs it (call
 * buildDist first).
 */
export async function startWorker(env: Record<string, string>, compiled = false): Promise<ChildProcess> {
  const role = ROLE_RUNTIME.worker;
  const [args, roleEnv] = compiled ? [[...role.nodeOptions, compiledEntry(role)], role.env] : [['--import', 'tsx', role.entry], {}];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...roleEnv, ...env, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  for await (const line of createInterface({ input: child.stdout })) {
    if (line.includes('worker started')) break;
  }
  child.stdout.resume();
  return child;
}

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat (Linux). */
export async function processCpuSeconds(pid: number): Promise<number> {
  return cpuSecondsOf(await readFile(`/proc/${pid}/stat`, 'utf8'));
}

/**
 * CPU seconds used so far by every process of this machine named `command` (/proc/<pid>/comm):
 * for Postgres, its backends and background workers alike.
 */
export async function commandCpuSeconds(command: 'postgres' | 'redis-server'): Promise<number> {
  let seconds = 0;
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    if (stat.includes(` (${command}) `)) seconds += cpuSecondsOf(stat);
  }
  return seconds;
}

/** A figure of a process's /proc status in MB: VmRSS, its resident set now; VmHWM, its peak since it started. */
export async function procStatusMb(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)![1]) / 1024;
}

/**
 * `work`'s result, with the largest resident set (VmRSS, MB) of `pid` read every `everyMs` while
 * it ran, and once before and after. A read of a process that has ended is skipped.
 */
export async function peakRssWhile<T>(pid: number, work: Promise<T>, everyMs: number): Promise<{ result: T; peakMb: number }> {
  let peakMb = 0;
  const sample = () =>
    procStatusMb(pid).then(
      (mb) => void (peakMb = Math.max(peakMb, mb)),
      () => undefined,
    );
  await sample();
  const timer = setInterval(() => void sample(), everyMs);
  try {
    const result = await work;
    await sample();
    return { result, peakMb };
  } finally {
    clearInterval(timer);
  }
}

/** utime + stime of a /proc/<pid>/stat line, in seconds (clock ticks of 1/100 s). */
/** The whole machine's CPU time so far, all cores: busy and total clock ticks (/proc/stat). */
export async function machineCpuTicks(): Promise<{ busy: number; total: number }> {
  const first = (await readFile('/proc/stat', 'utf8')).split('\n', 1)[0]!;
  const ticks = first.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal: idle and iowait are not busy.
  const total = ticks.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - ticks[3]! - ticks[4]!, total };
}

function cpuSecondsOf(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Compiles dist/ (scripts/build.mjs) if the sources changed since it was last built. */
export async function buildDist(): Promise<void> {
  const build = spawn(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
  const [code] = (await once(build, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`scripts/build.mjs --if-stale exited with ${code}`);
}

/**
 * One of our entry points as production runs it: its dist/ bundle under plain node with the
 * role's flags and environment (call buildDist first), resolved once `healthUrl` answers.
 */
export function startCompiledServer(name: Role, env: Record<string, string>, healthUrl: string): Promise<ChildProcess> {
  const role = ROLE_RUNTIME[name];
  const child = spawn(process.execPath, [...role.nodeOptions, compiledEntry(role)], {
    cwd: ROOT,
    env: { ...process.env, ...role.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return untilHealthy(child, role.entry, healthUrl);
}

/** The old generation a role's flags cap its heap at (--max-old-space-size), in MB; null without one. */
export function heapCapMb(name: Role): number | null {
  const flag = ROLE_RUNTIME[name].nodeOptions.find((option) => option.startsWith('--max-old-space-size='));
  return flag ? Number(flag.split('=')[1]) : null;
}

export async function startServer(entry: string, env: Record<string, string>, healthUrl: string): Promise<ChildProcess> {
  return untilHealthy(startProcess(entry, env), entry, healthUrl);
}

async function untilHealthy(child: ChildProcess, entry: string, healthUrl: string): Promise<ChildProcess> {
  const end = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(healthUrl)).ok) return child;
    } catch {
      /* not up yet */
    }
    if (Date.now() > end || child.exitCode !== null) throw new Error(`${entry} did not start`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A database of its own for one benchmark, dropped and made anew (and migrated) on every run, so
 * each run starts from the same empty tables: scans left by earlier runs would otherwise make
 * every later run write into a bigger table than the one before. BENCH_POSTGRES_URL names the
 * server (default: the local one).
 */
export async function freshDatabase(name: string): Promise<string> {
  const server = new URL(process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  const database = benchDatabaseName(name);
  const admin = new pg.Client({ connectionString: server.href });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.query(`create database ${database}`);
  } finally {
    await admin.end();
  }
  await migrateDatabase(benchDatabaseUrl(name));
  return benchDatabaseUrl(name);
}

const benchDatabaseName = (name: string) => `qrlinks_bench_${name}`;

/**
 * Where benchmark `name`'s database is, whether or not it exists: for a benchmark that keeps its
 * database across runs because seeding it takes minutes (it decides itself when to start afresh).
 */
export function benchDatabaseUrl(name: string): string {
  const url = new URL(process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  url.pathname = `/${benchDatabaseName(name)}`;
  return url.href;
}

export interface LoadResult {
  requestsPerSec: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

export async function load(opts: {
  url: string;
  connections: number;
  seconds: number;
  headers?: Record<string, string>;
}): Promise<LoadResult> {
  return fromAutocannon(
    await autocannon({
      url: opts.url,
      connections: opts.connections,
      duration: opts.seconds,
      headers: opts.headers,
    }),
  );
}

/** What a load run measured, from autocannon's result. */
export function fromAutocannon(result: autocannon.Result): LoadResult {
  return {
    requestsPerSec: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/**
 * Sends one request per item, `connections` at a time (each connection takes the next item when
 * its answer is in); throws on any answer whose status is not in `accepted`. Resolves to the wall
 * time of all of them, in ms.
 */
export async function sendOverConnections<T>(
  items: readonly T[],
  connections: number,
  send: (item: T) => Promise<Response>,
  accepted: readonly number[] = [200],
): Promise<number> {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < items.length) {
        const res = await send(items[next++]!);
        if (!accepted.includes(res.status)) throw new Error(`${res.url} answered ${res.status}: ${await res.text()}`);
        await res.arrayBuffer();
      }
    }),
  );
  return performance.now() - start;
}

export interface TimedAnswer {
  /** Time to the answer's first byte (its status line and headers). */
  ms: number;
  status: number;
  /** Bytes of its body, read to the end. */
  bytes: number;
}

/** A GET of `url` as a phone's browser sends it (compressed answers welcome), with `headers` on top. */
export function timedGet(url: string, headers: Record<string, string> = {}): Promise<TimedAnswer> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    request(
      url,
      {
        headers: {
          'accept-encoding': 'gzip, deflate, br',
          'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)',
          ...headers,
        },
      },
      (res) => {
        const ms = performance.now() - start;
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve({ ms, status: res.statusCode ?? 0, bytes }));
        res.on('error', reject);
      },
    )
      .on('error', reject)
      .end();
  });
}

/**
 * `clients` sequential clients sending GET `url` (timedGet, with `headers`) until `stopped()` says
 * stop: every answer's time to first byte, and how many answers came with each status.
 */
export async function getUntil(
  url: string,
  stopped: () => boolean,
  { clients = 2, headers = {} }: { clients?: number; headers?: Record<string, string> } = {},
): Promise<{ times: number[]; statuses: Record<string, number> }> {
  const times: number[] = [];
  const statuses: Record<string, number> = {};
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (!stopped()) {
        const { ms, status } = await timedGet(url, headers);
        times.push(ms);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }),
  );
  return { times, statuses };
}

/** The value a fraction `p` of the way up `values` in order (0.99: the p99). */
export const percentile = (values: number[], p: number): number =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

/** The middle value (the upper one of an even count). */
export const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The median of each figure over several runs; non-2xx answers and errors are summed. */
export function medianOfRuns(results: LoadResult[]): LoadResult {
  return {
    requestsPerSec: median(results.map((r) => r.requestsPerSec)),
    p50: median(results.map((r) => r.p50)),
    p99: median(results.map((r) => r.p99)),
    non2xx: results.reduce((s, r) => s + r.non2xx, 0),
    errors: results.reduce((s, r) => s + r.errors, 0),
  };
}

/** Runs `runs` loads and keeps the median of each figure. */
export async function medianLoad(runs: number, opts: Parameters<typeof load>[0]): Promise<LoadResult & { runs: number }> {
  const results: LoadResult[] = [];
  for (let i = 0; i < runs; i++) results.push(await load(opts));
  return { runs, ...medianOfRuns(results) };
}

export function printTable(title: string, header: string[], rows: Array<Array<string | number>>): string {
  const lines = [`### ${title}`, '', `| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  for (const row of rows) lines.push(`| ${row.join(' | ')} |`);
  const text = lines.join('\n');
  process.stdout.write(`${text}\n\n`);
  return text;
}

/** Writes a response body to a temporary file for a baseline server to serve. */
export async function bodyFile(body: string): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'qrlinks-bench-')), 'body.json');
  await writeFile(path, body);
  return path;
}

export interface RunningServer {
  child: ChildProcess;
  /** http://127.0.0.1:<port> */
  origin: string;
}

/** Our api alone, compiled as production runs it, on a free port, against the bench database, with no rate limit in the way. */
export async function startBenchApi(databaseUrl: string): Promise<RunningServer> {
  await buildDist();
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = await startCompiledServer(
    'api',
    { PORT: String(port), DATABASE_URL: databaseUrl, RATE_LIMIT_MAX: '100000000', REDIS_NAMESPACE: 'qrlinks-bench' },
    `${origin}/health`,
  );
  return { child, origin };
}

/**
 * The bare-Fastify baseline that reads the account's folders from Postgres on every request, as
 * one named prepared statement through pg (no auth, no ORM, no schemas), at /api/v1/folders: the
 * floor of any api route that makes one round trip to the database.
 */
export async function startPostgresBaseline(databaseUrl: string, accountId: string): Promise<RunningServer & { url: string }> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = await startServer(
    'bench/baselines/bare-fastify-postgres.ts',
    { PORT: String(port), DATABASE_URL: databaseUrl, BASELINE_ACCOUNT_ID: accountId },
    `${origin}/health`,
  );
  return { child, origin, url: `${origin}/api/v1/folders` };
}

/** The bare-Fastify baseline answering `body` at /api/v1/folders from memory. */
export async function startJsonBaseline(body: string): Promise<RunningServer & { url: string }> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = await startServer(
    'bench/baselines/bare-fastify-json.ts',
    { PORT: String(port), BASELINE_BODY_FILE: await bodyFile(body) },
    `${origin}/health`,
  );
  return { child, origin, url: `${origin}/api/v1/folders` };
}

export interface BenchStack {
  database: DatabaseHandle;
  /** The api's origin, http://127.0.0.1:<port> */
  api: string;
  /** The redirect's origin. */
  redirect: string;
  /** The processes' pids (their memory and CPU are read from /proc). */
  apiPid: number;
  workerPid: number;
  redirectPid: number;
  /** A pro account with an all-scopes key, made in the database. */
  accountWithKey(name: string): Promise<{ id: string; auth: { authorization: string } }>;
  /** Stops the three processes, closes the database and removes the stored files. */
  stop(): Promise<void>;
}

/**
 * The whole service as `npm start` runs it (api, worker, redirect: one process each) on a fresh
 * database `name`, its own queue prefix and a temporary file store; for the benches that go
 * through more than one role. With `compiled`, each role is its dist/ bundle with the role's
 * flags (its heap cap among them), as production runs it.
 */
export async function startBenchStack(name: string, { compiled = false } = {}): Promise<BenchStack> {
  const DATABASE_URL = await freshDatabase(name);
  const database = createDatabase(DATABASE_URL, 2);
  const storageDir = await mkdtemp(join(tmpdir(), `qrlinks-bench-${name}-`));
  const env = {
    DATABASE_URL,
    REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_NAMESPACE: `qrlinks-bench-${name}`,
    STORAGE_DIR: storageDir,
    MIGRATE_ON_START: 'false',
    WORKER_NICE: '0',
  };
  const [apiPort, redirectPort] = [await freePort(), await freePort()];
  const api = `http://127.0.0.1:${apiPort}`;
  const redirect = `http://127.0.0.1:${redirectPort}`;
  if (compiled) await buildDist();
  const start = (role: 'api' | 'redirect', roleEnv: Record<string, string>, healthUrl: string) =>
    compiled ? startCompiledServer(role, roleEnv, healthUrl) : startServer(ROLE_RUNTIME[role].entry, roleEnv, healthUrl);
  const children = [
    await start('api', { ...env, PORT: String(apiPort), RATE_LIMIT_MAX: '100000000' }, `${api}/health`),
    await startWorker(env, compiled),
    await start('redirect', { ...env, REDIRECT_PORT: String(redirectPort) }, `${redirect}/health`),
  ];
  return {
    database,
    api,
    redirect,
    apiPid: children[0]!.pid!,
    workerPid: children[1]!.pid!,
    redirectPid: children[2]!.pid!,
    async accountWithKey(accountName) {
      const account = await createAccount(database.db, { name: accountName, plan: 'pro' });
      const { key } = await createApiKey(database.db, { accountId: account.id, scopes: ['all'], expiresAt: null }, 100);
      return { id: account.id, auth: { authorization: `Basic ${key}` } };
    },
    async stop() {
      for (const child of children) child.kill('SIGTERM');
      await Promise.all(children.map((child) => once(child, 'exit')));
      await database.close();
      await rm(storageDir, { recursive: true, force: true });
    },
  };
}
