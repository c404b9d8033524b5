/**
 * The analytics rollups (domain/schema.ts: scan_rollups, link_scan_hours, scan_visitor_days):
 * how scans enter them and leave them. Ingestion adds a statement's new scans in that same
 * statement (domain/scans/ingest.ts), and deleting a link takes its scans back out in the
 * deleting transaction, so a rollup always equals a count over the raw rows it stands for.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../database.js';

/** scan_rollups.dimension: what `value` holds ('' for all scans, a link id for link). */
export const ROLLUP_DIMENSIONS = {
  all: 0,
  browser: 1,
  os: 2,
  country: 3,
  city: 4,
  link: 5,
  device: 6,
  source: 7,
  placement: 8,
  referrer: 9,
  campaign: 10,
} as const;

/**
 * Where scans came from (domain/links/attribution.ts): kept for a link as for its account, per UTC
 * hour and per UTC day in scan_rollups, not in link_scan_hours, whose rows hold every visitor fact
 * together: one more fact there would multiply a busy link's rows by its referrers and placements.
 */
export const ORIGIN_DIMENSIONS = ['source', 'placement', 'referrer', 'campaign'] as const;
export type OriginDimension = (typeof ORIGIN_DIMENSIONS)[number];

/** The hourly rows' column of each origin dimension. */
const ORIGIN_COLUMNS: Record<OriginDimension, string> = {
  source: 'source',
  placement: 'placement',
  referrer: 'referrer_host',
  campaign: 'utm_campaign',
};

/** scans.visitor_firsts bits. */
export const FIRST_ON_LINK = 1;
export const FIRST_ON_ACCOUNT = 2;

/**
 * First of the advisory lock pair taken per account (the second is the account id's hash), after
 * the link rows are locked, in account order. Ingestion takes it shared: writers of one account's
 * different links run side by side (their shared rows are upserted in key order, in the last
 * statement before commit: domain/scans/ingest.ts). Deleting a link and closing an account's days
 * take it exclusive: they rewrite or read the account's rows as a whole, so they wait for the
 * ingestions in flight and hold back new ones meanwhile.
 */
export const ACCOUNT_ROLLUP_LOCK = 7_340_001;

/**
 * Scans (columns of `scans`) grouped per link, UTC hour and visitor facts: the rows of
 * link_scan_hours, and what the account's rows are summed from. Nulls become '' (rollup keys are
 * never null).
 */
function hourlyRows(scans: string): string {
  return `
  select account_id, link_id, date_trunc('hour', created_at, 'UTC') as hour, is_bot, coalesce(browser_name, '') as browser_name,
    coalesce(os_name, '') as os_name, coalesce(country_name, '') as country_name, coalesce(city, '') as city,
    coalesce(device_type, '') as device_type, coalesce(source, '') as source, coalesce(placement_id::text, '') as placement,
    coalesce(referrer_host, '') as referrer_host, coalesce(utm_campaign, '') as utm_campaign, count(*)::int as scans,
    (count(*) filter (where visitor_firsts & ${FIRST_ON_LINK} <> 0))::int as link_visitors,
    (count(*) filter (where visitor_firsts & ${FIRST_ON_ACCOUNT} <> 0))::int as account_visitors
  from ${scans} group by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13`;
}

/** scan_rollups.dimension of a grouping-sets row: the one fact it is grouped by, else all scans. */
const dimensionOf = (extra = '') => {
  const { all, browser, os, country, city, device } = ROLLUP_DIMENSIONS;
  return `case when grouping(browser_name) = 0 then ${browser} when grouping(os_name) = 0 then ${os}
        when grouping(country_name) = 0 then ${country} when grouping(city) = 0 then ${city}
        when grouping(device_type) = 0 then ${device}${extra} else ${all} end`;
};

/** scan_rollups.dimension of a grouping-sets row over the origin columns alone. */
const originDimensionOf = () =>
  `case ${ORIGIN_DIMENSIONS.map((d) => `when grouping(${ORIGIN_COLUMNS[d]}) = 0 then ${ROLLUP_DIMENSIONS[d]}`).join(' ')} end`;
const ORIGIN_VALUE = `coalesce(${ORIGIN_DIMENSIONS.map((d) => ORIGIN_COLUMNS[d]).join(', ')})`;

