/**
 * Migration 0016 (raw scans and visitor keys partitioned by month) on a database with rows: every
 * row survives, in its month's partition; a scan inserted again is still not counted twice; and the
 * maintenance job makes months ahead, moves rows out of the default partition into their month, and
 * drops months past SCAN_RETENTION_DAYS while the rollups stay. Runs on a database of its own.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '#infra/database.js';
import type { DatabaseHandle } from '#domain/database.js';
import { maintainScanPartitions } from '#domain/scans/partitions.js';
import { databaseAtMigration, freshDatabase, migrateUpTo } from '../../support/migration-db.js';

const url = new URL(process.env.DATABASE_URL!);
url.pathname = `${url.pathname}_scan_partitions`;
const DAY = 86_400_000;
const now = new Date();
const yearAgo = new Date(now.getTime() - 365 * DAY);

let handle: DatabaseHandle;
let client: pg.Client;
let link = '';
let account = '';
const partitionOf = async (table: string, where: string) =>
  (await client.query<{ p: string }>(`select tableoid::regclass::text as p from ${table} where ${where}`)).rows.map((r) => r.p);
const partitions = async (table: string) =>
  (
    await client.query<{ name: string }>(
      `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent where p.relname = $1 order by 1`,
      [table],
    )
  ).rows.map((r) => r.name);
const month = (at: Date, offset = 0) => {
  const d = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + offset, 1));
  return `${d.getUTCFullYear()}_${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
};

beforeAll(async () => {
  await databaseAtMigration(url, 15);
  client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  account = (await client.query<{ id: string }>(`insert into accounts (name, plan) values ('old', 'pro') returning id`)).rows[0]!.id;
  link = (
    await client.query<{ id: string }>(
      `insert into links (account_id, slug, name, type, meta_data, qr_options) values ($1, 'part1', 'L', 'website', '{}', '{}') returning id`,
      [account],
    )
  ).rows[0]!.id;
  // 300 scans a year ago, 200 now; visitor keys of both days; a rollup row of the old month.
  await client.query(
    `insert into scans (id, link_id, account_id, created_at, browser_name, is_bot, visitor_firsts)
     select gen_random_uuid(), $1, $2, case when g <= 300 then $3::timestamptz else $4::timestamptz end + g * interval '1 second', 'Firefox', g % 7 = 0, g % 3
     from generate_series(1, 500) g`,
    [link, account, yearAgo.toISOString(), now.toISOString()],
  );
  await client.query(`insert into scan_visitor_days (day, scope_id, visitor_key) values ($1::date, $3, 'a'), ($2::date, $3, 'b')`, [
    yearAgo.toISOString(),
    now.toISOString(),
    link,
  ]);
  await client.query(
    `insert into scan_rollups (scope_id, dimension, grain, bucket, is_bot, value, scans, visitors) values ($1, 0, 'day', $2, false, '', 300, 0)`,
    [account, yearAgo.toISOString()],
  );
}, 120_000);

afterAll(async () => {
  await client?.end();
  await handle?.close();
  await freshDatabase(url, false);
});

describe('migration 0016: scans partitioned by month', () => {
  it('keeps every row, each in its month, and the rollups as they were', async () => {
    const before = (await client.query(`select * from scans order by id`)).rows;
    const visitorsBefore = (await client.query(`select * from scan_visitor_days order by day`)).rows;
    await migrateUpTo(url, 16);
    handle = createDatabase(url.toString(), 2);
    expect((await client.query(`select * from scans order by id`)).rows).toEqual(before);
    expect((await client.query(`select * from scan_visitor_days order by day`)).rows).toEqual(visitorsBefore);
    expect(new Set(await partitionOf('scans', `created_at < '${now.toISOString()}'::timestamptz - interval '1 day'`))).toEqual(
      new Set([`scans_p${month(yearAgo)}`]),
    );
    expect(new Set(await partitionOf('scans', `created_at >= '${now.toISOString()}'`))).toEqual(new Set([`scans_p${month(now)}`]));
    // This month and the next three are there ahead of their scans.
    expect(await partitions('scans')).toEqual(
      expect.arrayContaining([0, 1, 2, 3].map((n) => `scans_p${month(now, n)}`).concat(`scans_p${month(yearAgo)}`, 'scans_default')),
    );
    expect((await client.query(`select scans from scan_rollups where scope_id = $1`, [account])).rows).toEqual([{ scans: 300 }]);
  });

  it('still counts a scan inserted again once: the ingest key is (id, created_at), and a scan keeps both', async () => {
    const { rows } = await client.query<{ id: string; created_at: Date }>(`select id, created_at from scans limit 1`);
    const again = await client.query(
      `insert into scans (id, link_id, account_id, created_at) values ($1, $2, $3, $4) on conflict (id, created_at) do nothing`,
      [rows[0]!.id, link, account, rows[0]!.created_at],
    );
    expect(again.rowCount).toBe(0);
    expect(Number((await client.query(`select count(*) from scans`)).rows[0].count)).toBe(500);
  });

  it('maintenance moves a month out of the default partition, and drops months past retention', async () => {
    // A scan far ahead of the months made: kept in the default partition, never refused.
    const ahead = new Date(now.getTime() + 400 * DAY);
    const id = randomUUID();
    await client.query(`insert into scans (id, link_id, account_id, created_at) values ($1, $2, $3, $4)`, [id, link, account, ahead]);
    expect(await partitionOf('scans', `id = '${id}'`)).toEqual(['scans_default']);
    // The maintenance run of that month makes its partition and moves the scan into it.
    const atThen = await maintainScanPartitions(handle.db, 0, ahead);
    expect(atThen.created).toContain(`scans_p${month(ahead)}`);
    // Retention 0 drops no scans; visitor keys go by the month once two days past.
    expect(atThen.dropped).toContain(`scan_visitor_days_p${month(yearAgo)}`);
    for (const dropped of atThen.dropped) expect(dropped < `scan_visitor_days_p${month(ahead)}`, dropped).toBe(true);
    expect(await partitionOf('scans', `id = '${id}'`)).toEqual([`scans_p${month(ahead)}`]);
    // Retention 0 keeps every scan.
    expect(Number((await client.query(`select count(*) from scans`)).rows[0].count)).toBe(501);

    // 90 days: the year-old month goes whole, this month stays, the rollups stay.
    const changes = await maintainScanPartitions(handle.db, 90, now);
    expect(changes.dropped).toContain(`scans_p${month(yearAgo)}`);
    expect(await partitions('scans')).not.toContain(`scans_p${month(yearAgo)}`);
    expect(Number((await client.query(`select count(*) from scans`)).rows[0].count)).toBe(201);
    expect((await client.query(`select scans from scan_rollups where scope_id = $1`, [account])).rows).toEqual([{ scans: 300 }]);
    // Twice in a row changes nothing more.
    expect(await maintainScanPartitions(handle.db, 90, now)).toEqual({ created: [], dropped: [] });
  });
});
