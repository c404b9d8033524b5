/**
 * The worker side of scan recording: batches of scans into Postgres, each write one transaction.
 * A scan's id is its idempotency key, so a batch retried after a crash, a lost lock or an
 * ambiguous failure inserts only what is not there yet, and the link counters grow by exactly the
 * rows this transaction inserted. Its statements, in order:
 *
 *   1. The locks: the batch's links that still exist, in id order (FOR NO KEY UPDATE, which a
 *      deletion of the link waits for), then each account's rollup lock, shared, in account order
 *      (a link deletion or the closing of an account's days takes it exclusive). Taking every lock
 *      up front in one order means two concurrent writers never deadlock, and a link deleted
 *      meanwhile is simply not there.
 *   2. (Just before the transaction, committed at once on a connection of its own.) The visitors
 *      new on their account today: the batch's (day, account, visitor key)s, in key order, into
 *      scan_visitor_days, ON CONFLICT DO NOTHING; the keys it inserted are new, and each marks its earliest scan here. A writer
 *      of another link of the account adding the same key finds it there, so a visitor is first
 *      once however many writers an account has. A transaction that fails after this leaves its
 *      keys claimed: its retry marks none of them, and those visitors are not counted as new on
 *      the account that day (an undercount after a failure, never a double count).
 *   3. The scans whose link exists and belongs to the scan's account (anything else is dropped: a
 *      deleted link's scans have nowhere to go), ON CONFLICT (id, created_at) DO NOTHING (the key
 *      of a table partitioned by month; a scan's created_at comes with its id); from the rows it
 *      inserted, the links' counters (link_counters: scan_count, human_scan_count,
 *      limit_scan_count (human scans that were their visitor's first on the link that day),
 *      last_scanned_at), their visitor keys and the links' rollup rows
 *      (domain/analytics/rollups.ts); and, summed, what the rows add to the account's rows that
 *      all its links share, returned.
 *   4. Those shared rows, upserted in key order.
 *
 * A writer's rows are then its links' own, which one writer per link (the link lock, and the
 * worker's partitions: ScanIngester) keeps from waiting on anyone, and the account's shared rows,
 * locked only by its last statement until its commit: writers of one account's other links wait
 * for each other that long, not for each other's whole statement
 * (docs/decisions/0390-scan-ingestion-partitioned-by-link.md).
 *
 * A statement's snapshot is fixed when it starts, so one that waited for a lock inside itself
 * would not see what the writer it waited for had just committed (visitor keys marked first
 * twice: two workers over-counted uniques by half). The locks are therefore taken by a statement of
 * their own; under READ COMMITTED the later statements see every commit made before them.
 */
import type { Pool } from '#platform/database/raw.js';
import { isUuid } from '#platform/format/ids.js';
import {
  ACCOUNT_ROLLUP_LOCK,
  ADD_INSERTED_TO_ROLLUPS,
  FIRST_ON_ACCOUNT,
  FIRST_ON_LINK,
  UPSERT_ACCOUNT_WIDE_ROWS,
} from '../analytics/rollups.js';
import { FIELDS_PER_SCAN, scanBatchSize, visitorKeyOf } from './batch.js';
import type { Logger } from '#platform/logger.js';
import type { ScanBatchPayload, ScanOriginTuple, ScanVisitorTuple } from './types.js';
import { REFERRER_HOST_MAX, SCAN_SOURCES, UNKNOWN_SOURCE } from '../links/attribution.js';
import { UTM_VALUE_MAX } from '../links/utm-url.js';
import { DELIVERIES_CHANNEL } from '../webhooks/events.js';

export interface IngestResult {
  /** Scans written now (a retried batch's already-written scans are not counted again). */
  inserted: number;
  /** Links whose counters changed. */
  links: number;
  /**
   * Scans refused before Postgres saw them: an id or link that is not a UUID, a time that is not a
   * number, a visitor that is not a visitor, an index pointing nowhere.
   */
  malformed: number;
}

/** What ingestion needs of Postgres: a pool to take one connection from for its transaction. */
type ConnectionSource = Pick<Pool, 'connect'>;