/**
 * A link's origin-dimension rows per UTC hour, as a common table expression over rows shaped like
 * hourlyRows' in `hourly`; LINK_ORIGIN_ROWS adds their day rows. Written at ingestion whatever the
 * day: unlike the visitor facts, there is no link_scan_hours row to read them from later.
 */
function linkOriginHours(hourly: string): string {
  const sets = ORIGIN_DIMENSIONS.map((d) => `(link_id, hour, is_bot, ${ORIGIN_COLUMNS[d]})`).join(', ');
  return `link_origin_hours as materialized (
    select link_id as scope_id, hour, is_bot, ${originDimensionOf()} as dimension, ${ORIGIN_VALUE} as value, sum(scans)::int as scans
    from ${hourly} h group by grouping sets (${sets})
  ), `;
}

const LINK_ORIGIN_ROWS = `
  select scope_id, dimension, 'hour', hour, is_bot, value, scans, 0 from link_origin_hours
  union all
  select scope_id, dimension, 'day', date_trunc('day', hour, 'UTC'), is_bot, value, sum(scans)::int, 0
  from link_origin_hours group by scope_id, dimension, date_trunc('day', hour, 'UTC'), is_bot, value`;

/**
 * A link's day rows of every dimension but all scans (browser, OS, country, city, device type),
 * summed from rows shaped like link_scan_hours (link_id, hour, is_bot, the facts, scans) in
 * `hours`. Ingestion writes them for days before the account's link_days_from, and rollLinkDays
 * for the days it closes, from the same grouping, so either way a day's rows are the same.
 */
function linkDimensionDays(hours: string): string {
  const sets = ['browser_name', 'os_name', 'country_name', 'city', 'device_type']
    .map((d) => `(link_id, date_trunc('day', hour, 'UTC'), is_bot, ${d})`)
    .join(', ');
  return `
  select link_id as scope_id, ${dimensionOf()} as dimension, 'day' as grain, date_trunc('day', hour, 'UTC') as bucket, is_bot,
    coalesce(browser_name, os_name, country_name, city, device_type) as value, sum(scans)::int as scans, 0 as visitors
  from ${hours} h
  group by grouping sets (${sets})`;
}

/** accounts.link_days_from of account `a` as the instant its UTC day starts. */
export const linkDaysFrom = (a: string) => `(${a}.link_days_from::timestamp at time zone 'UTC')`;

/**
 * hourlyRows as scan_rollups rows. For the account (scope = account id): one per dimension value,
 * per UTC hour and per UTC day. For each link (scope = link id): all scans per UTC hour, and one
 * per dimension value per UTC day for days before the account's link_days_from (later days are
 * read from link_scan_hours until rollLinkDays closes them: a day's rows are written once, not once
 * per batch). A link has no all-scans day rows: its totals are read from its hour rows, a year's
 * 17,520 of them in a few milliseconds, which spares every statement an upsert per link it touches
 * (docs/decisions/0357-a-link-s-totals-from-its-hour-rows.md). Grouping sets sum each dimension in
 * one pass over the hourly rows; day rows are summed from hour rows.
 * `prelude`: common table expressions the rows need first (ending with a comma). `rows`: all of
 * them, or only those of one link (its own, and its account's link-dimension rows, which name it),
 * or only those of an account shared by all its links (every other dimension).
 */
