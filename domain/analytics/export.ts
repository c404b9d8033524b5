/**
 * CSV exports of scans (docs/decisions/README.md, "Analytics exports"): the request body, the
 * window it asks for, and the rows as CSV read from Postgres with a cursor, a batch at a time, so
 * memory stays flat however many scans the window holds. The job that runs it is
 * workers/processors/analytics-export.ts.
 */
import { stringify } from 'csv-stringify/sync';
import type pg from 'pg';
import Cursor from 'pg-cursor';
import { z } from 'zod';
import { ValidationError, type FieldError } from '../errors.js';
import { analyticsQuerySchema } from './schemas.js';
import { analyticsWindow, formatDate, localDateAt, type AnalyticsWindow } from './window.js';

export const EXPORT_FORMATS = ['csv'] as const;

/** The columns of an export, in order; link_id is the link's slug (the dynamic_link_id of the API). */
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
] as const;

// The GETs' own date and time zone checks, so both read a day and a zone the same way.
const { date_from: localDate, timezone } = analyticsQuerySchema.shape;

export const exportBodySchema = z
  .strictObject({
    startDate: localDate
      .unwrap()
      .optional()
      .describe('First local day (YYYY-MM-DD), included. Default: with endDate, the first of the current month'),
    endDate: localDate.unwrap().optional().describe('Last local day (YYYY-MM-DD), included. Default: with startDate, today'),
    format: z.enum(EXPORT_FORMATS, { error: `Must be one of: ${EXPORT_FORMATS.join(', ')}` }).default('csv'),
    filters: z.record(z.string(), z.unknown()).optional().describe('Accepted for compatibility; ignored'),
    timezone: timezone.describe('IANA time zone in which startDate and endDate are read; default UTC'),
  })
  .describe('Both dates omitted: the last 48 hours, up to now. Bots are left out, as in the analytics GETs.');

export type ExportBody = z.infer<typeof exportBodySchema>;