/**
 * The advisory lock a worker takes (without waiting) on a partition of the links while it writes
 * that partition's scans (the second key is the partition): ScanIngester.
 */
export const SCAN_PARTITION_LOCK = 7_340_002;

// The batch's links that still exist, locked in id order. In the ingest statement the locks are
// already held (by LOCK_SQL); it names the links that are there.
const LOCKED_LINKS = `
locked as materialized (
  select links.id, links.account_id, links.slug, links.folder_id, links.scan_limit_active, links.scan_limit from links
  where links.id in (select link_id from batch_links)
  order by links.id
  for no key update
)`;

// The links' locks, then their accounts' rollup locks, shared, in account order: the order every
// writer of rollups takes them in (a link deletion too), so none deadlock.
const LOCK_SQL = `
with batch_links as materialized (
  select (l->>0)::uuid as link_id from json_array_elements($1::json) as t(l)
),${LOCKED_LINKS},
accounts_locked as materialized (
  select account_id, pg_advisory_xact_lock_shared(${ACCOUNT_ROLLUP_LOCK}, hashtext(account_id::text))
  from (select distinct account_id from locked order by account_id) a
)
select count(*) from accounts_locked`;

// In key order, so two writers adding some of the same keys never wait on each other in a circle.
const NEW_ACCOUNT_VISITORS_SQL = `
insert into scan_visitor_days (day, scope_id, visitor_key)
select date '1970-01-01' + d, a, k from unnest($1::int[], $2::uuid[], $3::text[], $4::uuid[]) as t(d, a, k, l)
where exists (select 1 from links where links.id = t.l and links.account_id = t.a)
order by 1, 2, 3
on conflict do nothing
returning (day - date '1970-01-01') as d, scope_id::text as a, visitor_key as k`;

// The rows inserted, queued for each live endpoint of their account that takes `link.scanned`
// (for their link or its folder, when it is limited to some): written by this transaction, so a
// scan is queued exactly once, however often its batch is retried. No endpoint: an empty join.
const QUEUE_FOR_WEBHOOKS = `
webhook_scans as (
  insert into webhook_scan_queue (endpoint_id, scan)
  select e.id, json_build_object(
    'id', i.id, 'at', to_char(i.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'link', l.slug,
    'country', i.country_name, 'city', i.city, 'device', i.device_type, 'os', i.os_name, 'browser', i.browser_name, 'bot', i.is_bot,
    'source', coalesce(i.source, '${UNKNOWN_SOURCE}'), 'placement', p.name, 'referrer', i.referrer_host, 'campaign', i.utm_campaign)
  from inserted i
  join locked l on l.id = i.link_id
  left join link_placements p on p.id = i.placement_id
  join webhook_endpoints e on e.account_id = i.account_id and e.disabled_at is null and 'link.scanned' = any(e.events)
    and ((e.link_ids is null and e.folder_ids is null)
      or i.link_id = any(coalesce(e.link_ids, '{}'))
      or (l.folder_id is not null and l.folder_id = any(coalesce(e.folder_ids, '{}'))))
  order by i.created_at, i.id
  returning 1
)`;

// Links whose scan limit this transaction's scans reached: a `link.scan_limit_reached` delivery
// for each live endpoint that takes it. Once: only the statement that crosses the limit sees it.
const LIMIT_REACHED = `
limit_reached as (
  insert into webhook_deliveries (id, endpoint_id, account_id, event_type, body)
  select 'msg_' || replace(gen_random_uuid()::text, '-', ''), e.id, e.account_id, 'link.scan_limit_reached',
    json_build_object(
      'type', 'link.scan_limit_reached',
      'timestamp', to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'data', json_build_object('id', l.slug, 'scan_limit', l.scan_limit, 'counted_scans', cr.limit_scan_count)
    )::text
  from counted cr
  join locked l on l.id = cr.link_id
  join webhook_endpoints e on e.account_id = l.account_id and e.disabled_at is null and 'link.scan_limit_reached' = any(e.events)
    and ((e.link_ids is null and e.folder_ids is null)
      or l.id = any(coalesce(e.link_ids, '{}'))
      or (l.folder_id is not null and l.folder_id = any(coalesce(e.folder_ids, '{}'))))
  where l.scan_limit_active and l.scan_limit is not null
    and cr.limit_scan_count >= l.scan_limit and cr.limit_scan_count - cr.limit_scans < l.scan_limit
  returning 1
)`;