function rollupRows(hourly: string, prelude = '', rows: 'all' | 'per link' | 'account-wide' = 'all'): string {
  const { all, link } = ROLLUP_DIMENSIONS;
  const origins = ORIGIN_DIMENSIONS.map((d) => `, ${ORIGIN_COLUMNS[d]}`);
  const dimensions = {
    all: ['', ', browser_name', ', os_name', ', country_name', ', city', ', device_type', ...origins, ', link_id'],
    'per link': [', link_id'],
    'account-wide': ['', ', browser_name', ', os_name', ', country_name', ', city', ', device_type', ...origins],
  }[rows];
  const sets = dimensions.map((d) => `(account_id, hour, is_bot${d})`).join(', ');
  // grouping() may only name columns of the grouping sets.
  const originCases = ORIGIN_DIMENSIONS.map((d) => ` when grouping(${ORIGIN_COLUMNS[d]}) = 0 then ${ROLLUP_DIMENSIONS[d]}`).join('');
  const dimension =
    rows === 'per link' ? String(link) : dimensionOf(`${originCases}${rows === 'all' ? ` when grouping(link_id) = 0 then ${link}` : ''}`);
  const originValues = ORIGIN_DIMENSIONS.map((d) => `, ${ORIGIN_COLUMNS[d]}`).join('');
  const value =
    rows === 'per link'
      ? 'link_id::text'
      : `coalesce(browser_name, os_name, country_name, city, device_type${originValues}${rows === 'all' ? ', link_id::text' : ''}, '')`;
  const closedDays = `(select h.* from ${hourly} h join accounts a on a.id = h.account_id where h.hour < ${linkDaysFrom('a')})`;
  const accountRows = `
  with ${prelude}${rows === 'account-wide' ? '' : linkOriginHours(hourly)}account_hours as materialized (
    select account_id as scope_id, hour, is_bot, ${dimension} as dimension, ${value} as value,
      sum(scans)::int as scans, sum(account_visitors)::int as visitors
    from ${hourly} h
    group by grouping sets (${sets})
  )
  select scope_id, dimension, 'hour' as grain, hour as bucket, is_bot, value, scans,
    case when dimension = ${all} then visitors else 0 end as visitors
  from account_hours
  union all
  select scope_id, dimension, 'day', date_trunc('day', hour, 'UTC'), is_bot, value, sum(scans)::int,
    case when dimension = ${all} then sum(visitors)::int else 0 end
  from account_hours group by scope_id, dimension, date_trunc('day', hour, 'UTC'), is_bot, value`;
  if (rows === 'account-wide') return accountRows;
  return `${accountRows}
  union all
  select link_id, ${all}, 'hour', hour, is_bot, '', sum(scans)::int, sum(link_visitors)::int
  from ${hourly} h group by link_id, hour, is_bot
  union all${LINK_ORIGIN_ROWS}
  union all${linkDimensionDays(closedDays)}`;
}

/**
 * Common table expressions that add the scans of the CTE `inserted` (the scans a statement has just
 * inserted) to the rollups of their links, and sum in `account_wide_rows` what they add to the rows
 * their account's links share (upserted by UPSERT_ACCOUNT_WIDE_ROWS, in the transaction's last
 * statement). A link's rows have one writer at a time (its row lock), so they are written in no
 * particular order.
 */
export const ADD_INSERTED_TO_ROLLUPS = `
inserted_hours as materialized (${hourlyRows('inserted')}),
account_wide_rows as (${rollupRows('inserted_hours', '', 'account-wide')}),
link_rollup as (
  insert into link_scan_hours as r (link_id, hour, is_bot, browser_name, os_name, country_name, city, device_type, scans, visitors)
  select link_id, hour, is_bot, browser_name, os_name, country_name, city, device_type, sum(scans)::int, sum(link_visitors)::int
  from inserted_hours
  group by link_id, hour, is_bot, browser_name, os_name, country_name, city, device_type
  on conflict (link_id, hour, is_bot, browser_name, os_name, country_name, city, device_type)
  do update set scans = r.scans + excluded.scans, visitors = r.visitors + excluded.visitors
),
scan_rollup as (
  insert into scan_rollups as r (scope_id, dimension, grain, bucket, is_bot, value, scans, visitors)
  ${rollupRows('inserted_hours', '', 'per link')}
  on conflict (scope_id, dimension, grain, bucket, is_bot, value)
  do update set scans = r.scans + excluded.scans, visitors = r.visitors + excluded.visitors
)`;

/**
 * Adds `account_wide_rows` (as JSON, $1) to scan_rollups in key order: every writer of an account's
 * shared rows takes their locks in the same order, so writers of different links never deadlock,
 * and, being its transaction's last statement, each holds them only until its commit.
 */
export const UPSERT_ACCOUNT_WIDE_ROWS = `
insert into scan_rollups as r (scope_id, dimension, grain, bucket, is_bot, value, scans, visitors)
select scope_id, dimension, grain, bucket, is_bot, value, scans, visitors
from json_to_recordset($1::json)
  as t(scope_id uuid, dimension smallint, grain text, bucket timestamptz, is_bot boolean, value text, scans int, visitors int)
order by scope_id, dimension, grain, bucket, is_bot, value
on conflict (scope_id, dimension, grain, bucket, is_bot, value)
do update set scans = r.scans + excluded.scans, visitors = r.visitors + excluded.visitors`;

