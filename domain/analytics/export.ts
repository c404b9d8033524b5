/**
 * CSV exports of scans (docs/decisions/README.md, "Analytics exports"): the window a request asks
 * for (its body is the api's: api/routes/analytics/schemas.ts), and the rows as CSV written by
 * Postgres (`COPY … TO STDOUT (FORMAT csv)`) and streamed a socket read at a time, so memory stays
 * flat however many scans the window holds. The job that runs it is
 * workers/processors/analytics-export.ts.
 */
import { copyTo, type Pool } from '#platform/database/raw.js';
import { csvCell, CsvRecordEnds } from '#platform/format/csv-record-ends.js';
import { ValidationError, type FieldError } from '../errors.js';
import { filterConditions, type AnalyticsFilters } from './schemas.js';
import { UNKNOWN_SOURCE } from '../links/attribution.js';
import { analyticsWindow, formatDate, localDateAt, type AnalyticsWindow } from './window.js';

export const EXPORT_FORMATS = ['csv'] as const;

/**
 * The columns of an export, in order; link_id is the link's slug (the dynamic_link_id of the API).
 * The contract's own first; the rest are additions: `domain` (the link's domain, by its host), and
 * where the scan came from (domain/links/attribution.ts): `source` (qr, link or unknown), the
 * placement's name, the referring host and the utm_campaign.
 */
export const EXPORT_COLUMNS = [
  'link_id',
  'browser_name',
  'device_type',
  'device_vendor',
  'os_name',
  'created_at',
  'country_name',
  'region',
  'city',
  'domain',
  'source',
  'placement',
  'referrer_host',
  'utm_campaign',
] as const;

/** The window an export asks for: both dates left out, the last 48 hours; either, whole local days in `timezone`. */
export interface ExportWindowRequest {
  /** First local day (YYYY-MM-DD), included. */
  startDate?: string | undefined;
  /** Last local day (YYYY-MM-DD), included. */
  endDate?: string | undefined;
  timezone: string;
}

/** What the api hands the job: the scope and the window as instants, fixed when the export was asked for. */
export interface AnalyticsExportPayload {
  /** The link's slug; absent: every link of the account. */
  linkSlug?: string;
  /** A client's folders: the link must be in one of them, else the file is the header only. */
  folderIds?: string[];
  /** Epoch ms, included. */
  from: number;
  /** Epoch ms, excluded. */
  to: number;
  /** The name the file is downloaded under (letters, digits, '.', '-', '_' only). */
  fileName: string;
  /** Bot scans too (absent in jobs queued before it existed: left out). */
  includeBots?: boolean;
  /** Only the scans with these facts (as the GETs' country, browser, os). */
  filters?: AnalyticsFilters;
}

export interface AnalyticsExportResult {
  downloadUrl: string;
  fileName: string;
  rows: number;
  bytes: number;
}

/**
 * The window a body asks for at `now`: no dates, the last 48 hours; one or both, whole local days
 * (the missing one defaults as in the GETs' custom range). Errors name the body's fields.
 */
export function exportWindow(body: ExportWindowRequest, now = new Date()): AnalyticsWindow {
  const custom = body.startDate !== undefined || body.endDate !== undefined;
  try {
    return analyticsWindow(
      custom
        ? { duration: 'custom', date_from: body.startDate, date_to: body.endDate, timezone: body.timezone }
        : { duration: '48_hours', timezone: body.timezone },
      now,
    );
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    const renamed: Record<string, string> = { date_from: 'startDate', date_to: 'endDate' };
    throw new ValidationError(
      err.errors.map((e): FieldError => ({ path: renamed[e.path] ?? e.path, message: e.message.replace('date_from', 'startDate') })),
    );
  }
}

/** `scans-<slug|all>-<first day>-to-<last day>.csv`, the days in the window's zone, safe as a file and storage name. */
export function exportFileName(linkSlug: string | undefined, window: AnalyticsWindow): string {
  const first = formatDate(localDateAt(window.from, window.timezone));
  const last = formatDate(localDateAt(new Date(window.to.getTime() - 1), window.timezone));
  const scope = linkSlug === undefined ? 'all' : linkSlug.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 100) || 'link';
  return `scans-${scope}-${first}-to-${last}.csv`;
}

/** The file's first line. */
export const CSV_HEADER = `${EXPORT_COLUMNS.join(',')}\r\n`;

/**
 * A text column as its cell: neutraliseCell (domain/csv.ts; docs/decisions/0201) in SQL, checked
 * on the first character's code, which costs Postgres next to nothing. An empty string becomes
 * null, which COPY writes as the empty cell, where it would write an empty string as `""`.
 */
const cell = (text: string) => `case when ascii(${text}) in (61, 43, 45, 64, 9, 13) then '''' || ${text} else nullif(${text}, '') end`;

/** Where progress reads a record's time. */
const CREATED_AT_CELL = EXPORT_COLUMNS.indexOf('created_at');

