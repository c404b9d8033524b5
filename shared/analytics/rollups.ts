/**
 * The analytics rollups (db/schema.ts: link_scan_hours, account_scan_rollups, scan_visitor_days):
 * how scans enter them and leave them. Ingestion adds a statement's new scans in that same
 * statement (shared/scans/ingest.ts), and deleting a link takes its scans back out in the
 * deleting transaction, so a rollup always equals a count over the raw rows it stands for.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';

/** account_scan_rollups.dimension: what `value` holds. */
export const ACCOUNT_DIMENSIONS = { all: 0, browser: 1, os: 2, country: 3, city: 4, link: 5 } as const;

/** scans.visitor_firsts bits. */
export const FIRST_ON_LINK = 1;
export const FIRST_ON_ACCOUNT = 2;

/**
 * First of the advisory lock pair ingestion takes per account (the second is the account id's
 * hash). It serialises the writers of one account's rollup rows, which would otherwise deadlock
 * when two worker processes upsert the same hour rows in different orders. Taken after the link
 * rows are locked, in account order, by ingestion and by link deletion alike.
 */
export const ACCOUNT_ROLLUP_LOCK = 7_340_001;

/**
 * The rows of `source` (scans columns: account_id, link_id, created_at, is_bot, browser_name,
 * os_name, country_name, city, visitor_firsts) as account rollup rows, one per dimension value,
 * per UTC hour and per UTC day. Nulls become '' (rollup keys are never null).
 */
function accountRollupRows(source: string): string {
  return `
  select i.account_id, d.dimension, g.grain, date_trunc(g.grain, i.created_at, 'UTC') as bucket, i.is_bot, d.value,
    count(*)::int as scans, (count(*) filter (where d.dimension = ${ACCOUNT_DIMENSIONS.all} and i.visitor_firsts & ${FIRST_ON_ACCOUNT} <> 0))::int as visitors
  from ${source} i
  cross join (values ('hour'), ('day')) as g(grain)
  cross join lateral (values
    (${ACCOUNT_DIMENSIONS.all}, ''),
    (${ACCOUNT_DIMENSIONS.browser}, coalesce(i.browser_name, '')),
    (${ACCOUNT_DIMENSIONS.os}, coalesce(i.os_name, '')),
    (${ACCOUNT_DIMENSIONS.country}, coalesce(i.country_name, '')),
    (${ACCOUNT_DIMENSIONS.city}, coalesce(i.city, '')),
    (${ACCOUNT_DIMENSIONS.link}, i.link_id::text)
  ) as d(dimension, value)
  group by 1, 2, 3, 4, 5, 6`;
}

/**
 * Common table expressions that add the scans of the CTE `inserted` (the scans a statement has just
 * inserted) to both rollups. Rows go in key order, so concurrent writers of one link (already
 * serialised by its row lock) or one account (by ACCOUNT_ROLLUP_LOCK) meet them in the same order.
 */
export const ADD_INSERTED_TO_ROLLUPS = `
link_rollup as (
  insert into link_scan_hours as r (link_id, hour, is_bot, browser_name, os_name, country_name, city, scans, visitors)
  select link_id, date_trunc('hour', created_at, 'UTC'), is_bot, coalesce(browser_name, ''), coalesce(os_name, ''),
    coalesce(country_name, ''), coalesce(city, ''), count(*), count(*) filter (where visitor_firsts & ${FIRST_ON_LINK} <> 0)
  from inserted group by 1, 2, 3, 4, 5, 6, 7 order by 1, 2, 3, 4, 5, 6, 7
  on conflict (link_id, hour, is_bot, browser_name, os_name, country_name, city)
  do update set scans = r.scans + excluded.scans, visitors = r.visitors + excluded.visitors
),
account_rollup as (
  insert into account_scan_rollups as r (account_id, dimension, grain, bucket, is_bot, value, scans, visitors)
  select * from (${accountRollupRows('inserted')}) rows order by 1, 2, 3, 4, 5, 6
  on conflict (account_id, dimension, grain, bucket, is_bot, value)
  do update set scans = r.scans + excluded.scans, visitors = r.visitors + excluded.visitors
)`;

/**
 * Takes a link's scans out of its account's rollups and drops the link's own rollup rows and
 * visitor keys; call in the transaction that deletes the link's scans, with the link row locked,
 * before the scans go. The account's visitors lose the ones first seen on this link that day
 * (their later scans on other links that day were not marked first: a small undercount).
 */
export async function retractLinkFromRollups(tx: Pick<Database, 'execute'>, link: { id: string; accountId: string }): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${ACCOUNT_ROLLUP_LOCK}, hashtext(${link.accountId}::text))`);
  const [before, after] = accountRollupRows(SOURCE).split(SOURCE);
  await tx.execute(sql`
    update account_scan_rollups r set scans = r.scans - g.scans, visitors = r.visitors - g.visitors
    from (${sql.raw(before!)}(select * from scans where link_id = ${link.id})${sql.raw(after!)}) g
    where r.account_id = g.account_id and r.dimension = g.dimension and r.grain = g.grain and r.bucket = g.bucket
      and r.is_bot = g.is_bot and r.value = g.value`);
  // The link's own rows of the by-link dimension are empty now. Other emptied rows stay (readers
  // leave out values whose sum is 0): finding them would read the account's every row.
  await tx.execute(
    sql`delete from account_scan_rollups where account_id = ${link.accountId} and dimension = ${ACCOUNT_DIMENSIONS.link} and value = ${link.id}`,
  );
  await tx.execute(sql`delete from link_scan_hours where link_id = ${link.id}`);
  await tx.execute(sql`delete from scan_visitor_days where scope_id = ${link.id}`);
}

/** Where the scans to retract go in accountRollupRows' text. */
const SOURCE = '/*source*/';

/** Visitor keys are needed only while their day can still get scans: today and yesterday (UTC). */
export async function pruneVisitorDays(db: Pick<Database, 'execute'>, now: Date = new Date()): Promise<number> {
  const result = await db.execute(sql`delete from scan_visitor_days where day < (${now.toISOString()}::timestamptz at time zone 'UTC')::date - 2`);
  return result.rowCount ?? 0;
}
