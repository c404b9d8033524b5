/**
 * Migration 0011 (device type as a rollup dimension) on a database that already has scans: scans
 * recorded before it, rolled up by migration 0004 without device types, count in the device
 * ranking afterwards, per link and account-wide, and every other answer stays what the raw rows
 * say; scans ingested after it land in the rebuilt link_scan_hours. Runs on a database of its own.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '#infra/database.js';
import type { DatabaseHandle } from '#domain/database.js';
import { migrateDatabase } from '#platform/database/migrate.js';
import { RANKED_DIMENSIONS, activityAnalytics, rankedAnalytics, type RankedDimension } from '#domain/analytics/analytics.js';
import { analyticsQuerySchema } from '#api/routes/analytics/schemas.js';
import { analyticsWindow } from '#domain/analytics/window.js';
import { encodeScanBatch } from '#domain/scans/batch.js';
import { ingestScanBatches } from '#domain/scans/ingest.js';
import { rollLinkDays } from '#domain/analytics/rollups.js';
import { databaseAtMigration, freshDatabase, migrateUpTo } from '../../support/migration-db.js';

const url = new URL(process.env.DATABASE_URL!);
url.pathname = `${url.pathname}_device_migration`;
const DAY = 86_400_000;
const DEVICES = ['mobile', 'tablet', 'desktop', null];
const COLUMNS: Record<string, string> = {
  os: 'os_name',
  country: 'country_name',
  city: 'city',
  browser: 'browser_name',
  device: 'device_type',
};

let handle: DatabaseHandle;
const old = { account: '', links: [] as Array<{ id: string; slug: string }> };

beforeAll(async () => {
  // Scans recorded before the rollups existed; migration 0004 rolls them up, without device types.
  await databaseAtMigration(url, 3);
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>(`insert into accounts (name, plan) values ('old', 'pro') returning id`);
    old.account = rows[0]!.id;
    const { rows: links } = await client.query<{ id: string; slug: string }>(
      `insert into links (account_id, slug, name, type, meta_data, qr_options)
       select $1, 'dev' || g, 'Link ' || g, 'website', '{}', '{}' from generate_series(1, 3) g returning id, slug`,
      [old.account],
    );
    old.links = links;
    // 2000 scans over the last three days, every combination of link, device, browser and bot.
    await client.query(
      `insert into scans (id, link_id, account_id, created_at, browser_name, device_type, os_name, country_name, city, is_bot)
       select gen_random_uuid(), ($2::uuid[])[1 + g % 3], $1, now() - (g * 127 || ' seconds')::interval,
         (array['Chrome', 'Firefox', null])[1 + g % 5 % 3], (array['mobile', 'tablet', 'desktop', null])[1 + g % 7 % 4],
         (array['Android', 'iOS', null])[1 + g % 11 % 3], 'Germany', (array['Berlin', null])[1 + g % 2], g % 13 = 0
       from generate_series(1, 2000) g`,
      [old.account, links.map((l) => l.id)],
    );
  } finally {
    await client.end();
  }
  await migrateUpTo(url, 10);
  await migrateDatabase(url.toString());
  handle = createDatabase(url.toString(), 2);
}, 60_000);

afterAll(async () => {
  await handle?.close();
  await freshDatabase(url, false);
});

const queryOf = (timezone: string) => {
  const date = (ms: number) => new Intl.DateTimeFormat('sv-SE', { timeZone: timezone, dateStyle: 'short' }).format(ms);
  return analyticsQuerySchema.parse({
    duration: 'custom',
    date_from: date(Date.now() - 4 * DAY),
    date_to: date(Date.now()),
    timezone,
    exclude_bots: 'false',
    limit: '1000',
  });
};

/** Every ranking and the hour series against counts over the raw rows, account-wide and per link. */
async function expectRollupsEqualRaw() {
  for (const timezone of ['UTC', 'Asia/Kolkata']) {
    const query = queryOf(timezone);
    const window = analyticsWindow(query);
    for (const scope of [
      { linkSlug: undefined, where: 'account_id', id: old.account },
      ...old.links.map((l) => ({ linkSlug: l.slug, where: 'link_id', id: l.id })),
    ]) {
      const params = [window.from, window.to, scope.id];
      for (const [endpoint, dimension] of Object.entries(RANKED_DIMENSIONS)) {
        const { rows } = await handle.pool.query<{ name: string; scans: number }>(
          `select coalesce(${COLUMNS[dimension]}, 'Unknown') collate "C" as name, count(*)::int as scans from scans
           where ${scope.where} = $3 and created_at >= $1 and created_at < $2 group by 1 order by 2 desc, 1`,
          params,
        );
        const answer = await rankedAnalytics(
          handle.db,
          { accountId: old.account, linkSlug: scope.linkSlug },
          query,
          endpoint as RankedDimension,
        );
        expect(
          answer.data.map((r) => [r.name, r.scans]),
          `${endpoint} ${scope.linkSlug ?? 'account'} ${timezone}`,
        ).toEqual(rows.map((r) => [r.name, r.scans]));
      }
    }
  }
  const hours = await handle.pool.query<{ link_id: string; scans: number; visitors: number; raw: number; raw_visitors: number }>(
    `select h.link_id, h.scans, h.visitors, r.n as raw, r.visitors as raw_visitors
     from (select link_id, sum(scans)::int as scans, sum(visitors)::int as visitors from link_scan_hours group by 1) h
     join (select link_id, count(*)::int as n, (count(*) filter (where visitor_firsts & 1 <> 0))::int as visitors from scans group by 1) r using (link_id)`,
  );
  expect(hours.rows).toHaveLength(3);
  for (const r of hours.rows) expect([r.scans, r.visitors]).toEqual([r.raw, r.raw_visitors]);
}