// batch_links and visitors are materialized: inlined, their ->> extractions would be evaluated
// (each one re-reading the JSON) for every scan joined to them instead of once per entry.
/**
 * The statement, with the CTEs that queue scans and scan limits for webhooks only when an account
 * of the batch has an endpoint that takes them: joined to every inserted scan, they looked costly
 * even with no endpoint anywhere (docs/benchmarks/scans.md, 2026-11-30, not settled).
 */
const ingestSql = (webhooks: boolean) => `
with batch_links as materialized (
  select (n - 1)::int as i, (l->>0)::uuid as link_id, (l->>1)::uuid as account_id
  from json_array_elements($5::json) with ordinality as t(l, n)
),
visitors as materialized (
  select (n - 1)::int as i, v->>0 as browser_name, v->>1 as device_type, v->>2 as device_vendor, v->>3 as os_name,
    v->>4 as country_name, v->>5 as region, v->>6 as city, (v->>7)::boolean as is_bot
  from json_array_elements($6::json) with ordinality as t(v, n)
),
origins as materialized (
  select (n - 1)::int as i, o->>0 as source, (o->>1)::uuid as placement_id, o->>2 as referrer_host, o->>3 as utm_campaign
  from json_array_elements($9::json) with ordinality as t(o, n)
),${LOCKED_LINKS},
src as materialized (
  select s.id, bl.link_id, bl.account_id, to_timestamp(s.at / 1000.0) as created_at, s.visitor_key, s.first_on_account,
    v.browser_name, v.device_type, v.device_vendor, v.os_name, v.country_name, v.region, v.city, v.is_bot,
    o.source, o.placement_id, o.referrer_host, o.utm_campaign
  from unnest($1::uuid[], $2::float8[], $3::int[], $4::int[], $7::text[], $8::boolean[], $10::int[])
    as s(id, at, link, visitor, visitor_key, first_on_account, origin)
  join batch_links bl on bl.i = s.link
  join locked l on l.id = bl.link_id and l.account_id = bl.account_id
  join visitors v on v.i = s.visitor
  join origins o on o.i = s.origin
),
-- A scan is its visitor's first of the UTC day on its link when it is the batch's earliest with
-- that key and the key is not in scan_visitor_days yet. Checked by index look-ups per scan, not by
-- joining back the keys an insert returned: the planner cannot size these CTEs and chose nested
-- loops over them (6 s for 10,000 scans). The link lock, held since the statement before this
-- one, makes the check and the insert below one step: no other writer adds this link's keys
-- meanwhile, and those added before are in this snapshot. (First on the account: statement 2.)
ranked as materialized (
  select src.*, (created_at at time zone 'UTC')::date as day,
    row_number() over (partition by link_id, (created_at at time zone 'UTC')::date, visitor_key order by created_at, id) = 1 as earliest_on_link
  from src
),
marked as materialized (
  select r.*,
    (r.visitor_key is not null and r.earliest_on_link
      and not exists (select 1 from scan_visitor_days d where d.day = r.day and d.scope_id = r.link_id and d.visitor_key = r.visitor_key)) as first_on_link
  from ranked r
),
new_visits as (
  insert into scan_visitor_days (day, scope_id, visitor_key)
  select day, link_id, visitor_key from marked where first_on_link
  on conflict do nothing
),
inserted as (
  insert into scans (id, link_id, account_id, created_at, browser_name, device_type, device_vendor, os_name, country_name, region, city, is_bot, visitor_firsts,
    source, placement_id, referrer_host, utm_campaign)
  select id, link_id, account_id, created_at, browser_name, device_type, device_vendor, os_name, country_name, region, city, is_bot,
    (case when first_on_link then ${FIRST_ON_LINK} else 0 end) + (case when first_on_account then ${FIRST_ON_ACCOUNT} else 0 end),
    source, placement_id, referrer_host, utm_campaign
  from marked
  on conflict (id, created_at) do nothing
  returning id, link_id, account_id, created_at, browser_name, device_type, os_name, country_name, city, is_bot, visitor_firsts,
    source, placement_id, referrer_host, utm_campaign
),${ADD_INSERTED_TO_ROLLUPS},${webhooks ? `${QUEUE_FOR_WEBHOOKS},` : ''}
counts as (
  select link_id, count(*)::int as scans, count(*) filter (where not is_bot)::int as humans,
    count(*) filter (where not is_bot and visitor_firsts & ${FIRST_ON_LINK} <> 0)::int as limit_scans, max(created_at) as last
  from inserted group by link_id
),
counted as (
  update link_counters c set
    scan_count = c.scan_count + counts.scans,
    human_scan_count = c.human_scan_count + counts.humans,
    limit_scan_count = c.limit_scan_count + counts.limit_scans,
    last_scanned_at = greatest(c.last_scanned_at, counts.last)
  from counts where c.link_id = counts.link_id
  returning counts.scans, c.link_id, c.limit_scan_count, counts.limit_scans
)${webhooks ? `,${LIMIT_REACHED}` : ''}
select (select coalesce(sum(scans), 0)::int from counted) as inserted, (select count(*)::int from counted) as links,
  (select json_agg(a) from account_wide_rows a) as account_wide_rows, ${webhooks ? '(select count(*)::int from webhook_scans) + (select count(*)::int from limit_reached)' : '0'} as webhook_scans`;