/** What the api hands the job: the scope and the window as instants, fixed when the export was asked for. */
export interface AnalyticsExportPayload {
  /** The link's slug; absent: every link of the account. */
  linkSlug?: string;
  /** Epoch ms, included. */
  from: number;
  /** Epoch ms, excluded. */
  to: number;
  /** The name the file is downloaded under (letters, digits, '.', '-', '_' only). */
  fileName: string;
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
export function exportWindow(body: Pick<ExportBody, 'startDate' | 'endDate' | 'timezone'>, now = new Date()): AnalyticsWindow {
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

/**
 * A cell a spreadsheet would run as a formula (OWASP "CSV injection": it starts with = + - @, a
 * tab or a carriage return) gets a leading single quote, so it is shown as text.
 */
export function neutraliseCell(value: string): string {
  const c = value.charCodeAt(0);
  return c === 61 || c === 43 || c === 45 || c === 64 || c === 9 || c === 13 ? `'${value}` : value;
}

/**
 * Rows of the nine export columns as CSV records, by csv-stringify (RFC 4180: CRLF line ends, a
 * cell with a comma, a quote or a line break quoted, quotes doubled; null is the empty cell), each
 * cell neutralised first. The synchronous form on one cursor read at a time: ~650,000 rows/s on its
 * own here, where the streaming transform managed 50,000-80,000.
 */
export function csvRecords(rows: ReadonlyArray<ReadonlyArray<string | null>>): string {
  return stringify(rows as Array<Array<string | null>>, CSV_OPTIONS);
}

/**
 * csv-stringify neutralises each text cell through its own cast hook (no copy of the rows), and
 * quotes a bare CR only when told: a lone CR ends a line in some readers.
 */
const CSV_OPTIONS = { record_delimiter: '\r\n', quoted_match: /[\r\n]/, cast: { string: neutraliseCell } } as const;

/** The file's first line. */
export const CSV_HEADER = `${EXPORT_COLUMNS.join(',')}\r\n`;

/**
 * Rows per cursor read. Small on purpose: a batch's arrays and strings then die young, in V8's
 * cheap young-generation collections. With 8000-row reads they outlived them and were promoted,
 * and collecting them took more time than encoding (measured: docs/benchmarks.md,
 * analytics-export; docs/decisions/0204-small-reads-because-of-the-garbage-collector.md). Reads are
 * pipelined, so the extra round trips cost little.
 */
const READ_ROWS = 500;

export interface ScansCsvQuery {
  accountId: string;
  linkSlug?: string;
  from: Date;
  to: Date;
}

export interface ScansCsvProgress {
  rows: number;
  /** 0–1: how far into the window the rows written so far reach (rows are in time order). */
  fraction: number;
}

/**
 * The export's CSV, header first, as chunks of one cursor read each. Holds one pooled connection
 * while it is iterated and releases it when the iteration ends, however it ends. Rows are in
 * (created_at, id) order; created_at is formatted by Postgres (ISO 8601, UTC, milliseconds) so no
 * Date is made per row.
 */
export async function* scansCsv(
  pool: pg.Pool,
  query: ScansCsvQuery,
  onBatch?: (progress: ScansCsvProgress) => Promise<void>,
): AsyncGenerator<Buffer> {
  yield Buffer.from(CSV_HEADER);
  const client = await pool.connect();
  let released = false;
  let inTransaction = false;
  try {
    const [link] =
      query.linkSlug === undefined
        ? [undefined]
        : (
            await client.query<{ id: string }>('select id from links where account_id = $1 and slug = $2', [
              query.accountId,
              query.linkSlug,
            ])
          ).rows;
    // An id that is not one of the account's links has no scans: header only, never another account's rows.
    if (query.linkSlug !== undefined && !link) return;
    // Epoch milliseconds, not ISO text: year 0 and years past 9999 have ISO forms Postgres does not read.
    const params: unknown[] = [query.accountId, query.from.getTime(), query.to.getTime()];
    // ISO 8601 UTC, made by Postgres: no Date per row.
    const createdAt = `to_char(s.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
    const window = `s.account_id = $1 and s.created_at >= to_timestamp($2::float8 / 1000) and s.created_at < to_timestamp($3::float8 / 1000) and not s.is_bot`;
    const columns = (slug: string) =>
      `${slug}, s.browser_name, s.device_type, s.device_vendor, s.os_name, ${createdAt}, s.country_name, s.region, s.city`;
    let text: string;
    if (link) {
      params.push(link.id, query.linkSlug);
      text = `select ${columns('$5::text')} from scans s where ${window} and s.link_id = $4 order by s.created_at, s.id`;
    } else {
      text = `select ${columns('l.slug')} from scans s join links l on l.id = s.link_id where ${window} order by s.created_at, s.id`;
    }
    // A streaming plan (the (account_id, created_at) or (link_id, created_at) index in order, ties
    // sorted by id as they come) instead of the planner's favourite for big windows, a bitmap scan
    // and a full sort: that sort spills to disk, and no row leaves Postgres before it ends.
    // Read-only, in one transaction: the file is one snapshot of the scans.
    await client.query('begin transaction read only');
    inTransaction = true;
    await client.query('set local enable_sort = off');
    const cursor = client.query(new Cursor<Array<string | null>>(text, params, { rowMode: 'array' }));
    // The next read is asked for before this batch is encoded, so Postgres works meanwhile.
    const read = () => {
      const next = cursor.read(READ_ROWS);
      next.catch(() => undefined); // a read left pending when the iteration stops early rejects on close; one awaited throws to the caller
      return next;
    };
    try {
      const span = Math.max(1, query.to.getTime() - query.from.getTime());
      let rows = 0;
      for (let pending = read(); ;) {
        const batch = await pending;
        if (batch.length === 0) break;
        pending = read();
        rows += batch.length;
        yield Buffer.from(csvRecords(batch));
        // Rows come in time order: how far into the window the file has come.
        const lastAt = Date.parse(batch[batch.length - 1]![5]!);
        await onBatch?.({ rows, fraction: Math.max(0, Math.min(1, (lastAt - query.from.getTime()) / span)) });
      }
    } finally {
      // A cursor that cannot close leaves the transaction broken: the commit below then fails, and says why.
      await cursor.close().catch(() => undefined);
    }
    await client.query('commit');
    inTransaction = false;
  } catch (err) {
    // A broken connection must not go back to the pool.
    client.release(err instanceof Error ? err : true);
    released = true;
    throw err;
  } finally {
    // Left early (the upload failed or stopped reading): end the transaction before the
    // connection goes back; if even that fails, the connection is dropped.
    if (!released && inTransaction)
      await client.query('rollback').then(
        () => client.release(),
        () => client.release(true),
      );
    else if (!released) client.release();
  }
}
