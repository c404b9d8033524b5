/**
 * The scan path under load: a website link resolved by (a) the redirect process, with every scan
 * recorded and ingested by a worker, (b) a bare Fastify 302 from memory (baseline), and (c) the
 * redirect again while `POST /bulk-generate` makes 1200-link batches, one after another, with their
 * QR ZIPs. wrk (Debian package `wrk`) is the load generator when installed — it costs far less CPU
 * than a Node.js one on a 2-core machine; autocannon otherwise.
 */
import { spawn, spawnSync } from 'node:child_process';
import { count, eq } from 'drizzle-orm';
import { createDatabase } from '../domain/database.js';
import { links, scans } from '../domain/schema.js';
import { createAccount } from '../domain/accounts/accounts.js';
import { createApiKey } from '../domain/accounts/api-keys.js';
import { createRedis } from '../platform/redis/client.js';
import { createQueues, closeQueues } from '../domain/jobs/queues.js';
import {
  freePort,
  freshDatabase,
  load,
  median,
  medianOfRuns,
  printTable,
  startProcess,
  startServer,
  stopProcess,
  type LoadResult,
} from './support.js';

const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = 'qrlinks-bench';
const CONNECTIONS = 64;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
/** Rounds; each starts its own processes, so more of them than the other benches' runs. */
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const BATCH_LINKS = 1200;
const DESTINATION = 'https://example.com/landing';
const USER_AGENT =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

interface Measured extends LoadResult {
  /** Requests the load generator completed. */
  completed: number;
}

const HAS_WRK = spawnSync('wrk', ['--version']).error === undefined;

/** One load run: wrk -t2 -c64 with latency percentiles, or autocannon. */
async function loadOnce(url: string): Promise<Measured> {
  if (!HAS_WRK) {
    const r = await load({ url, connections: CONNECTIONS, seconds: SECONDS, headers: { 'user-agent': USER_AGENT } });
    return { ...r, completed: Math.round(r.requestsPerSec * SECONDS), non2xx: 0 };
  }
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn('wrk', ['-t2', `-c${CONNECTIONS}`, `-d${SECONDS}s`, '--latency', '-H', `User-Agent: ${USER_AGENT}`, url]);
    let text = '';
    child.stdout.on('data', (d) => (text += d));
    child.on('error', reject);
    child.on('exit', () => resolve(text));
  });
  const ms = (label: string) => {
    const m = out.match(new RegExp(`^\\s*${label}\\s+([\\d.]+)(us|ms|s)`, 'm'));
    if (!m) throw new Error(`wrk output without ${label}:\n${out}`);
    return Number(m[1]) * (m[2] === 'us' ? 0.001 : m[2] === 's' ? 1000 : 1);
  };
  const completed = Number(out.match(/(\d+) requests in/)![1]);
  const errors = out.match(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/);
  const non2xx = Number(out.match(/Non-2xx or 3xx responses: (\d+)/)?.[1] ?? 0);
  return {
    requestsPerSec: Number(out.match(/Requests\/sec:\s+([\d.]+)/)![1]),
    p50: ms('50%'),
    p99: ms('99%'),
    non2xx,
    errors: errors ? errors.slice(1).reduce((s, n) => s + Number(n), 0) : 0,
    completed,
  };
}

