/**
 * What a list of big links costs the api, and what it costs the other accounts: 1000 landing links
 * of ~500 KB each in one account, BENCH_LIST_CLIENTS (default 4) concurrent
 * GET /api/v1/links?size=1000 (each ~500 MB of JSON, read as fast as the client can), while another
 * account calls GET /api/v1/folders every 50 ms. Reports the api process's resident memory (before,
 * peak during the lists from /proc VmHWM), the lists' time and bytes, and the folders latencies
 * during the lists against the same calls with nothing else running. Linux only (/proc), and
 * needs curl.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { eq, sql } from 'drizzle-orm';
import { createDatabase } from '#infra/database.js';
import { accounts, folders } from '#domain/schema.js';
import { createAccount } from '#domain/accounts/accounts.js';
import { createApiKey } from '#domain/accounts/api-keys.js';
import { withQrDefaults } from '#domain/qr/options.js';
import { freshDatabase, median, printTable, procStatusMb, startBenchApi, stopProcess } from './support.js';

const LINKS = Number(process.env.BENCH_LIST_LINKS ?? 1000);
const HTML_BYTES = Number(process.env.BENCH_LIST_HTML_BYTES ?? 500_000);
const CLIENTS = Number(process.env.BENCH_LIST_CLIENTS ?? 4);
const run = promisify(execFile);

/**
 * Calls `url` every `everyMs` until `stop` resolves; the latency of each call in ms, as curl (a
 * process of its own) measures it, so this process's work reading the lists does not count.
 */
async function probe(url: string, key: string, everyMs: number, stop: Promise<unknown>): Promise<number[]> {
  let stopped = false;
  void stop.then(() => (stopped = true));
  const times: number[] = [];
  while (!stopped) {
    const { stdout } = await run('curl', [
      '-s',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code} %{time_total}',
      '-H',
      `authorization: Basic ${key}`,
      url,
    ]);
    const [status, seconds] = stdout.split(' ');
    if (status !== '200') throw new Error(`${url} answered ${status}`);
    times.push(Number(seconds) * 1000);
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return times;
}

/** Reads a whole response counting its bytes (without holding them) and checks its JSON frame. */
async function drain(url: string, headers: Record<string, string>): Promise<{ bytes: number; ms: number }> {
  const start = performance.now();
  const res = await fetch(url, { headers });
  if (!res.ok || !res.body) throw new Error(`${url} answered ${res.status}`);
  let bytes = 0;
  let head = Buffer.alloc(0);
  let tail = Buffer.alloc(0);
  // Only the ends are looked at: decoding 500 MB here would load this process (which also
  // measures the other account's calls) far more than the api.
  for await (const chunk of res.body) {
    bytes += chunk.byteLength;
    if (head.length < 9) head = Buffer.concat([head, chunk.subarray(0, 9)]);
    tail = Buffer.concat([tail, chunk.subarray(-64)]).subarray(-64);
  }
  if (!head.toString().startsWith('{"data":[') || !/\],"meta":\{"currentPage":1,"totalPages":\d+\}\}$/.test(tail.toString())) {
    throw new Error(`${url}: not the list JSON (${head} … ${tail})`);
  }
  return { bytes, ms: performance.now() - start };
}

const pct = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(values.length * p) - 1)]!;

export async function benchLinksListMemory(): Promise<string> {
  const DATABASE_URL = await freshDatabase('links_list_memory');
  const database = createDatabase(DATABASE_URL, 2);
  const big = await createAccount(database.db, { name: 'bench-big-list', plan: 'pro' });
  const other = await createAccount(database.db, { name: 'bench-other', plan: 'pro' });
  const bigKey = (await createApiKey(database.db, { accountId: big.id, scopes: ['all'] })).key;
  const otherKey = (await createApiKey(database.db, { accountId: other.id, scopes: ['all'] })).key;
  const qr = JSON.stringify(withQrDefaults({}, 'http://localhost:3001/xxxxxxx'));
  const seedStart = performance.now();
  // Landing pages of HTML_BYTES each, different per link (md5 of the index in every paragraph).
  await database.db.execute(sql`
    insert into links (account_id, slug, name, type, meta_data, qr_options)
    select ${big.id}, 'm' || substr(md5(${big.id} || g::text), 1, 12), 'Landing ' || g, 'landing',
      jsonb_build_object('landingHTML', left(repeat('<p>' || md5(g::text) || ' lorem ipsum dolor sit amet</p>', ${Math.ceil(HTML_BYTES / 60)}), ${HTML_BYTES})),
      ${qr}::jsonb
    from generate_series(1, ${LINKS}) g`);
  await database.db.insert(folders).values(Array.from({ length: 20 }, (_, i) => ({ accountId: other.id, name: `Folder ${i}` })));
  await database.pool.query('vacuum analyze links');
  const seedMs = performance.now() - seedStart;

  const api = await startBenchApi(DATABASE_URL);
  const pid = api.child.pid!;
  const listUrl = `${api.origin}/api/v1/links?size=1000`;
  const foldersUrl = `${api.origin}/api/v1/folders`;
  const bigHeaders = { authorization: `Basic ${bigKey}` };
  try {
    // Warm up: one small page of the big account, and folders alone for the quiet reference.
    await drain(`${api.origin}/api/v1/links?size=5`, bigHeaders);
    const quiet = await probe(foldersUrl, otherKey, 50, new Promise((r) => setTimeout(r, 3000)));
    const rssBefore = await procStatusMb(pid, 'VmRSS');
    const hwmBefore = await procStatusMb(pid, 'VmHWM');

    const start = performance.now();
    const lists = Promise.all(Array.from({ length: CLIENTS }, () => drain(listUrl, bigHeaders)));
    const during = await probe(
      foldersUrl,
      otherKey,
      50,
      lists.catch(() => {}),
    );
    const results = await lists;
    const wallMs = performance.now() - start;
    const peak = await procStatusMb(pid, 'VmHWM');
    const rows: Array<Array<string | number>> = [
      ['api resident memory before the lists (MB)', rssBefore.toFixed(0)],
      [
        `api peak resident memory (VmHWM) during ${CLIENTS} concurrent lists (MB)`,
        `${peak.toFixed(0)}${hwmBefore >= peak ? ' (peak reached before the lists)' : ''}`,
      ],
      ['bytes per list response (MB)', (results[0]!.bytes / 1e6).toFixed(0)],
      [`time for all ${CLIENTS} lists (s)`, (wallMs / 1000).toFixed(1)],
      ['GET /folders of another account, quiet: median / p95 (ms)', `${median(quiet).toFixed(1)} / ${pct(quiet, 0.95).toFixed(1)}`],
      [
        `GET /folders of another account during the lists: median / p95 / max (ms, ${during.length} calls)`,
        `${median(during).toFixed(1)} / ${pct(during, 0.95).toFixed(1)} / ${Math.max(...during).toFixed(1)}`,
      ],
    ];
    return printTable(
      `links list memory: ${LINKS} landing links of ${(HTML_BYTES / 1000).toFixed(0)} KB (seeded in ${(seedMs / 1000).toFixed(1)} s), ${CLIENTS} concurrent GET /links?size=1000`,
      ['figure', 'value'],
      rows,
    );
  } finally {
    await stopProcess(api.child);
    await database.db.delete(accounts).where(eq(accounts.id, big.id));
    await database.db.delete(accounts).where(eq(accounts.id, other.id));
    await database.close();
  }
}
