/**
 * Migration 0015 (a link's totals from its hour rows) on a database that has a link's all-scans
 * day rows: those go, and every other rollup row, the link's hours and per-dimension days and the
 * account's days, stays. Runs on a database of its own.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDatabase } from '#platform/database/migrate.js';
import { databaseAtMigration, freshDatabase } from '../../support/migration-db.js';

const url = new URL(process.env.DATABASE_URL!);
url.pathname = `${url.pathname}_totals_migration`;

let client: pg.Client;
let accountId = '';
let linkId = '';

/** (scope, dimension, grain, value) of each row written before the migration. */
const ROWS = (account: string, link: string): Array<[string, number, 'hour' | 'day', string]> => [
  [link, 0, 'hour', ''],
  [link, 0, 'day', ''],
  [link, 1, 'day', 'Firefox'],
  [account, 0, 'hour', ''],
  [account, 0, 'day', ''],
  [account, 5, 'day', link],
];

beforeAll(async () => {
  await databaseAtMigration(url, 14);
  client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  accountId = (await client.query<{ id: string }>(`insert into accounts (name, plan) values ('old', 'pro') returning id`)).rows[0]!.id;
  linkId = (
    await client.query<{ id: string }>(
      `insert into links (account_id, slug, name, type, meta_data, qr_options) values ($1, 'old', 'Old', 'website', '{}', '{}') returning id`,
      [accountId],
    )
  ).rows[0]!.id;
  for (const [scope, dimension, grain, value] of ROWS(accountId, linkId))
    await client.query(
      `insert into scan_rollups (scope_id, dimension, grain, bucket, is_bot, value, scans, visitors)
       values ($1, $2, $3, '2026-01-01T00:00:00Z', false, $4, 3, 1)`,
      [scope, dimension, grain, value],
    );
  await migrateDatabase(url.toString());
}, 60_000);

afterAll(async () => {
  await client?.end();
  await freshDatabase(url, false);
});

describe("migration 0015: a link's totals from its hour rows", () => {
  it("drops a link's all-scans day rows and keeps every other row", async () => {
    const { rows } = await client.query<{ scope_id: string; dimension: number; grain: 'hour' | 'day'; value: string }>(
      `select scope_id, dimension, grain, value from scan_rollups`,
    );
    const named = (scope: string, dimension: number, grain: string, value: string) =>
      `${scope === linkId ? 'link' : 'account'} ${dimension} ${grain} ${value === linkId ? 'link' : value}`;
    expect(rows.map((r) => named(r.scope_id, r.dimension, r.grain, r.value)).sort()).toEqual(
      ROWS(accountId, linkId)
        .map((row) => named(...row))
        .filter((row) => row !== 'link 0 day ')
        .sort(),
    );
  });
});