/** ISO 8601 UTC with milliseconds, made by Postgres; never starts with a formula character. */
const CREATED_AT = `to_char(s.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * An instant as SQL, from epoch milliseconds: COPY takes no parameters, and year 0 and years past
 * 9999 have ISO forms Postgres does not read.
 */
function instant(at: Date): string {
  const ms = at.getTime();
  if (!Number.isFinite(ms)) throw new RangeError('An export window needs valid dates');
  return `to_timestamp(${ms}::float8 / 1000)`;
}

export interface ScansCsvQuery {
  accountId: string;
  /** The default domain's host: the `domain` of a link on no brand domain. */
  defaultHost: string;
  linkSlug?: string;
  folderIds?: readonly string[];
  from: Date;
  to: Date;
  includeBots?: boolean;
  filters?: AnalyticsFilters;
}

export interface ScansCsvProgress {
  rows: number;
  /** 0–1: how far into the window the rows written so far reach (rows are in time order). */
  fraction: number;
}

/**
 * The export's CSV, header first, then Postgres's own CSV as it arrives (about a socket read a
 * chunk), its LF record ends made CRLF (docs/decisions/0346). Holds one pooled connection while it
 * is iterated and releases it when the iteration ends, however it ends. Rows are in
 * (created_at, id) order. `onBatch` follows each chunk: the records ended so far, and how far
 * into the window the last record ended in the chunk reaches (kept from before when that record
 * began in an earlier chunk).
 */
export async function* scansCsv(
  pool: Pool,
  query: ScansCsvQuery,
  onBatch?: (progress: ScansCsvProgress) => Promise<void>,
): AsyncGenerator<Buffer> {
  yield Buffer.from(CSV_HEADER);
  const client = await pool.connect();
  let released = false;
  let inTransaction = false;
  let copying = false;
  try {
    const [link] =
      query.linkSlug === undefined
        ? [undefined]
        : (
            await client.query<{ id: string; host: string }>(
              `select l.id, coalesce(d.hostname, $4) as host from links l left join domains d on d.id = l.domain_id
                where l.account_id = $1 and l.slug = $2 and ($3::uuid[] is null or l.folder_id = any($3::uuid[]))`,
              [query.accountId, query.linkSlug, query.folderIds ?? null, query.defaultHost],
            )
          ).rows;
    // An id that is not one of the account's links (or, for a client, not in its folders) has no
    // scans: header only, never another account's rows.
    if (query.linkSlug !== undefined && !link) return;
    // COPY takes no parameters: every value is a literal, escaped by pg.
    const literal = (value: string) => client.escapeLiteral(value);
    const domain = query.filters?.domain;
    const only =
      filterConditions(query.filters ?? {})
        .map(({ column, value }) => ` and coalesce(s.${column}, '') = ${literal(value)}`)
        .join('') +
      (domain === undefined
        ? ''
        : ` and s.link_id in (select l.id from links l left join domains d on d.id = l.domain_id where l.account_id = ${literal(query.accountId)} and coalesce(d.hostname, ${literal(query.defaultHost)}) = ${literal(domain)})`);
    const window = `s.account_id = ${literal(query.accountId)} and s.created_at >= ${instant(query.from)} and s.created_at < ${instant(query.to)}${query.includeBots ? '' : ' and not s.is_bot'}${only}`;
    const columns = (slug: string, host: string) =>
      [
        ...[slug, 's.browser_name', 's.device_type', 's.device_vendor', 's.os_name'].map(cell),
        CREATED_AT,
        ...['s.country_name', 's.region', 's.city', host].map(cell),
        `coalesce(s.source, '${UNKNOWN_SOURCE}')`,
        ...['p.name', 's.referrer_host', 's.utm_campaign'].map(cell),
      ].join(', ');
    const placements = 'left join link_placements p on p.id = s.placement_id';
    const select = link
      ? `select ${columns(literal(query.linkSlug!), literal(link.host))} from scans s ${placements} where ${window} and s.link_id = ${literal(link.id)} order by s.created_at, s.id`
      : `select ${columns('l.slug', `coalesce(d.hostname, ${literal(query.defaultHost)})`)} from scans s join links l on l.id = s.link_id
          left join domains d on d.id = l.domain_id ${placements} where ${window} order by s.created_at, s.id`;
    // A streaming plan (the (account_id, created_at) or (link_id, created_at) index in order, ties
    // sorted by id as they come) instead of the planner's favourite for big windows, a bitmap scan
    // and a full sort: that sort spills to disk, and no row leaves Postgres before it ends.
    // Read-only, in one transaction: the file is one snapshot of the scans.
    await client.query('begin transaction read only');
    inTransaction = true;
    await client.query('set local enable_sort = off');
    const copy = client.query(copyTo(`copy (${select}) to stdout (format csv)`));
    copying = true;
    // Its errors reach the loop below while it runs; one more comes when a connection dropped
    // mid-COPY is closed, after the loop has let go of the stream.
    copy.on('error', () => undefined);
    const recordEnds = new CsvRecordEnds();
    const from = query.from.getTime();
    const span = Math.max(1, query.to.getTime() - from);
    let fraction = 0;
    for await (const chunk of copy as AsyncIterable<Buffer>) {
      yield recordEnds.convert(chunk);
      // Rows come in time order: how far into the window the file has come.
      const last = recordEnds.lastRecord();
      const at = last ? Date.parse(csvCell(last, CREATED_AT_CELL) ?? '') : NaN;
      if (!Number.isNaN(at)) fraction = Math.max(0, Math.min(1, (at - from) / span));
      await onBatch?.({ rows: recordEnds.records, fraction });
    }
    copying = false;
    await client.query('commit');
    inTransaction = false;
    // Postgres counts the rows it wrote: a file whose record ends were misread is not stored.
    if (recordEnds.records !== copy.rowCount)
      throw new Error(`The export ended ${recordEnds.records} CSV records where Postgres wrote ${copy.rowCount} rows`);
  } catch (err) {
    // A broken connection must not go back to the pool.
    client.release(err instanceof Error ? err : true);
    released = true;
    throw err;
  } finally {
    // Left early (the upload failed or stopped reading). Mid-COPY the connection can only be
    // dropped: pg closes the socket of a client ended with a query running, and Postgres, whose
    // write fails, rolls back. Otherwise the transaction is ended before the connection goes back;
    // if even that fails, the connection is dropped.
    if (!released) {
      if (copying) client.release(true);
      else if (inTransaction)
        await client.query('rollback').then(
          () => client.release(),
          () => client.release(true),
        );
      else client.release();
    }
  }
}