export async function benchRedirect(): Promise<string> {
  const DATABASE_URL = await freshDatabase('redirect');
  const database = createDatabase(DATABASE_URL, 2);
  const account = await createAccount(database.db, { name: 'bench-redirect', plan: 'pro' });
  const slug = `bench${Date.now().toString(36)}`;
  const [link] = await database.db
    .insert(links)
    .values({ accountId: account.id, slug, name: 'bench', type: 'website', metaData: { url: DESTINATION }, qrOptions: {} })
    .returning({ id: links.id });
  const scansOfLink = async () => (await database.db.select({ n: count() }).from(scans).where(eq(scans.linkId, link!.id)))[0]!.n;

  const env = { DATABASE_URL, REDIS_URL, REDIS_NAMESPACE: PREFIX, MIGRATE_ON_START: 'false', LOG_LEVEL: 'warn' };
  const worker = startProcess('workers/server.ts', env);
  /**
   * A new redirect and a new baseline process for every round. How fast one Node.js process runs
   * this load can depend on the process, not only on the machine: one start of the same server did
   * 25 µs of CPU per request and the next 38 (mostly V8's lost tick-object map, now prevented by
   * platform/http/tick-object-shape.ts). A round per start lets the median cover what is left of that.
   */
  async function startServers() {
    const redirectPort = await freePort();
    const basePort = await freePort();
    const unloggedPort = await freePort();
    const meteredPort = await freePort();
    const [redirect, unlogged, baseline, metered] = await Promise.all([
      startServer('redirect/server.ts', { ...env, REDIRECT_PORT: String(redirectPort) }, `http://127.0.0.1:${redirectPort}/health`),
      startServer(
        'redirect/server.ts',
        { ...env, REDIRECT_PORT: String(unloggedPort), SCAN_WRITE_AHEAD: 'false' },
        `http://127.0.0.1:${unloggedPort}/health`,
      ),
      startServer(
        'bench/baselines/bare-fastify-redirect.ts',
        { PORT: String(basePort), BASELINE_SLUG: slug, BASELINE_URL: DESTINATION },
        `http://127.0.0.1:${basePort}/health`,
      ),
      startServer(
        'bench/baselines/bare-fastify-redirect.ts',
        { PORT: String(meteredPort), BASELINE_SLUG: slug, BASELINE_URL: DESTINATION, BASELINE_METRICS: '1' },
        `http://127.0.0.1:${meteredPort}/health`,
      ),
    ]);
    return {
      redirect,
      unlogged,
      baseline,
      metered,
      meteredUrl: `http://127.0.0.1:${meteredPort}/${slug}`,
      ourUrl: `http://127.0.0.1:${redirectPort}/${slug}`,
      unloggedUrl: `http://127.0.0.1:${unloggedPort}/${slug}`,
      baseUrl: `http://127.0.0.1:${basePort}/${slug}`,
    };
  }
  let servers: Awaited<ReturnType<typeof startServers>> | null = null;
  const stopServers = async () => {
    if (servers)
      await Promise.all([
        stopProcess(servers.redirect),
        stopProcess(servers.unlogged),
        stopProcess(servers.baseline),
        stopProcess(servers.metered),
      ]);
    servers = null;
  };
  const redis = createRedis(REDIS_URL);
  const queues = createQueues(redis, PREFIX);
  let rendering = false;
  let batchNumber = 0;
  let batchesRendered = 0;

  // The api, for (c): bulk generation is asked for as a user asks for it.
  const apiPort = await freePort();
  const api = `http://127.0.0.1:${apiPort}`;
  const apiProcess = await startServer('api/server.ts', { ...env, PORT: String(apiPort), RATE_LIMIT_MAX: '100000000' }, `${api}/health`);
  const { key } = await createApiKey(database.db, { accountId: account.id, scopes: ['all'], expiresAt: null }, 100);
  const apiHeaders = { authorization: `Basic ${key}`, 'content-type': 'application/json' };

  /**
   * Keeps one 1200-link `POST /bulk-generate` in the service at all times while `rendering` is on:
   * its links inserted, then its codes rendered (PNG and SVG, new links, so never from a cache) into
   * its ZIP.
   */
  async function bulkContinuously() {
    while (rendering) {
      const b = batchNumber++;
      const data = Array.from({ length: BATCH_LINKS }, (_, i) => ({ name: `batch ${b} table ${i}`, url: `${DESTINATION}?b=${b}&i=${i}` }));
      const res = await fetch(`${api}/api/v1/bulk-generate`, {
        method: 'POST',
        headers: { ...apiHeaders, prefer: 'respond-async' },
        body: JSON.stringify({ type: 'website', data }),
      });
      if (res.status !== 202) throw new Error(`bulk-generate answered ${res.status}: ${await res.text()}`);
      const { jobId } = (await res.json()) as { jobId: string };
      for (;;) {
        const job = (await (await fetch(`${api}/api/v1/jobs/${jobId}`, { headers: apiHeaders })).json()) as {
          state: string;
          error?: string;
          result?: { qrZipUrl?: string };
        };
        if (job.state === 'failed') throw new Error(`bulk job failed: ${job.error}`);
        if (job.result?.qrZipUrl) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      batchesRendered++;
    }
  }

  /** Waits until the worker has written every queued scan; returns how long that took. */
  async function drained(): Promise<number> {
    const start = Date.now();
    for (;;) {
      const counts = await queues.scans.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
      if (Object.values(counts).every((n) => n === 0)) return Date.now() - start;
      if (Date.now() - start > 120_000) throw new Error(`scans queue not drained after 2 minutes: ${JSON.stringify(counts)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  try {
    let recorded = 0;
    const base: Measured[] = [];
    const ours: Measured[] = [];
    const unlogged: Measured[] = [];
    const metered: Measured[] = [];
    const busy: Measured[] = [];
    const drainMs: number[] = [];
    // Rounds of (b), (a), (c) back to back: this machine's speed drifts by tens of percent over a
    // minute, so each ratio compares runs made seconds apart, and the table gives their medians.
    for (let round = 0; round < RUNS; round++) {
      servers = await startServers();
      const { ourUrl, unloggedUrl, baseUrl, meteredUrl } = servers;
      const check = await fetch(ourUrl, { redirect: 'manual', headers: { 'user-agent': USER_AGENT } });
      if (check.status !== 302 || check.headers.get('location') !== DESTINATION) throw new Error(`redirect answered ${check.status}`);
      // Warm up (JIT, caches, pools), then start every measured run from the same state: no scans
      // waiting for the worker (it runs at a lower priority and catches up when the load stops).
      await loadOnce(baseUrl);
      await loadOnce(meteredUrl);
      await loadOnce(ourUrl);
      await loadOnce(unloggedUrl);
      await drained();
      const recordedBefore = await scansOfLink();
      base.push(await loadOnce(baseUrl));
      // The baseline again with the redirect's request metrics: their cost per request, paired.
      metered.push(await loadOnce(meteredUrl));
      ours.push(await loadOnce(ourUrl));
      drainMs.push(await drained());
      // The same without the per-scan write-ahead (SCAN_WRITE_AHEAD=false): what that costs, paired.
      unlogged.push(await loadOnce(unloggedUrl));
      await drained();
      rendering = true;
      const renderer = bulkContinuously();
      await new Promise((r) => setTimeout(r, 1000));
      busy.push(await loadOnce(ourUrl));
      rendering = false;
      await renderer;
      await drained();
      // Stopped with SIGTERM: the redirect sends what it still holds, so scans recorded = requests answered holds across rounds.
      await stopServers();
      await drained();
      recorded += (await scansOfLink()) - recordedBefore;
    }
    const total = (runs: Measured[]) => runs.reduce((s, r) => s + r.completed, 0);
    const sent = total(ours) + total(unlogged) + total(busy);
    for (const r of [...ours, ...unlogged, ...base, ...metered, ...busy])
      if (r.non2xx || r.errors) throw new Error(`load saw ${r.non2xx} bad answers and ${r.errors} socket errors`);
    const rateRatio = median(ours.map((r, i) => r.requestsPerSec / base[i]!.requestsPerSec));
    const p99Ratio = median(busy.map((r, i) => r.p99 / ours[i]!.p99));
    const unloggedRatio = median(unlogged.map((r, i) => r.requestsPerSec / base[i]!.requestsPerSec));
    const walCost = median(ours.map((r, i) => r.requestsPerSec / unlogged[i]!.requestsPerSec));
    // Per request, metrics add 1/(bm) - 1/(b) seconds; as a share of (a)'s time per request, a × that.
    const metricsMicros = metered.map((r, i) => 1e6 / r.requestsPerSec - 1e6 / base[i]!.requestsPerSec);
    const metricsShare = median(ours.map((r, i) => r.requestsPerSec * (metricsMicros[i]! / 1e6)));
    const row = (name: string, runs: Measured[], ratio: string) => {
      const m = medianOfRuns(runs);
      return [name, Math.round(m.requestsPerSec), m.p50.toFixed(2), m.p99.toFixed(2), ratio];
    };
    return printTable(
      `redirect: GET /<slug> (website link), ${HAS_WRK ? 'wrk -t2' : 'autocannon'} -c${CONNECTIONS}, ${RUNS} rounds, each with new server processes, of (b), (a), (c) × ${SECONDS} s; medians`,
      ['server', 'req/s', 'p50 ms', 'p99 ms', "vs baseline (median of the rounds' ratios)"],
      [
        row('(b) bare Fastify 302 from a Map (baseline)', base, '1.00'),
        row(
          `(bm) (b) with the redirect's request metrics (latency sampled on the slug route): ${median(metricsMicros).toFixed(2)} µs a request, ${(metricsShare * 100).toFixed(1)}% of (a)'s time a request (medians)`,
          metered,
          `${median(metered.map((r, i) => r.requestsPerSec / base[i]!.requestsPerSec)).toFixed(2)} (rounds: ${metered.map((r, i) => (r.requestsPerSec / base[i]!.requestsPerSec).toFixed(2)).join(', ')})`,
        ),
        row(
          '(a) qrlinks redirect, scans recorded',
          ours,
          `${rateRatio.toFixed(2)} (rounds: ${ours.map((r, i) => (r.requestsPerSec / base[i]!.requestsPerSec).toFixed(2)).join(', ')})`,
        ),
        row(
          `(a0) (a) without the per-scan write-ahead (SCAN_WRITE_AHEAD=false; (a)/(a0) median ${walCost.toFixed(2)})`,
          unlogged,
          `${unloggedRatio.toFixed(2)} (rounds: ${unlogged.map((r, i) => (r.requestsPerSec / base[i]!.requestsPerSec).toFixed(2)).join(', ')})`,
        ),
        row(
          `(c) (a) while POST /bulk-generate makes 1200-link batches and their QR ZIPs (${batchesRendered} done)`,
          busy,
          `p99 ${p99Ratio.toFixed(2)}× (a) (rounds: ${busy.map((r, i) => (r.p99 / ours[i]!.p99).toFixed(2)).join(', ')})`,
        ),
        [
          'scans in Postgres / requests completed by the load generator',
          `${recorded} / ${sent}`,
          '',
          '',
          `+${recorded - sent} answered after the generator's cut-off`,
        ],
        ["(a): all of a run's scans in Postgres, after its load stopped", `${(median(drainMs) / 1000).toFixed(1)} s`, '', '', ''],
      ],
    );
  } finally {
    rendering = false;
    await closeQueues(queues);
    redis.disconnect();
    await stopServers();
    await stopProcess(apiProcess);
    await stopProcess(worker);
    await database.close();
  }
}