const INGEST_SQL = ingestSql(false);
const INGEST_SQL_WITH_WEBHOOKS = ingestSql(true);

// Whether an account of the batch has a live endpoint taking scans or scan limits: one indexed look-up.
const HOOKED_SQL = `select exists (
  select 1 from webhook_endpoints
  where disabled_at is null and account_id = any($1::uuid[]) and events && array['link.scanned', 'link.scan_limit_reached']
) as hooked`;

const isText = (value: unknown) => value === null || typeof value === 'string';

function isVisitor(value: unknown): value is ScanVisitorTuple {
  return Array.isArray(value) && value.length === 8 && value.slice(0, 7).every(isText) && typeof value[7] === 'boolean';
}

const SOURCES: ReadonlySet<unknown> = new Set([null, ...SCAN_SOURCES]);
/** Text of at most `max` characters, or null. */
const isShortText = (value: unknown, max: number) => value === null || (typeof value === 'string' && value.length <= max);

/** An origin as the redirect makes them (domain/links/attribution.ts); anything else is read as unknown, never refused. */
function isOrigin(value: unknown): value is ScanOriginTuple {
  return (
    Array.isArray(value) &&
    value.length === 4 &&
    SOURCES.has(value[0]) &&
    (value[1] === null || isUuid(value[1])) &&
    isShortText(value[2], REFERRER_HOST_MAX) &&
    // campaignOf cuts at UTM_VALUE_MAX code points, up to twice as many UTF-16 units.
    isShortText(value[3], 2 * UTM_VALUE_MAX)
  );
}

/** The origin every statement has at index 0: what a scan without one (an older redirect's batch) is. */
const NO_ORIGIN: ScanOriginTuple = [null, null, null, null];

/**
 * Batches as one statement's columns: the scans as parallel arrays (id, time, link index,
 * visitor index, visitor key: null for scans without one), the links and visitors once each. Postgres reads arrays of UUIDs and numbers
 * for a fraction of what twelve named fields per scan in JSON cost it (6.7 against 9.1 µs of
 * backend CPU per scan, measured), and the worker never expands a batch scan by scan.
 * Malformed entries (a hand-made or damaged job) are left out and counted: one of them must not
 * fail its whole batch on every retry.
 */