describe('migration 0011: device type rollups for scans recorded before it', () => {
  it('counts old scans by device, per link and account-wide, and keeps every other answer', async () => {
    const devices = await rankedAnalytics(handle.db, { accountId: old.account }, queryOf('UTC'), 'device');
    expect(devices.data.map((r) => r.name).sort()).toEqual(['Unknown', 'desktop', 'mobile', 'tablet']);
    expect(devices.data.reduce((n, r) => n + r.scans, 0)).toBe(2000);
    await expectRollupsEqualRaw();
  });

  it('takes new scans into the rebuilt rollups, hour series included', async () => {
    const now = Date.now();
    const events = Array.from({ length: 300 }, (_, i) => ({
      id: randomUUID(),
      linkId: old.links[i % 3]!.id,
      accountId: old.account,
      at: now - i * 60_000,
      browserName: i % 2 ? 'Chrome' : null,
      deviceType: DEVICES[i % 4]!,
      deviceVendor: null,
      osName: null,
      countryName: null,
      region: null,
      city: null,
      isBot: false,
      visitorKey: `v${i % 17}`,
    }));
    const result = await ingestScanBatches(handle.pool, [encodeScanBatch(events)]);
    expect(result.inserted).toBe(300);
    await expectRollupsEqualRaw();
    const activity = await activityAnalytics(handle.db, { accountId: old.account }, queryOf('Asia/Kolkata'));
    expect(activity.data.Hour!.y.reduce((a, b) => a + b, 0)).toBe(2300);
  });

  it("migration 0013: leaves today's link day rows of existing accounts in place, so a roll tomorrow adds nothing twice", async () => {
    const { rows } = await handle.pool.query<{ from: string; tomorrow: string }>(
      `select link_days_from::text as from, ((now() at time zone 'UTC')::date + 1)::text as tomorrow from accounts where id = $1`,
      [old.account],
    );
    expect(rows[0]!.from).toBe(rows[0]!.tomorrow);
    // The next UTC day's roll: today's rows were written by ingestion, so it must not add them again.
    await rollLinkDays(handle.db, new Date(Date.parse(`${rows[0]!.tomorrow}T00:30:00Z`)));
    await expectRollupsEqualRaw();
    const { rows: fresh } = await handle.pool.query<{ from: string; today: string }>(
      `insert into accounts (name, plan) values ('new', 'pro') returning link_days_from::text as from, (now() at time zone 'UTC')::date::text as today`,
    );
    expect(fresh[0]!.from).toBe(fresh[0]!.today);
  });
});
