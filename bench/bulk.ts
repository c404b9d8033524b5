/**
 * Bulk generation (targets: the answer with all 1200 ids in < 1 s; the batch's QR ZIP ready in
 * < 10 s): `POST /bulk-generate` with 1200 website records through a real api and a real worker
 * process, timed from the request to its answer (the api waits for the job) and on to the job's
 * result carrying `qrZipUrl` (every code rendered as PNG and SVG into one ZIP in storage).
 *
 * Baseline in the same run: the same 1200 links made by 1200 single `POST /links` over 16
 * connections. Runs alternate (baseline, bulk) so both see the same machine; medians of BENCH_RUNS.
 */
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase } from '#infra/database.js';
import { createAccount } from '#domain/accounts/accounts.js';
import { createApiKey } from '#domain/accounts/api-keys.js';
import { freePort, freshDatabase, median, printTable, sendOverConnections, startServer, startWorker } from './support.js';

const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = 'qrlinks-bench-bulk';
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const LINKS = 1200;
const CONNECTIONS = 16;
const ANSWER_TARGET_MS = 1000;
const ZIP_TARGET_MS = 10_000;

interface BulkRun {
  answerMs: number;
  zipMs: number;
  zipBytes: number;
}

const records = (run: number) =>
  Array.from({ length: LINKS }, (_, i) => ({ name: `Table ${i + 1}`, url: `https://example.com/menu?run=${run}&table=${i + 1}` }));

async function bulkRun(api: string, key: string, run: number): Promise<BulkRun> {
  const headers = { authorization: `Basic ${key}`, 'content-type': 'application/json' };
  const start = performance.now();
  const res = await fetch(`${api}/api/v1/bulk-generate`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ type: 'website', data: records(run) }),
  });
  const answerMs = performance.now() - start;
  const body = (await res.json()) as { count?: number; links?: unknown[]; jobId?: string };
  if (res.status !== 200 || body.count !== LINKS || body.links?.length !== LINKS) {
    throw new Error(`bulk-generate answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
  }
  for (;;) {
    const job = (await (await fetch(`${api}/api/v1/jobs/${body.jobId}`, { headers })).json()) as {
      state: string;
      error?: string;
      result?: { qrZipUrl?: string; qrZipBytes?: number };
    };
    if (job.state === 'failed') throw new Error(`bulk job failed: ${job.error}`);
    if (job.result?.qrZipUrl) {
      const zipMs = performance.now() - start;
      const zip = await fetch(job.result.qrZipUrl, { headers });
      if (!zip.ok) throw new Error(`the ZIP answered ${zip.status}`);
      return { answerMs, zipMs, zipBytes: (await zip.arrayBuffer()).byteLength };
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** 1200 single POST /links, CONNECTIONS at a time; resolves to the wall time of all of them. */
async function singlesRun(api: string, key: string, run: number): Promise<number> {
  const headers = { authorization: `Basic ${key}`, 'content-type': 'application/json' };
  return sendOverConnections(records(run), CONNECTIONS, (r) =>
    fetch(`${api}/api/v1/links`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: r.name, type: 'website', data: { url: r.url } }),
    }),
  );
}

export async function benchBulk(): Promise<string> {
  const DATABASE_URL = await freshDatabase('bulk');
  const database = createDatabase(DATABASE_URL, 2);
  const storageDir = await mkdtemp(join(tmpdir(), 'qrlinks-bench-bulk-'));
  const port = await freePort();
  const api = `http://127.0.0.1:${port}`;
  // PUBLIC_API_URL: the ZIP's URL in the job's result must reach this api.
  const env = {
    DATABASE_URL,
    REDIS_URL,
    REDIS_NAMESPACE: PREFIX,
    STORAGE_DIR: storageDir,
    MIGRATE_ON_START: 'false',
    LOG_LEVEL: 'warn',
    PUBLIC_API_URL: `${api}/api/v1`,
  };
  const apiProcess = await startServer('api/server.ts', { ...env, PORT: String(port), RATE_LIMIT_MAX: '100000000' }, `${api}/health`);
  const worker = await startWorker(env);
  try {
    const account = await createAccount(database.db, { name: 'bench-bulk', plan: 'pro' });
    const { key } = await createApiKey(database.db, { accountId: account.id, scopes: ['all'], expiresAt: null }, 100);
    // A warm-up of each, so neither side pays for first plans, JIT and the render threads' start.
    await singlesRun(api, key, -1);
    await bulkRun(api, key, -2);
    const singles: number[] = [];
    const bulks: BulkRun[] = [];
    for (let run = 0; run < RUNS; run++) {
      singles.push(await singlesRun(api, key, run * 2));
      bulks.push(await bulkRun(api, key, run * 2 + 1));
    }
    const base = median(singles);
    const answer = median(bulks.map((b) => b.answerMs));
    const zip = median(bulks.map((b) => b.zipMs));
    const s = (ms: number) => (ms / 1000).toFixed(2);
    const runs = (values: number[]) => values.map(s).join(', ');
    return printTable(
      `bulk: ${LINKS} website links, one api and one worker process, medians of ${RUNS} runs (the runs' figures in brackets)`,
      ['how', 's', 'links/s', '× baseline (speed)', 'target'],
      [
        [
          `${LINKS} single POST /links over ${CONNECTIONS} connections (baseline) [${runs(singles)}]`,
          s(base),
          Math.round(LINKS / (base / 1000)),
          '1.00',
          '—',
        ],
        [
          `POST /bulk-generate: the answer with all ${LINKS} ids [${runs(bulks.map((b) => b.answerMs))}]`,
          s(answer),
          Math.round(LINKS / (answer / 1000)),
          (base / answer).toFixed(2),
          `< 1 s: ${answer < ANSWER_TARGET_MS ? 'yes' : 'NO'}`,
        ],
        [
          `… and its ZIP (PNG + SVG each, ${(median(bulks.map((b) => b.zipBytes)) / 1e6).toFixed(1)} MB) ready, from the request [${runs(bulks.map((b) => b.zipMs))}]`,
          s(zip),
          Math.round(LINKS / (zip / 1000)),
          '—',
          `< 10 s: ${zip < ZIP_TARGET_MS ? 'yes' : 'NO'}`,
        ],
      ],
    );
  } finally {
    worker.kill('SIGTERM');
    apiProcess.kill('SIGTERM');
    await Promise.all([once(worker, 'exit'), once(apiProcess, 'exit')]);
    await database.close();
    await rm(storageDir, { recursive: true, force: true });
  }
}