export function statementColumns(batches: readonly ScanBatchPayload[]) {
  const ids: string[] = [];
  const ats: number[] = [];
  const linkOf: number[] = [];
  const visitorOf: number[] = [];
  const visitorKeys: Array<string | null> = [];
  const originOf: number[] = [];
  const links: Array<[string, string]> = [];
  const visitors: ScanVisitorTuple[] = [];
  const origins: ScanOriginTuple[] = [NO_ORIGIN];
  let malformed = 0;
  for (const batch of batches) {
    const batchLinks: unknown[] = Array.isArray(batch?.links) ? batch.links : [];
    const batchVisitors: unknown[] = Array.isArray(batch?.visitors) ? batch.visitors : [];
    const batchOrigins: unknown[] = Array.isArray(batch?.origins) ? batch.origins : [];
    const batchOriginOf: unknown[] = Array.isArray(batch?.originOf) ? batch.originOf : [];
    const flat: unknown[] = Array.isArray(batch?.scans) ? batch.scans : [];
    // Where each of the batch's links and visitors sits in the statement's; -1 if malformed.
    const linkIndex = batchLinks.map((l) => (Array.isArray(l) && isUuid(l[0]) && isUuid(l[1]) ? links.push([l[0], l[1]]) - 1 : -1));
    const visitorIndex = batchVisitors.map((v) => (isVisitor(v) ? visitors.push(v) - 1 : -1));
    const originIndex = batchOrigins.map((o) => (isOrigin(o) ? origins.push(o) - 1 : 0));
    for (let i = 0; i + FIELDS_PER_SCAN <= flat.length; i += FIELDS_PER_SCAN) {
      const [id, at, link, visitor] = [flat[i], flat[i + 1], flat[i + 2], flat[i + 3]];
      const l = typeof link === 'number' ? (linkIndex[link] ?? -1) : -1;
      const v = typeof visitor === 'number' ? (visitorIndex[visitor] ?? -1) : -1;
      if (!isUuid(id) || typeof at !== 'number' || !Number.isFinite(at) || l < 0 || v < 0) {
        malformed++;
        continue;
      }
      ids.push(id);
      ats.push(at);
      linkOf.push(l);
      visitorOf.push(v);
      visitorKeys.push(visitorKeyOf(batch, i / FIELDS_PER_SCAN));
      const origin = batchOriginOf[i / FIELDS_PER_SCAN];
      originOf.push(typeof origin === 'number' ? (originIndex[origin] ?? 0) : 0);
    }
    // An entry cut off at the end.
    if (flat.length % FIELDS_PER_SCAN !== 0) malformed++;
  }
  return { ids, ats, linkOf, visitorOf, visitorKeys, originOf, links, visitors, origins, malformed };
}

/** Postgres's array literal of values that need no quoting (validated UUIDs, numbers). */
const arrayLiteral = (values: ReadonlyArray<string | number>) => `{${values.join(',')}}`;

type StatementColumns = ReturnType<typeof statementColumns>;

/** The UTC day of an epoch-millisecond time as days since 1970, rounded to microseconds first as Postgres's to_timestamp does. */
const utcDay = (at: number) => Math.floor(Math.round(at * 1000) / 86_400_000_000);

/**
 * Statement 2: the scans that are their visitor's first on their account today. The earliest
 * scan per (account, day, key) is a candidate (if its link is there); the keys Postgres had not
 * seen mark theirs. By id: a scan twice in the statement is inserted once, either copy.
 */
async function firstsOnAccount(db: ConnectionSource, columns: StatementColumns): Promise<boolean[]> {
  const earliest = new Map<string, number>();
  // As Postgres answers them (a batch may spell a UUID in capitals).
  const accounts = columns.links.map(([, accountId]) => accountId.toLowerCase());
  for (let i = 0; i < columns.ids.length; i++) {
    const key = columns.visitorKeys[i];
    const accountId = accounts[columns.linkOf[i]!]!;
    if (key === null) continue;
    const triple = `${utcDay(columns.ats[i]!)} ${accountId} ${key}`;
    const other = earliest.get(triple);
    if (
      other === undefined ||
      columns.ats[i]! < columns.ats[other]! ||
      (columns.ats[i] === columns.ats[other] && columns.ids[i]! < columns.ids[other]!)
    )
      earliest.set(triple, i);
  }
  const firsts = columns.ids.map(() => false);
  if (earliest.size === 0) return firsts;
  const candidates = [...earliest.values()];
  // Committed at once, on a connection of its own: held until this transaction's commit, a key
  // made every other writer adding the same visitor wait for this one's statement of scans, and
  // writers of one account's partitions ran in turns again (docs/benchmarks.md, scan-workers).
  const claim = await db.connect();
  let rows: Array<{ d: number; a: string; k: string }>;
  try {
    ({ rows } = await claim.query<{ d: number; a: string; k: string }>(NEW_ACCOUNT_VISITORS_SQL, [
      candidates.map((i) => utcDay(columns.ats[i]!)),
      candidates.map((i) => columns.links[columns.linkOf[i]!]![1]),
      candidates.map((i) => columns.visitorKeys[i]),
      candidates.map((i) => columns.links[columns.linkOf[i]!]![0]),
    ]));
  } finally {
    claim.release();
  }
  const firstIds = new Set(rows.map((r) => columns.ids[earliest.get(`${r.d} ${r.a} ${r.k}`)!]!));
  return columns.ids.map((id) => firstIds.has(id));
}

