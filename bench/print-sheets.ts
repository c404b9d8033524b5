/**
 * Print sheets (target: 1,200 codes to a sheet in < 30 s, issue 47), in the same run as the bulk
 * QR ZIP they are compared with: `POST /bulk-generate` of 1,200 website links through a real api
 * and worker process, timed to its ZIP (every code as PNG and SVG), then `POST /print-sheets`
 * `{bulkJobId}` (A4, 30 mm codes with captions, crop marks) timed from the request until
 * `GET /jobs/:id` shows it completed, and the PDF downloaded. The sheet is one render task (one
 * pdfkit document on one thread: decision 0441), so its time is the single thread's.
 */
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase } from '#infra/database.js';
import { createAccount } from '#domain/accounts/accounts.js';
import { createApiKey } from '#domain/accounts/api-keys.js';
import { freePort, freshDatabase, median, printTable, startServer, startWorker } from './support.js';

const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = 'qrlinks-bench-sheets';
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const LINKS = 1200;
const SHEET_TARGET_MS = 30_000;

interface SheetRun {
  zipMs: number;
  sheetMs: number;
  pdfBytes: number;
  pages: number;
}

type Job = {
  state: string;
  error?: string;
  progress: number;
  result?: { qrZipUrl?: string; downloadUrl?: string; pages?: number; links?: unknown[] };
};

async function pollJob(api: string, headers: Record<string, string>, jobId: string, done: (job: Job) => boolean): Promise<Job> {
  for (;;) {
    const job = (await (await fetch(`${api}/api/v1/jobs/${jobId}`, { headers })).json()) as Job;
    if (job.state === 'failed') throw new Error(`job ${jobId} failed: ${job.error}`);
    if (done(job)) return job;
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function sheetRun(api: string, key: string, run: number): Promise<SheetRun> {
  const headers = { authorization: `Basic ${key}`, 'content-type': 'application/json' };
  const data = Array.from({ length: LINKS }, (_, i) => ({
    name: `Table ${i + 1}`,
    url: `https://example.com/menu?run=${run}&table=${i + 1}`,
  }));
  const start = performance.now();
  const bulk = await fetch(`${api}/api/v1/bulk-generate`, { method: 'POST', headers, body: JSON.stringify({ type: 'website', data }) });
  const { jobId: bulkJobId } = (await bulk.json()) as { jobId: string };
  await pollJob(api, headers, bulkJobId, (j) => !!j.result?.qrZipUrl);
  const zipMs = performance.now() - start;

  const sheetStart = performance.now();
  const res = await fetch(`${api}/api/v1/print-sheets`, {
    method: 'POST',
    headers: { ...headers, prefer: 'respond-async' },
    body: JSON.stringify({ bulkJobId, paper: 'a4', sizeMm: 30, cropMarks: true }),
  });
  const accepted = (await res.json()) as { jobId?: string };
  if (res.status !== 202 || !accepted.jobId)
    throw new Error(`print-sheets answered ${res.status}: ${JSON.stringify(accepted).slice(0, 300)}`);
  const job = await pollJob(api, headers, accepted.jobId, (j) => j.state === 'completed');
  const sheetMs = performance.now() - sheetStart;
  const pdf = await fetch(job.result!.downloadUrl!, { headers });
  if (!pdf.ok) throw new Error(`the sheet answered ${pdf.status}`);
  return { zipMs, sheetMs, pdfBytes: (await pdf.arrayBuffer()).byteLength, pages: job.result!.pages ?? 0 };
}

export async function benchPrintSheets(): Promise<string> {
  const DATABASE_URL = await freshDatabase('sheets');
  const database = createDatabase(DATABASE_URL, 2);
  const storageDir = await mkdtemp(join(tmpdir(), 'qrlinks-bench-sheets-'));
  const port = await freePort();
  const api = `http://127.0.0.1:${port}`;
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
    const account = await createAccount(database.db, { name: 'bench-sheets', plan: 'enterprise' });
    const { key } = await createApiKey(database.db, { accountId: account.id, scopes: ['all'], expiresAt: null }, 100);
    const runs: SheetRun[] = [];
    for (let run = 0; run < RUNS; run++) runs.push(await sheetRun(api, key, run));
    const s = (ms: number) => (ms / 1000).toFixed(2);
    const list = (values: number[]) => values.map(s).join(', ');
    const zip = median(runs.map((r) => r.zipMs));
    const sheet = median(runs.map((r) => r.sheetMs));
    return printTable(
      `print-sheets: ${LINKS} links of one bulk batch, one api and one worker process, medians of ${RUNS} runs (the runs' figures in brackets)`,
      ['what', 's', 'codes/s', 'target'],
      [
        [
          `bulk batch: request to its QR ZIP ready (PNG + SVG each) [${list(runs.map((r) => r.zipMs))}]`,
          s(zip),
          Math.round(LINKS / (zip / 1000)),
          '< 10 s (bulk)',
        ],
        [
          `print sheet of the batch: A4, 30 mm, captions, crop marks, ${runs[0]!.pages} pages, ${(median(runs.map((r) => r.pdfBytes)) / 1e6).toFixed(1)} MB; request to job completed [${list(runs.map((r) => r.sheetMs))}]`,
          s(sheet),
          Math.round(LINKS / (sheet / 1000)),
          `< 30 s: ${sheet < SHEET_TARGET_MS ? 'yes' : 'NO'}`,
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
