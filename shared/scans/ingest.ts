/**
 * The worker side of scan recording: batches of scans into Postgres, each write one statement
 * (one transaction, one round trip). A scan's id is its idempotency key, so a batch retried after a
 * crash, a lost lock or an ambiguous failure inserts only what is not there yet, and the link
 * counters grow by exactly the rows this statement inserted:
 *
 *   1. `locked`: the batch's links that still exist, locked in id order (FOR NO KEY UPDATE, the
 *      lock the counter update takes anyway). Taking every lock up front in one order means two
 *      concurrent batches never deadlock, and a link deleted meanwhile is simply not there.
 *   2. `inserted`: the scans whose link exists and belongs to the scan's account (anything else
 *      is dropped: a deleted link's scans have nowhere to go), ON CONFLICT (id) DO NOTHING.
 *   3. the links' scan_count, human_scan_count (not bots) and last_scanned_at, from the rows of
 *      step 2 only.
 */
import type pg from 'pg';
import type { Logger } from '../logger.js';
import type { ScanEvent } from './types.js';

export interface IngestResult {
  /** Scans written now (a retried batch's already-written scans are not counted again). */
  inserted: number;
  /** Links whose counters changed. */
  links: number;
  /** Scans refused before Postgres saw them: an id that is not a UUID or a time that is not a number. */
  malformed: number;
}

/** What ingestion needs of Postgres: a pool, or a client (tests may wrap it in a transaction). */
export type Queryable = Pick<pg.Pool, 'query'>;

const INGEST_SQL = `
with batch as (
  select * from json_to_recordset($1::json) as s(id uuid, "linkId" uuid, "accountId" uuid, at float8, "browserName" text,
    "deviceType" text, "deviceVendor" text, "osName" text, "countryName" text, region text, city text, "isBot" boolean)
),
locked as materialized (
  select links.id, links.account_id from links
  where links.id in (select "linkId" from batch)
  order by links.id
  for no key update
),
inserted as (
  insert into scans (id, link_id, account_id, created_at, browser_name, device_type, device_vendor, os_name, country_name, region, city, is_bot)
  select b.id, b."linkId", b."accountId", to_timestamp(b.at / 1000.0), b."browserName", b."deviceType", b."deviceVendor",
    b."osName", b."countryName", b.region, b.city, b."isBot"
  from batch b join locked l on l.id = b."linkId" and l.account_id = b."accountId"
  on conflict (id) do nothing
  returning link_id, is_bot, created_at
),
counts as (
  select link_id, count(*)::int as scans, count(*) filter (where not is_bot)::int as humans, max(created_at) as last
  from inserted group by link_id
)
update links set
  scan_count = links.scan_count + counts.scans,
  human_scan_count = links.human_scan_count + counts.humans,
  last_scanned_at = greatest(links.last_scanned_at, counts.last)
from counts where links.id = counts.link_id
returning counts.scans`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function wellFormed(scan: ScanEvent): boolean {
  return UUID.test(scan.id) && UUID.test(scan.linkId) && UUID.test(scan.accountId) && Number.isFinite(scan.at);
}

export async function ingestScans(db: Queryable, scans: readonly ScanEvent[]): Promise<IngestResult> {
  // One malformed scan would fail its whole batch on every retry; it is refused alone instead.
  const valid = scans.filter(wellFormed);
  const malformed = scans.length - valid.length;
  if (valid.length === 0) return { inserted: 0, links: 0, malformed };
  const result = await db.query<{ scans: number }>({
    // Named: each pooled connection parses and plans it once.
    name: 'ingest-scans',
    text: INGEST_SQL,
    // One JSON parameter (the ScanEvent objects as they are): for thousands of rows, stringifying
    // and json_to_recordset cost a fraction of encoding and decoding twelve Postgres arrays.
    values: [JSON.stringify(valid)],
  });
  const inserted = result.rows.reduce((sum, row) => sum + row.scans, 0);
  return { inserted, links: result.rows.length, malformed };
}

/**
 * Most scans one statement writes. A statement's cost is dominated by the counter updates, one
 * per distinct link, so writing several queued batches together costs little more than one.
 */
const MAX_SCANS_PER_STATEMENT = 10_000;

interface Waiting {
  scans: readonly ScanEvent[];
  resolve(): void;
  reject(err: unknown): void;
}

/**
 * Group commit for the scans worker: batches handed in while a statement runs wait and are then
 * written together by the next one (up to MAX_SCANS_PER_STATEMENT), so a backlog costs one
 * counter update per link per statement instead of one per link per batch. One statement at a
 * time per process. A caller's promise settles when its own scans are written (or not).
 */
export class ScanIngester {
  private readonly waiting: Waiting[] = [];
  private waitingScans = 0;
  private writing = false;

  /**
   * `lingerMs`: how long a statement waits for more batches when fewer than a statement's worth
   * are waiting. Fewer, bigger statements cost Postgres less CPU per scan (one commit, one counter
   * update per link), which a machine that also answers the scans needs more than scans appearing
   * in Postgres a few hundred milliseconds sooner.
   */
  constructor(
    private readonly db: Queryable,
    private readonly logger: Logger,
    private readonly lingerMs = 0,
  ) {}

  ingest(scans: readonly ScanEvent[]): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ scans, resolve, reject });
      this.waitingScans += scans.length;
      void this.writeWaiting();
    });
  }

  private async writeWaiting(): Promise<void> {
    if (this.writing) return;
    this.writing = true;
    while (this.waiting.length > 0) {
      if (this.lingerMs > 0 && this.waitingScans < MAX_SCANS_PER_STATEMENT) await new Promise((r) => setTimeout(r, this.lingerMs));
      const group = [this.waiting.shift()!];
      let size = group[0]!.scans.length;
      while (this.waiting.length > 0 && size + this.waiting[0]!.scans.length <= MAX_SCANS_PER_STATEMENT) {
        size += this.waiting[0]!.scans.length;
        group.push(this.waiting.shift()!);
      }
      this.waitingScans -= size;
      await this.writeGroup(group);
    }
    this.writing = false;
  }

  private async writeGroup(group: Waiting[]): Promise<void> {
    try {
      const result = await ingestScans(this.db, group.length === 1 ? group[0]!.scans : group.flatMap((w) => w.scans));
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