/**
 * One transaction of the four statements above. With `partition`, its lock is tried first, and
 * when another worker holds it nothing is written and 'busy' is the answer.
 */
async function writeColumns(
  db: ConnectionSource,
  columns: StatementColumns,
  partition?: number,
  claim: { firsts?: boolean[] } = {},
): Promise<Omit<IngestResult, 'malformed'> | 'busy'> {
  // Before the transaction's connection is taken: concurrent writers holding theirs while
  // waiting for a second one could take the whole pool. Once per part: after 'busy' the keys it
  // inserted are there, its own, and claiming them again would find none new (visitors lost).
  const firsts = (claim.firsts ??= await firstsOnAccount(db, columns));
  const links = JSON.stringify(columns.links);
  const client = await db.connect();
  let result: { inserted: number; links: number };
  try {
    await client.query('begin');
    if (partition !== undefined) {
      const { rows } = await client.query<{ ok: boolean }>('select pg_try_advisory_xact_lock($1, $2) as ok', [
        SCAN_PARTITION_LOCK,
        partition,
      ]);
      if (!rows[0]!.ok) {
        await client.query('rollback');
        client.release();
        return 'busy';
      }
    }
    await client.query(LOCK_SQL, [links]);
    const accounts = [...new Set(columns.links.map(([, accountId]) => accountId))];
    const { rows: hookedRows } = await client.query<{ hooked: boolean }>(HOOKED_SQL, [accounts]);
    const hooked = hookedRows[0]!.hooked;
    const { rows } = await client.query<{ inserted: number; links: number; account_wide_rows: unknown[] | null; webhook_scans: number }>({
      // Planned for each statement, not prepared once: only a plan made with the arrays in hand knows
      // how many scans, links and visitor keys it joins. A prepared statement's generic plan guessed
      // 100 of each and joined the visitor keys and rollups 3-4 times slower (2.9 s per 10,000 scans
      // against 0.8 s); planning takes ~1.5 ms.
      text: hooked ? INGEST_SQL_WITH_WEBHOOKS : INGEST_SQL,
      values: [
        arrayLiteral(columns.ids),
        arrayLiteral(columns.ats),
        arrayLiteral(columns.linkOf),
        arrayLiteral(columns.visitorOf),
        links,
        JSON.stringify(columns.visitors),
        columns.visitorKeys,
        firsts,
        JSON.stringify(columns.origins),
        arrayLiteral(columns.originOf),
      ],
    });
    const { inserted, links: changed, account_wide_rows: shared, webhook_scans: queued } = rows[0]!;
    if (shared) await client.query(UPSERT_ACCOUNT_WIDE_ROWS, [JSON.stringify(shared)]);
    // The dispatcher looks at waiting scans every second anyway; woken, a full batch goes at once.
    if (queued > 0) await client.query('select pg_notify($1, $2)', [DELIVERIES_CHANNEL, '']);
    await client.query('commit');
    result = { inserted, links: changed };
  } catch (err) {
    // A connection that cannot even roll back is dropped from the pool rather than reused.
    const rolledBack = await client.query('rollback').then(
      () => true,
      () => false,
    );
    client.release(!rolledBack);
    throw err;
  }
  client.release();
  return result;
}

