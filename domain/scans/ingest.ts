/**
 * The worker side of scan recording: batches of scans into Postgres, each write one transaction
 * of two statements (the locks, then the write). A scan's id is its idempotency key, so a batch retried after a
 * crash, a lost lock or an ambiguous failure inserts only what is not there yet, and the link
 * counters grow by exactly the rows this statement inserted:
 *
 *   1. `locked`: the batch's links that still exist, locked in id order (FOR NO KEY UPDATE, which
 *      a deletion of the link waits for) by the statement before. Taking every lock up front in
 *      one order means two concurrent batches never deadlock, and a link deleted meanwhile is
 *      simply not there.
 *   2. `inserted`: the scans whose link exists and belongs to the scan's account (anything else
 *      is dropped: a deleted link's scans have nowhere to go), ON CONFLICT (id) DO NOTHING.
 *   3. the links' scan_count, human_scan_count (not bots), limit_scan_count (human scans that were
 *      their visitor's first on the link that day) and last_scanned_at (link_counters), from the
 *      rows of step 2 only.
 *
 * The same statement keeps the analytics rollups (domain/analytics/rollups.ts) from the rows of
 * step 2: it records the batch's visitor keys per link and account and UTC day
 * (scan_visitor_days; a key new there marks its first scan in scans.visitor_firsts), and adds the
 * inserted scans to link_scan_hours and scan_rollups (a link's per-dimension day rows only for
 * days before its account's link_days_from, read here under the account's lock). A retried batch
 * inserts no scan, so it adds nothing either.
 *
 * The locks (the links', then each account's rollup lock in account order) are taken by a
 * statement of their own before it, in the same transaction: a statement's snapshot is fixed
 * when it starts, so a statement that waited for an account's lock inside itself would still not
 * see the visitor keys the writer it waited for committed, and would mark the same visitor first
 * again (two workers over-counted uniques by half). Under READ COMMITTED the ingest statement,
 * started once the locks are held, sees every commit made before.
 */
import type pg from 'pg';
import { isUuid } from '../../platform/format/ids.js';
import { ACCOUNT_ROLLUP_LOCK, ADD_INSERTED_TO_ROLLUPS, FIRST_ON_ACCOUNT, FIRST_ON_LINK } from '../analytics/rollups.js';
import { FIELDS_PER_SCAN, scanBatchSize, visitorKeyOf } from './batch.js';
import type { Logger } from '../../platform/logger.js';
import type { ScanBatchPayload, ScanVisitorTuple } from './types.js';

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
type ConnectionSource = Pick<pg.Pool, 'connect'>;

// The batch's links that still exist, locked in id order. In the ingest statement the locks are
// already held (by LOCK_SQL); it names the links that are there.
const LOCKED_LINKS = `
locked as materialized (
  select links.id, links.account_id from links
  where links.id in (select link_id from batch_links)
  order by links.id
  for no key update
)`;

// The links' locks, then their accounts' rollup locks in account order: the order every writer of
// rollups takes them in (a link deletion too), so none deadlock.
const LOCK_SQL = `
with batch_links as materialized (
  select (l->>0)::uuid as link_id from json_array_elements($1::json) as t(l)
),${LOCKED_LINKS},
accounts_locked as materialized (
  select account_id, pg_advisory_xact_lock(${ACCOUNT_ROLLUP_LOCK}, hashtext(account_id::text))
  from (select distinct account_id from locked order by account_id) a
)
select count(*) from accounts_locked`;