/**
 * Takes a link's scans out of its account's rollups and drops the link's own rollup rows (its
 * visitor keys go with their day's pruning); call in the transaction that deletes the link's scans,
 * with the link row locked, before the scans go. The account's visitors lose the ones first seen on this link that day
 * (their later scans on other links that day were not marked first: a small undercount).
 */
export async function retractLinkFromRollups(tx: Pick<Database, 'execute'>, link: { id: string; accountId: string }): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${ACCOUNT_ROLLUP_LOCK}, hashtext(${link.accountId}::text))`);
  // The account's rows lose what the link's scans added; the link's own rows go whole.
  const [before, after] = rollupRows('gone_hours', `gone_hours as materialized (${hourlyRows(SOURCE)}), `).split(SOURCE);
  await tx.execute(sql`
    update scan_rollups r set scans = r.scans - g.scans, visitors = r.visitors - g.visitors
    from (${sql.raw(before!)}(select * from scans where link_id = ${link.id}) s${sql.raw(after!)}) g
    where g.scope_id = ${link.accountId} and r.scope_id = g.scope_id and r.dimension = g.dimension and r.grain = g.grain
      and r.bucket = g.bucket and r.is_bot = g.is_bot and r.value = g.value`);
  // Other emptied account rows stay (readers leave out values whose sum is 0): finding them would
  // read the account's every row.
  await tx.execute(
    sql`delete from scan_rollups where scope_id = ${link.accountId} and dimension = ${ROLLUP_DIMENSIONS.link} and value = ${link.id}`,
  );
  await tx.execute(sql`delete from scan_rollups where scope_id = ${link.id}`);
  await tx.execute(sql`delete from link_scan_hours where link_id = ${link.id}`);
}

/** Where the scans to retract go in accountRollupRows' text. */
const SOURCE = '/*source*/';

/**
 * Closes the UTC days before `now`'s for every account whose link_days_from is older: adds its
 * links' per-dimension day rows of [link_days_from, today) from link_scan_hours and moves
 * link_days_from to today, in one transaction per account under its rollup lock (so no batch of
 * its scans is written meanwhile, and a lock is held for one account's days only). A roll that
 * runs again, or after another worker's, finds the account's days closed and does nothing.
 * Returns the accounts rolled and the rows written.
 */
export async function rollLinkDays(db: Database, now: Date = new Date()): Promise<{ accounts: number; rows: number }> {
  const today = now.toISOString().slice(0, 10);
  const due = await db.execute<{ id: string }>(sql`select id from accounts where link_days_from < ${today}::date order by id`);
  let rows = 0;
  let accounts = 0;
  for (const { id } of due.rows) {
    rows += await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${ACCOUNT_ROLLUP_LOCK}, hashtext(${id}::text))`);
      // A statement of its own after the lock: its snapshot holds every batch committed before.
      const added = await tx.execute<{ n: number; moved: number }>(sql`
        with account as (select id, link_days_from from accounts where id = ${id} and link_days_from < ${today}::date),
        closed as (
          select h.* from account a join links l on l.account_id = a.id join link_scan_hours h on h.link_id = l.id
          where h.hour >= ${sql.raw(linkDaysFrom('a'))} and h.hour < (${today}::date::timestamp at time zone 'UTC')
        ),
        added as (
          insert into scan_rollups as r (scope_id, dimension, grain, bucket, is_bot, value, scans, visitors)
          ${sql.raw(linkDimensionDays('closed'))}
          on conflict (scope_id, dimension, grain, bucket, is_bot, value)
          do update set scans = r.scans + excluded.scans
          returning 1
        ),
        moved as (update accounts set link_days_from = ${today}::date where id = (select id from account) returning 1)
        select (select count(*)::int from added) as n, (select count(*)::int from moved) as moved`);
      accounts += added.rows[0]!.moved;
      return added.rows[0]!.n;
    });
  }
  return { accounts, rows };
}

/** Visitor keys serve only scans still to come for their day: today's, yesterday's, and the day before's (a batch delayed by an outage) are kept. */
export async function pruneVisitorDays(db: Pick<Database, 'execute'>, now: Date = new Date()): Promise<number> {
  const result = await db.execute(
    sql`delete from scan_visitor_days where day < (${now.toISOString()}::timestamptz at time zone 'UTC')::date - 2`,
  );
  return result.rowCount ?? 0;
}
