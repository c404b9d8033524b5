/**
 * Webhook delivery under a steady stream of scans (target: one endpoint keeps up with 1,000
 * scans/s in batches). A worker process ingests scans fed into the `scans` queue at BENCH_RATE
 * (default 1,000/s) for BENCH_SECONDS (default 20), as the redirect's recorder would, in one
 * account's links; a receiver on loopback takes every `link.scanned` delivery and notes when each
 * scan arrived. Two cases in the same run:
 *   (base) no endpoint: the worker's CPU per 1,000 scans ingested, the baseline;
 *   (hook) one endpoint taking `link.scanned`: the same, the scans delivered per second while fed,
 *          the delay from a scan to its delivery (p50, p99), deliveries made and scans per delivery;
 *   (hung) the same, while another account's endpoint never answers and is sent BENCH_HUNG_RATE
 *          (default 20) events a second: the first endpoint's delay should stay (hook)'s.
 * BENCH_RUNS rounds (default 1); medians.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';
import { createAccount } from '#domain/accounts/accounts.js';
import { createDatabase } from '#infra/database.js';
import { encodeScanBatch } from '#domain/scans/batch.js';
import { SCAN_JOB_OPTIONS } from '#infra/scans/scan-jobs.js';
import { createEndpoint } from '#domain/webhooks/endpoints.js';
import { recordEvent } from '#domain/webhooks/events.js';
import { makeScans, seedLinks, untilQueueEmpty } from './scans.js';
import { freshDatabase, median, percentile, printTable, processCpuSeconds, startWorker, stopProcess } from './support.js';

const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = 'qrlinks-bench-webhooks';
const RATE = Number(process.env.BENCH_RATE ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const RUNS = Number(process.env.BENCH_RUNS ?? 1);
/** Scans per job, one job every 100 ms: what a recorder's flushes add up to at this rate. */
const TICK_MS = 100;
const HUNG_RATE = Number(process.env.BENCH_HUNG_RATE ?? 20);

interface CaseResult {
  cpuPer1000: number;
  deliveredPerSecond: number | null;
  p50: number | null;
  p99: number | null;
  deliveries: number | null;
  perDelivery: number | null;
}

