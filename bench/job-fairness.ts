/**
 * Fair job queues: one account floods a queue; how long does another account's small job of the
 * same kind take meanwhile? Measured against that job's quiet time in the same run, for two queues:
 * - exports: account A has BENCH_JOB_SCANS (default 100,000) scans and asks for BENCH_JOB_EXPORTS
 *   (default 40) account-wide exports of them (`Prefer: respond-async`); then account B asks for
 *   its own export (no scans: the header only) and waits for the file;
 * - bulk generation: A sends BENCH_JOB_BULKS (default 12) batches of 1,200 links; then B sends a
 *   batch of one link, answered once its link is made.
 * Reports B's time quiet (median of 3) and during A's flood, how A's requests were answered (202,
 * or 429 past JOB_ACCOUNT_QUEUE), and how long A's flood took to finish. The whole service runs as
 * `npm start` runs it, with its default settings (startBenchStack).
 */
import type pg from 'pg';
import { median, printTable, startBenchStack } from './support.js';

const SCANS = Number(process.env.BENCH_JOB_SCANS ?? 100_000);
const EXPORTS = Number(process.env.BENCH_JOB_EXPORTS ?? 40);
const BULKS = Number(process.env.BENCH_JOB_BULKS ?? 12);
const BULK_SIZE = 1200;

/** `rows` human scans of the account's 10 links over the last 40 hours (inside an export's default 48). */
async function seedScans(pool: pg.Pool, accountId: string, rows: number): Promise<void> {
  await pool.query(
    `insert into links (account_id, slug, name, type, meta_data, qr_options)
     select $1, 'f' || substr(md5(random()::text || g), 1, 10), 'Table ' || g, 'website', '{"url":"https://example.com"}', '{}'
     from generate_series(1, 10) g`,
    [accountId],
  );
  await pool.query(
    `with l as (select array_agg(id) ids from links where account_id = $1)
     insert into scans (id, link_id, account_id, created_at, browser_name, device_type, device_vendor, os_name, country_name, region, city, is_bot)
     select gen_random_uuid(), l.ids[1 + g % 10], $1, now() - interval '40 hours' + g * (interval '40 hours' / $2::int),
            'Chrome', 'mobile', 'Apple', 'iOS', 'Germany', 'Bavaria', 'München', false
     from l, generate_series(1, $2::int) g`,
    [accountId, rows],
  );
}

export async function benchJobFairness(): Promise<string> {
  const stack = await startBenchStack('job_fairness');
  try {
    const a = await stack.accountWithKey('bench-flood');
    const b = await stack.accountWithKey('bench-other');
    await seedScans(stack.database.pool, a.id, SCANS);

    const post = async (auth: Record<string, string>, path: string, body: unknown, prefer?: string) => {
      const start = performance.now();
      const res = await fetch(`${stack.api}/api/v1${path}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json', ...(prefer && { prefer }) },
        body: JSON.stringify(body),
      });
      await res.arrayBuffer();
      return { status: res.status, ms: performance.now() - start };
    };
    /** B's request, which must be answered with its result (200), in ms. */
    const timed = async (path: string, body: unknown) => {
      const res = await post(b.auth, path, body);
      if (res.status !== 200) throw new Error(`B's ${path} answered ${res.status}`);
      return res.ms;
    };
    /** A's jobs not finished yet. */
    const unfinished = async () =>
      (
        await stack.database.pool.query<{ n: number }>(
          `select count(*)::int as n from jobs where account_id = $1 and state in ('queued', 'active')`,
          [a.id],
        )
      ).rows[0]!.n;

    async function scenario(label: string, path: string, floodBody: unknown, floods: number, probeBody: unknown) {
      const quiet: number[] = [];
      for (let i = 0; i < 3; i++) quiet.push(await timed(path, probeBody));
      const statuses = new Map<number, number>();
      const start = performance.now();
      for (let i = 0; i < floods; i++) {
        const res = await post(a.auth, path, floodBody, 'respond-async');
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
      const during = await timed(path, probeBody);
      while ((await unfinished()) > 0) await new Promise((r) => setTimeout(r, 200));
      const drained = performance.now() - start;
      return [
        [`${label}: B's job quiet, median of 3 (ms)`, median(quiet).toFixed(0)],
        [`${label}: B's job during A's flood (ms)`, during.toFixed(0)],
        [`${label}: A's ${floods} requests answered`, [...statuses].map(([s, n]) => `${n} × ${s}`).join(', ')],
        [`${label}: A's flood done after (s)`, (drained / 1000).toFixed(1)],
      ];
    }

    const records = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `Seat ${i}`, url: `https://example.com/seat/${i}` }));
    const rows = [
      ...(await scenario(`exports of ${SCANS} scans`, '/analytics/export', {}, EXPORTS, {})),
      ...(await scenario(`bulk batches of ${BULK_SIZE} links`, '/bulk-generate', { type: 'website', data: records(BULK_SIZE) }, BULKS, {
        type: 'website',
        data: records(1),
      })),
    ];
    return printTable(`job-fairness: one account floods a job queue, another asks for one small job`, ['figure', 'value'], rows);
  } finally {
    await stack.stop();
  }
}
