/**
 * Migration 0014 (scan counters in link_counters) on a database that already has counted links:
 * every link keeps its counts, and links inserted afterwards, one at a time or many in one
 * statement, get their counters row from the trigger. Runs on a database of its own.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDatabase } from '#platform/database/migrate.js';
import { databaseAtMigration, freshDatabase } from '../../support/migration-db.js';

const url = new URL(process.env.DATABASE_URL!);
url.pathname = `${url.pathname}_counters_migration`;

let client: pg.Client;
let accountId = '';
const counted = new Map<string, { scans: number; humans: number; last: string | null }>();

beforeAll(async () => {
  await databaseAtMigration(url, 13);
  client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  accountId = (await client.query<{ id: string }>(`insert into accounts (name, plan) values ('old', 'pro') returning id`)).rows[0]!.id;
  const { rows } = await client.query<{ id: string; scans: string; humans: string; last: string | null }>(
    `insert into links (account_id, slug, name, type, meta_data, qr_options, scan_count, human_scan_count, last_scanned_at)
     select $1, 'old' || g, 'Link ' || g, 'website', '{}', '{}', g * 10, g * 7,
       case when g > 1 then '2026-01-01T00:00:00Z'::timestamptz + (g || ' hours')::interval end
     from generate_series(1, 5) g
     returning id, scan_count as scans, human_scan_count as humans, last_scanned_at::text as last`,
    [accountId],
  );
  for (const r of rows) counted.set(r.id, { scans: Number(r.scans), humans: Number(r.humans), last: r.last });
  await migrateDatabase(url.toString());
}, 60_000);

afterAll(async () => {
  await client?.end();
  await freshDatabase(url, false);
});

const countersOf = async (ids: string[]) =>
  (
    await client.query<{ link_id: string; account_id: string; scans: string; humans: string; last: string | null }>(
      `select link_id, account_id, scan_count as scans, human_scan_count as humans, last_scanned_at::text as last
       from link_counters where link_id = any($1::uuid[])`,
      [ids],
    )
  ).rows;

describe('migration 0014: scan counters in a table of their own', () => {
  it('keeps every existing link counts', async () => {
    const rows = await countersOf([...counted.keys()]);
    expect(rows).toHaveLength(counted.size);
    for (const r of rows) {
      expect(r.account_id).toBe(accountId);
      expect({ scans: Number(r.scans), humans: Number(r.humans), last: r.last }).toEqual(counted.get(r.link_id));
    }
    const { rows: columns } = await client.query(
      `select column_name from information_schema.columns where table_name = 'links' and column_name in ('scan_count', 'human_scan_count', 'last_scanned_at')`,
    );
    expect(columns).toEqual([]);
  });

  it('gives links inserted afterwards a zero counters row, one link or many per statement', async () => {
    const one = await client.query<{ id: string }>(
      `insert into links (account_id, slug, name, type, meta_data, qr_options) values ($1, 'new1', 'New', 'website', '{}', '{}') returning id`,
      [accountId],
    );
    const many = await client.query<{ id: string }>(
      `insert into links (account_id, slug, name, type, meta_data, qr_options)
       select $1, 'many' || g, 'Many ' || g, 'website', '{}', '{}' from generate_series(1, 300) g returning id`,
      [accountId],
    );
    const ids = [...one.rows, ...many.rows].map((r) => r.id);
    const rows = await countersOf(ids);
    expect(rows).toHaveLength(301);
    for (const r of rows) expect([r.account_id, Number(r.scans), Number(r.humans), r.last]).toEqual([accountId, 0, 0, null]);
    // A link's counters go with it.
    await client.query('delete from links where id = any($1::uuid[])', [ids]);
    expect(await countersOf(ids)).toEqual([]);
  });
});
