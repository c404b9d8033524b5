/**
 * GET /api/v1/links?size=1000 on an account with 100,000 links (target: < 150 ms), with each
 * sort and a search, against a bare Fastify route answering the same 1000-link JSON from memory
 * (the cost of moving that much JSON at all), measured in the same run.
 */
import { eq, sql } from 'drizzle-orm';
import { createDatabase } from '#infra/database.js';
import type { DatabaseHandle } from '#domain/database.js';
import { accounts } from '#domain/schema.js';
import { createAccount } from '#domain/accounts/accounts.js';
import { createApiKey } from '#domain/accounts/api-keys.js';
import { withQrDefaults } from '#domain/qr/options.js';
import { freshDatabase, printTable, startBenchApi, startJsonBaseline, stopProcess } from './support.js';

const LINKS = Number(process.env.BENCH_LINKS ?? 100_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 15);
const TARGET_MS = 150;

async function timeRequests(url: string, headers: Record<string, string>): Promise<{ median: number; p95: number; bytes: number }> {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < SAMPLES + 2; i++) {
    const start = performance.now();
    const res = await fetch(url, { headers });
    const body = await res.arrayBuffer();
    const ms = performance.now() - start;
    if (!res.ok) throw new Error(`${url} answered ${res.status}`);
    bytes = body.byteLength;
    if (i >= 2) times.push(ms); // the first two warm caches and the JIT
  }
  times.sort((a, b) => a - b);
  return {
    median: times[Math.floor(times.length / 2)]!,
    p95: times[Math.min(times.length - 1, Math.ceil(times.length * 0.95) - 1)]!,
    bytes,
  };
}

/** `count` realistic links in one statement: varied names, types, dates and scan counts. */
export async function seedLinks(database: DatabaseHandle, accountId: string, count: number): Promise<void> {
  const qr = JSON.stringify(withQrDefaults({}, 'http://localhost:3001/xxxxxxx'));
  await database.db.execute(sql`
    insert into links (account_id, slug, name, type, meta_data, qr_options, created_at, updated_at)
    select ${accountId}, 'b' || substr(md5(${accountId} || g::text), 1, 12),
      (array['Table','Menu','Flyer','Poster','Coupon','Event'])[1 + g % 6] || ' ' || g,
      (array['website','sms','email','vcard','menu'])[1 + g % 5],
      jsonb_build_object('url', 'https://example.com/' || g),
      ${qr}::jsonb,
      now() - (g || ' minutes')::interval,
      now() - ((g * 13) % 100000 || ' minutes')::interval
    from generate_series(1, ${count}) g`);
  // Scan counts from 0 to 10,006, spread by the link id.
  await database.db.execute(sql`
    update link_counters set scan_count = abs(('x' || substr(md5(link_id::text), 1, 8))::bit(32)::int) % 10007
    where account_id = ${accountId}`);
}

export async function benchLinksList(): Promise<string> {
  const DATABASE_URL = await freshDatabase('links_list');
  const database = createDatabase(DATABASE_URL, 2);
  // Rows left dead by an earlier run would slow this one; clear them first.
  await database.pool.query('vacuum links');
  const account = await createAccount(database.db, { name: 'bench-list', plan: 'pro' });
  const { key } = await createApiKey(database.db, { accountId: account.id, scopes: ['all'] });
  const seedStart = performance.now();
  await seedLinks(database, account.id, LINKS);
  // Steady state, as autovacuum keeps it: visibility map set (index-only scans) and statistics fresh.
  await database.pool.query('vacuum analyze links');
  const seedMs = performance.now() - seedStart;

  const api = await startBenchApi(DATABASE_URL);
  const headers = { authorization: `Basic ${key}` };
  const base = `${api.origin}/api/v1/links?size=1000`;
  const baseline = await startJsonBaseline(await (await fetch(base, { headers })).text());
  try {
    const floor = await timeRequests(baseline.url, {});
    const rows: Array<Array<string | number>> = [
      [
        'bare Fastify, same 1000-link JSON from memory (baseline)',
        floor.median.toFixed(1),
        floor.p95.toFixed(1),
        (floor.bytes / 1024).toFixed(0),
        '—',
      ],
    ];
    for (const [label, query] of [
      ['default (newest first)', ''],
      ['sort_by=name', '&sort_by=name'],
      ['sort_by=last_modified', '&sort_by=last_modified'],
      ['sort_by=most_visited', '&sort_by=most_visited'],
      ['search=menu 1 (substring, 11k matches)', '&search=menu%201'],
      ['qr_type=sms,vcard & page 40', '&qr_type=sms,vcard&page=40'],
      ['status=active', '&status=active'],
    ] as const) {
      const r = await timeRequests(`${base}${query}`, headers);
      rows.push([
        `qrlinks GET /links?size=1000 ${label}`,
        r.median.toFixed(1),
        r.p95.toFixed(1),
        (r.bytes / 1024).toFixed(0),
        r.median < TARGET_MS ? 'yes' : 'NO',
      ]);
    }
    return printTable(
      `links list: ${LINKS.toLocaleString('en')} links in one account (seeded in ${(seedMs / 1000).toFixed(1)} s), one connection, median of ${SAMPLES}`,
      ['request', 'median ms', 'p95 ms', 'KiB', `< ${TARGET_MS} ms`],
      rows,
    );
  } finally {
    await stopProcess(api.child);
    await stopProcess(baseline.child);
    await database.db.delete(accounts).where(eq(accounts.id, account.id));
    await database.close();
  }
}