// batch_links and visitors are materialized: inlined, their ->> extractions would be evaluated
// (each one re-reading the JSON) for every scan joined to them instead of once per entry.
const INGEST_SQL = `
with batch_links as materialized (
  select (n - 1)::int as i, (l->>0)::uuid as link_id, (l->>1)::uuid as account_id
  from json_array_elements($5::json) with ordinality as t(l, n)
),
visitors as materialized (
  select (n - 1)::int as i, v->>0 as browser_name, v->>1 as device_type, v->>2 as device_vendor, v->>3 as os_name,
    v->>4 as country_name, v->>5 as region, v->>6 as city, (v->>7)::boolean as is_bot
  from json_array_elements($6::json) with ordinality as t(v, n)
),${LOCKED_LINKS},
src as materialized (
  select s.id, bl.link_id, bl.account_id, to_timestamp(s.at / 1000.0) as created_at, s.visitor_key, v.browser_name,
    v.device_type, v.device_vendor, v.os_name, v.country_name, v.region, v.city, v.is_bot
  from unnest($1::uuid[], $2::float8[], $3::int[], $4::int[], $7::text[]) as s(id, at, link, visitor, visitor_key)
  join batch_links bl on bl.i = s.link
  join locked l on l.id = bl.link_id and l.account_id = bl.account_id
  join visitors v on v.i = s.visitor
),
-- A scan is its visitor's first of the UTC day on its link (on its account) when it is the batch's
-- earliest with that key and the key is not in scan_visitor_days yet. Checked by index look-ups
-- per scan, not by joining back the keys an insert returned: the planner cannot size these CTEs
-- and chose nested loops over them (6 s for 10,000 scans). The account lock, held since the
-- statement before this one, makes the check and the insert below one step: no other writer adds
-- this account's or its links' keys meanwhile, and those added before are in this snapshot.
ranked as materialized (
  select src.*, (created_at at time zone 'UTC')::date as day,
    row_number() over (partition by link_id, (created_at at time zone 'UTC')::date, visitor_key order by created_at, id) = 1 as earliest_on_link,
    row_number() over (partition by account_id, (created_at at time zone 'UTC')::date, visitor_key order by created_at, id) = 1 as earliest_on_account
  from src
),
marked as materialized (
  select r.*,
    (r.visitor_key is not null and r.earliest_on_link
      and not exists (select 1 from scan_visitor_days d where d.day = r.day and d.scope_id = r.link_id and d.visitor_key = r.visitor_key)) as first_on_link,
    (r.visitor_key is not null and r.earliest_on_account
      and not exists (select 1 from scan_visitor_days d where d.day = r.day and d.scope_id = r.account_id and d.visitor_key = r.visitor_key)) as first_on_account
  from ranked r
),
new_visits as (
  insert into scan_visitor_days (day, scope_id, visitor_key)
  select day, link_id, visitor_key from marked where first_on_link
  union all
  select day, account_id, visitor_key from marked where first_on_account
  on conflict do nothing
),
inserted as (
  insert into scans (id, link_id, account_id, created_at, browser_name, device_type, device_vendor, os_name, country_name, region, city, is_bot, visitor_firsts)
  select id, link_id, account_id, created_at, browser_name, device_type, device_vendor, os_name, country_name, region, city, is_bot,
    (case when first_on_link then ${FIRST_ON_LINK} else 0 end) + (case when first_on_account then ${FIRST_ON_ACCOUNT} else 0 end)
  from marked
  on conflict (id) do nothing
  returning link_id, account_id, created_at, browser_name, device_type, os_name, country_name, city, is_bot, visitor_firsts
),${ADD_INSERTED_TO_ROLLUPS},
counts as (
  select link_id, count(*)::int as scans, count(*) filter (where not is_bot)::int as humans,
    count(*) filter (where not is_bot and visitor_firsts & ${FIRST_ON_LINK} <> 0)::int as limit_scans, max(created_at) as last
  from inserted group by link_id
)
update link_counters c set
  scan_count = c.scan_count + counts.scans,
  human_scan_count = c.human_scan_count + counts.humans,
  limit_scan_count = c.limit_scan_count + counts.limit_scans,
  last_scanned_at = greatest(c.last_scanned_at, counts.last)
from counts where c.link_id = counts.link_id
returning counts.scans`;

const isText = (value: unknown) => value === null || typeof value === 'string';