/** Writes batches in one transaction (tests, benchmarks, seeding); the worker writes through ScanIngester. */
export async function ingestScanBatches(db: ConnectionSource, batches: readonly ScanBatchPayload[]): Promise<IngestResult> {
  const columns = statementColumns(batches);
  if (columns.ids.length === 0) return { inserted: 0, links: 0, malformed: columns.malformed };
  const result = (await writeColumns(db, columns)) as Omit<IngestResult, 'malformed'>;
  return { ...result, malformed: columns.malformed };
}

/**
 * The partition of a link: its id's last 32 bits (random in every UUID we make) modulo the
 * partitions. Every worker process computes the same, so a link's scans are always in one.
 */
export function linkPartition(linkId: string, partitions: number): number {
  return parseInt(linkId.slice(-8), 16) % partitions;
}

/** The statement's scans split by the partition of their link, each part naming only its own links. */
export function partitionColumns(columns: StatementColumns, partitions: number): Array<{ partition: number; columns: StatementColumns }> {
  const parts = new Map<number, { columns: StatementColumns; linkIndex: Map<number, number> }>();
  const partOfLink = columns.links.map(([linkId]) => linkPartition(linkId, partitions));
  for (let i = 0; i < columns.ids.length; i++) {
    const link = columns.linkOf[i]!;
    const partition = partOfLink[link]!;
    let part = parts.get(partition);
    if (!part) {
      const empty = {
        ids: [],
        ats: [],
        linkOf: [],
        visitorOf: [],
        visitorKeys: [],
        originOf: [],
        links: [],
        visitors: columns.visitors,
        origins: columns.origins,
        malformed: 0,
      };
      parts.set(partition, (part = { columns: empty, linkIndex: new Map() }));
    }
    let local = part.linkIndex.get(link);
    if (local === undefined) part.linkIndex.set(link, (local = part.columns.links.push(columns.links[link]!) - 1));
    part.columns.ids.push(columns.ids[i]!);
    part.columns.ats.push(columns.ats[i]!);
    part.columns.linkOf.push(local);
    part.columns.visitorOf.push(columns.visitorOf[i]!);
    part.columns.visitorKeys.push(columns.visitorKeys[i]!);
    part.columns.originOf.push(columns.originOf[i]!);
  }
  return [...parts].map(([partition, part]) => ({ partition, columns: part.columns }));
}

/** How long a worker whose every partition left is being written by others waits before trying again, at most. */
const BUSY_WAIT_MAX_MS = 20;

/**
 * Most scans one statement writes unless told (SCAN_INGEST_MAX_SCANS). A statement's cost is
 * dominated by the rows it upserts once per distinct key (link counters, the links' and the
 * account's rollup rows), not per scan, so a backlog written in bigger statements costs less per
 * scan: 50,000 instead of 10,000 took the scans bench from 10,000 to 21,000 scans/s
 * (docs/benchmarks.md). A statement of 50,000 holds its links' locks for ~2.5 s; deleting one of
 * those links waits that long.
 */
export const DEFAULT_MAX_SCANS_PER_STATEMENT = 50_000;

/** Partitions of the links unless told (SCAN_INGEST_PARTITIONS). */
export const DEFAULT_PARTITIONS = 16;

interface Waiting {
  batch: ScanBatchPayload;
  /** Its scans, for the statement size (a payload that is not a batch counts none). */
  size: number;
  resolve(): void;
  reject(err: unknown): void;
}

/**
 * Group commit for the scans worker: batches handed in while a statement runs wait and are then
 * written together by the next one (up to `linger.maxScans`), so a backlog costs one
 * counter update per link per statement instead of one per link per batch. One statement at a
 * time per process. A caller's promise settles when its own scans are written (or not).
 *
 * The links are split into `partitions` by id, and a group is written one partition's scans per
 * transaction, each under that partition's advisory lock, taken without waiting: a partition
 * another worker process is writing is left for later and the next one written meanwhile. So two
 * writers never hold the same link's rows, however many worker processes there are, and each
 * process keeps Postgres busy with rows no other one is waiting for
 * (docs/decisions/0390-scan-ingestion-partitioned-by-link.md).
 */