/** A receiver that reads each request and never answers. */
async function hungReceiver() {
  const held = new Set<import('node:http').ServerResponse>();
  let requests = 0;
  const server = createServer((req, res) => {
    requests++;
    req.resume();
    held.add(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of held) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function receiver() {
  const arrived = new Map<string, number>();
  let deliveries = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const now = Date.now();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { scans: Array<{ id: string }> } };
      deliveries++;
      for (const scan of body.data.scans) if (!arrived.has(scan.id)) arrived.set(scan.id, now);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrived,
    deliveries: () => deliveries,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function runCase(withHook: boolean, withHung = false): Promise<CaseResult> {
  const DATABASE_URL = await freshDatabase('webhooks');
  const database = createDatabase(DATABASE_URL, 4);
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const queue = new Queue('scans', { connection: redis, prefix: PREFIX });
  await queue.obliterate({ force: true });
  const hook = await receiver();
  const account = await createAccount(database.db, { name: 'bench', plan: 'enterprise' });
  const links = await seedLinks(pool, account.id);
  if (withHook) {
    await createEndpoint(database.db, { WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32', WEBHOOK_TIMEOUT_MS: 10_000 }, account.id, {
      url: hook.url,
      events: ['link.scanned'],
    });
  }
  const hung = withHung ? await hungReceiver() : null;
  let hungAccount: string | null = null;
  if (hung) {
    hungAccount = (await createAccount(database.db, { name: 'bench-hung', plan: 'enterprise' })).id;
    await createEndpoint(database.db, { WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32', WEBHOOK_TIMEOUT_MS: 10_000 }, hungAccount, {
      url: hung.url,
      events: ['link.created'],
    });
  }
  const worker = await startWorker({
    DATABASE_URL,
    REDIS_URL,
    REDIS_NAMESPACE: PREFIX,
    MIGRATE_ON_START: 'false',
    WORKER_NICE: '0',
    WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32',
  });
  const sent = new Map<string, number>();
  const cpuBefore = await processCpuSeconds(worker.pid!);
  const started = Date.now();
  const perTick = Math.round((RATE * TICK_MS) / 1000);
  for (let tick = 0; tick < (SECONDS * 1000) / TICK_MS; tick++) {
    const due = started + tick * TICK_MS;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const scans = makeScans(account.id, links, perTick).map((s) => ({ ...s, at: Date.now() }));
    if (hungAccount) {
      const events = Math.round((HUNG_RATE * TICK_MS) / 1000);
      for (let e = 0; e < events; e++) await recordEvent(database.db, { accountId: hungAccount, type: 'link.created', data: { tick, e } });
    }
    for (const s of scans) sent.set(s.id, s.at);
    await queue.add('batch', encodeScanBatch(scans), SCAN_JOB_OPTIONS);
  }
  const fedFor = (Date.now() - started) / 1000;
  await untilQueueEmpty(queue);
  let delivered: number | null = null;
  if (withHook) {
    const deadline = Date.now() + 60_000;
    while (hook.arrived.size < sent.size && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    // What arrived while scans were still being fed: the rate the endpoint was kept up at.
    const fedUntil = started + fedFor * 1000;
    delivered = [...hook.arrived.values()].filter((at) => at <= fedUntil).length / fedFor;
  }
  const cpu = (await processCpuSeconds(worker.pid!)) - cpuBefore;
  const delays = [...hook.arrived].map(([id, at]) => at - sent.get(id)!);
  await stopProcess(worker);
  await hook.close();
  await hung?.close();
  await queue.close();
  await redis.quit();
  await pool.end();
  await database.close();
  return {
    cpuPer1000: (cpu / sent.size) * 1000,
    deliveredPerSecond: delivered,
    p50: withHook ? percentile(delays, 0.5) : null,
    p99: withHook ? percentile(delays, 0.99) : null,
    deliveries: withHook ? hook.deliveries() : null,
    perDelivery: withHook ? hook.arrived.size / hook.deliveries() : null,
  };
}

export async function benchWebhooks(): Promise<string> {
  const base: CaseResult[] = [];
  const hooked: CaseResult[] = [];
  const beside: CaseResult[] = [];
  for (let run = 0; run < RUNS; run++) {
    base.push(await runCase(false));
    hooked.push(await runCase(true));
    beside.push(await runCase(true, true));
  }
  const m = (rs: CaseResult[], k: keyof CaseResult) => {
    const values = rs.map((r) => r[k]).filter((v): v is number => v !== null);
    return values.length ? median(values) : null;
  };
  const fmt = (v: number | null, digits = 0) => (v === null ? '–' : v.toFixed(digits));
  const baseCpu = m(base, 'cpuPer1000')!;
  const row = (name: string, rs: CaseResult[]) => [
    name,
    fmt(m(rs, 'cpuPer1000'), 3),
    fmt(m(rs, 'cpuPer1000')! / baseCpu, 2),
    fmt(m(rs, 'deliveredPerSecond')),
    fmt(m(rs, 'p50')),
    fmt(m(rs, 'p99')),
    fmt(m(rs, 'deliveries')),
    fmt(m(rs, 'perDelivery'), 1),
  ];
  const rows = [
    ['(base) no endpoint', fmt(baseCpu, 3), '1.00', '–', '–', '–', '–', '–'],
    row('(hook) one endpoint, link.scanned', hooked),
    row(`(hung) the same, another account's endpoint hung, ${HUNG_RATE} events/s to it`, beside),
  ];
  return printTable(
    `Webhooks: ${RATE} scans/s for ${SECONDS} s into one account (${RUNS} round${RUNS === 1 ? '' : 's'}, medians)`,
    [
      'case',
      'worker CPU s / 1,000 scans',
      'of base',
      'scans delivered /s while fed',
      'delay p50 ms',
      'delay p99 ms',
      'deliveries',
      'scans / delivery',
    ],
    rows,
  );
}