function isVisitor(value: unknown): value is ScanVisitorTuple {
  return Array.isArray(value) && value.length === 8 && value.slice(0, 7).every(isText) && typeof value[7] === 'boolean';
}

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
  const links: Array<[string, string]> = [];
  const visitors: ScanVisitorTuple[] = [];
  let malformed = 0;
  for (const batch of batches) {
    const batchLinks: unknown[] = Array.isArray(batch?.links) ? batch.links : [];
    const batchVisitors: unknown[] = Array.isArray(batch?.visitors) ? batch.visitors : [];
    const flat: unknown[] = Array.isArray(batch?.scans) ? batch.scans : [];
    // Where each of the batch's links and visitors sits in the statement's; -1 if malformed.
    const linkIndex = batchLinks.map((l) => (Array.isArray(l) && isUuid(l[0]) && isUuid(l[1]) ? links.push([l[0], l[1]]) - 1 : -1));
    const visitorIndex = batchVisitors.map((v) => (isVisitor(v) ? visitors.push(v) - 1 : -1));
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
    }
    // An entry cut off at the end.
    if (flat.length % FIELDS_PER_SCAN !== 0) malformed++;
  }
  return { ids, ats, linkOf, visitorOf, visitorKeys, links, visitors, malformed };
}

/** Postgres's array literal of values that need no quoting (validated UUIDs, numbers). */
const arrayLiteral = (values: ReadonlyArray<string | number>) => `{${values.join(',')}}`;

export async function ingestScanBatches(db: ConnectionSource, batches: readonly ScanBatchPayload[]): Promise<IngestResult> {
  const columns = statementColumns(batches);
  if (columns.ids.length === 0) return { inserted: 0, links: 0, malformed: columns.malformed };
  const links = JSON.stringify(columns.links);
  const client = await db.connect();
  let result: pg.QueryResult<{ scans: number }>;
  try {
    await client.query('begin');
    await client.query(LOCK_SQL, [links]);
    result = await client.query<{ scans: number }>({
      // Planned for each statement, not prepared once: only a plan made with the arrays in hand knows
      // how many scans, links and visitor keys it joins. A prepared statement's generic plan guessed
      // 100 of each and joined the visitor keys and rollups 3-4 times slower (2.9 s per 10,000 scans
      // against 0.8 s); planning takes ~1.5 ms.
      text: INGEST_SQL,
      values: [
        arrayLiteral(columns.ids),
        arrayLiteral(columns.ats),
        arrayLiteral(columns.linkOf),
        arrayLiteral(columns.visitorOf),
        links,
        JSON.stringify(columns.visitors),
        columns.visitorKeys,
      ],
    });
    await client.query('commit');
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
  const inserted = result.rows.reduce((sum, row) => sum + row.scans, 0);
  return { inserted, links: result.rows.length, malformed: columns.malformed };
}

/**
 * Most scans one statement writes unless told (SCAN_INGEST_MAX_SCANS). A statement's cost is
 * dominated by the rows it upserts once per distinct key (link counters, the links' and the
 * account's rollup rows), not per scan, so a backlog written in bigger statements costs less per
 * scan: 50,000 instead of 10,000 took the scans bench from 10,000 to 21,000 scans/s
 * (docs/benchmarks.md). A statement of 50,000 holds its links' locks for ~2.5 s; deleting one of
 * those links waits that long.
 */
export const DEFAULT_MAX_SCANS_PER_STATEMENT = 50_000;

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
    private readonly linger: { ms: number; maxBatches: number; maxScans?: number } = { ms: 0, maxBatches: 1 },
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
      const result = await ingestScanBatches(
        this.db,
        group.map((w) => w.batch),
      );
      if (result.malformed > 0) this.logger.error({ malformed: result.malformed }, 'malformed scans refused');
      for (const w of group) w.resolve();
    } catch (err) {
      if (group.length === 1) return group[0]!.reject(err);
      // One batch Postgres refuses must not hold back the others: each is tried alone (while
      // Postgres is away, each fails at once and is retried by the queue).
      for (const w of group) await this.writeGroup([w]);
    }
  }
}