export class ScanIngester {
  private readonly waiting: Waiting[] = [];
  private waitingScans = 0;
  private writing = false;
  /** Ends the linger in progress early (the worker is full, or a statement's worth waits). */
  private endLinger: (() => void) | null = null;

  /**
   * `linger.ms`: how long a statement waits for more batches when fewer than a statement's worth
   * are waiting. Fewer, bigger statements cost Postgres less CPU per scan (one commit, one counter
   * update per link), which a machine that also answers the scans needs more than scans appearing
   * in Postgres a few hundred milliseconds sooner. `linger.maxBatches`: the most batches that can
   * be waiting at once (the worker's concurrency); with that many waiting no more can come, so
   * there is nothing to wait for.
   */
  constructor(
    private readonly db: ConnectionSource,
    private readonly logger: Logger,
    private readonly linger: { ms: number; maxBatches: number; maxScans?: number; partitions?: number } = { ms: 0, maxBatches: 1 },
  ) {}

  private get maxScans(): number {
    return this.linger.maxScans ?? DEFAULT_MAX_SCANS_PER_STATEMENT;
  }

  ingest(batch: ScanBatchPayload): Promise<void> {
    const size = scanBatchSize(batch);
    return new Promise((resolve, reject) => {
      this.waiting.push({ batch, size, resolve, reject });
      this.waitingScans += size;
      if (this.endLinger && !this.shouldLinger()) this.endLinger();
      void this.writeWaiting();
    });
  }

  /** Whether more batches may still come and the waiting ones are less than a statement's worth. */
  private shouldLinger(): boolean {
    return this.linger.ms > 0 && this.waitingScans < this.maxScans && this.waiting.length < this.linger.maxBatches;
  }

  private async writeWaiting(): Promise<void> {
    if (this.writing) return;
    this.writing = true;
    while (this.waiting.length > 0) {
      if (this.shouldLinger()) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => this.endLinger?.(), this.linger.ms);
          this.endLinger = () => {
            clearTimeout(timer);
            this.endLinger = null;
            resolve();
          };
        });
      }
      const group = [this.waiting.shift()!];
      let size = group[0]!.size;
      while (this.waiting.length > 0 && size + this.waiting[0]!.size <= this.maxScans) {
        size += this.waiting[0]!.size;
        group.push(this.waiting.shift()!);
      }
      this.waitingScans -= size;
      await this.writeGroup(group);
    }
    this.writing = false;
  }

  private async writeGroup(group: Waiting[]): Promise<void> {
    try {
      const columns = statementColumns(group.map((w) => w.batch));
      if (columns.malformed > 0) this.logger.error({ malformed: columns.malformed }, 'malformed scans refused');
      await this.writePartitions(partitionColumns(columns, this.linger.partitions ?? DEFAULT_PARTITIONS));
      for (const w of group) w.resolve();
    } catch (err) {
      if (group.length === 1) return group[0]!.reject(err);
      // One batch Postgres refuses must not hold back the others: each is tried alone (while
      // Postgres is away, each fails at once and is retried by the queue). Parts already written
      // are found there by scan id.
      for (const w of group) await this.writeGroup([w]);
    }
  }

  /** Each part in a transaction of its own, those another worker is writing once it is done with them. */
  private async writePartitions(parts: Array<{ partition: number; columns: StatementColumns; firsts?: boolean[] }>): Promise<void> {
    // Workers holding the same partitions start at different ones, so they rarely meet.
    const offset = Math.floor(Math.random() * parts.length);
    let left = [...parts.slice(offset), ...parts.slice(0, offset)];
    let pause = 1;
    while (left.length > 0) {
      const busy: typeof left = [];
      for (const part of left) {
        if ((await writeColumns(this.db, part.columns, part.partition, part)) === 'busy') busy.push(part);
      }
      if (busy.length === left.length) {
        await new Promise((resolve) => setTimeout(resolve, pause));
        pause = Math.min(pause * 2, BUSY_WAIT_MAX_MS);
      } else pause = 1;
      left = busy;
    }
  }
}
