/**
 * The analytics GETs, read from the raw `scans` rows of the window (docs/decisions.md, Analytics).
 * Every query is bounded by the account (and, per link, the link), the window and the bot filter,
 * and served by the (account_id, created_at) or (link_id, created_at) index. Pre-aggregated
 * tables replace these reads in a later step; the answers stay the same.
 */
import { and, count, eq, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { links } from '../../db/schema.js';
import { ValidationError } from '../http/errors.js';
import type { AnalyticsQuery } from './schemas.js';
import { addDays, analyticsWindow, formatDate, localDateAt, type AnalyticsWindow } from './window.js';

/** Whose scans: the whole account, or one of its links named by slug. */
export interface AnalyticsScope {
  accountId: string;
  linkSlug?: string;
}

/** The ranked endpoints and the scans column each groups by. */
export const RANKED_DIMENSIONS = { ops: 'os_name', country: 'country_name', region: 'city', browser: 'browser_name' } as const;
export type RankedDimension = keyof typeof RANKED_DIMENSIONS;

export const UNKNOWN_NAME = 'Unknown';
const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

interface Filter {
  window: AnalyticsWindow;
  /** The scans condition, or null when the scope has no scans at all (an unknown link). */
  where: SQL | null;
}

/**
 * The scans condition for a scope and query. An id that is not one of the account's links has no
 * scans: the answer is the empty one, never another account's numbers.
 */
async function filterFor(db: Database, scope: AnalyticsScope, query: AnalyticsQuery): Promise<Filter> {
  const window = analyticsWindow(query);
  let linkCondition = sql``;
  if (scope.linkSlug !== undefined) {
    const linkId = await linkIdOf(db, scope);
    if (!linkId) return { window, where: null };
    linkCondition = sql` and s.link_id = ${linkId}`;
  }
  const bots = query.exclude_bots ? sql` and not s.is_bot` : sql``;
  // Epoch milliseconds, not ISO text: year 0 and years past 9999 have ISO forms Postgres does not read.
  const at = (instant: Date) => sql`to_timestamp(${instant.getTime()}::float8 / 1000)`;
  const where = sql`s.account_id = ${scope.accountId}${linkCondition} and s.created_at >= ${at(window.from)} and s.created_at < ${at(window.to)}${bots}`;
  return { window, where };
}

async function linkIdOf(db: Database, scope: AnalyticsScope): Promise<string | null> {
  const [row] = await db
    .select({ id: links.id })
    .from(links)
    .where(and(eq(links.accountId, scope.accountId), eq(links.slug, scope.linkSlug!)));
  return row?.id ?? null;
}

/** Runs a query that reads local times; a zone Intl knows but this Postgres does not is the caller's 400. */
async function rowsOf<T extends Record<string, unknown>>(db: Database, query: SQL): Promise<T[]> {
  try {
    return (await db.execute<T>(query)).rows as T[];
  } catch (err) {
    const pg = (err as { code?: string; cause?: { code?: string } }).code ? (err as { code?: string }) : (err as { cause?: { code?: string } }).cause;
    if (pg?.code === '22023') throw new ValidationError([{ path: 'timezone', message: 'Time zone not supported by the database' }]);
    throw err;
  }
}

export async function generalAnalytics(db: Database, scope: AnalyticsScope, query: AnalyticsQuery) {
  const { where } = await filterFor(db, scope, query);
  if (!where) return { data: { numberOfLinks: 0, numberOfScans: 0 } };
  const [scans] = await rowsOf<{ n: number }>(db, sql`select count(*)::int as n from scans s where ${where}`);
  const numberOfLinks =
    scope.linkSlug !== undefined ? 1 : ((await db.select({ n: count() }).from(links).where(eq(links.accountId, scope.accountId)))[0]?.n ?? 0);
  return { data: { numberOfLinks, numberOfScans: scans?.n ?? 0 } };
}

/** A count's share of the total as a string with two decimals, rounded half up in integers. */
export function percentageOf(scans: number, total: number): string {
  if (total === 0) return '0.00';
  const hundredths = Math.round((scans * 10_000) / total);
  return `${Math.floor(hundredths / 100)}.${String(hundredths % 100).padStart(2, '0')}`;
}

interface RankedRow extends Record<string, unknown> {
  name: string;
  scans: number;
  total: number;
}

function ranked(rows: RankedRow[]) {
  return { data: rows.map((r, i) => ({ number: i + 1, name: r.name, scans: r.scans, percentage: percentageOf(r.scans, r.total) })) };
}

/**
 * Scans by one dimension, most first, ties by name (byte order); missing values are "Unknown".
 * `total` is every scan of the window, so percentages are of the whole range, not of the top rows.
 */
export async function rankedAnalytics(db: Database, scope: AnalyticsScope, query: AnalyticsQuery, dimension: RankedDimension) {
  const { where } = await filterFor(db, scope, query);
  if (!where) return { data: [] };
  const column = sql.identifier(RANKED_DIMENSIONS[dimension]);
  return ranked(
    await rowsOf<RankedRow>(
      db,
      sql`select coalesce(nullif(s.${column}, ''), ${UNKNOWN_NAME}) collate "C" as name, count(*)::int as scans, (sum(count(*)) over ())::float8 as total
          from scans s where ${where} group by 1 order by 2 desc, 1 limit ${query.limit}`,
    ),
  );
}

/** Account-wide scans by link, named by the link's name; same names are told apart by slug order. */
export async function qrCodeAnalytics(db: Database, accountId: string, query: AnalyticsQuery) {
  const { where } = await filterFor(db, { accountId }, query);
  return ranked(
    await rowsOf<RankedRow>(
      db,
      sql`select l.name, count(*)::int as scans, (sum(count(*)) over ())::float8 as total
          from scans s join links l on l.id = s.link_id
          where ${where!} group by l.id, l.name, l.slug order by 2 desc, l.name collate "C", l.slug collate "C" limit ${query.limit}`,
    ),
  );
}

/** Scans per local day, month and year of the window; every bucket inside it appears, zeros included. */
export async function activityAnalytics(db: Database, scope: AnalyticsScope, query: AnalyticsQuery) {
  const { window, where } = await filterFor(db, scope, query);
  const perDay = new Map<string, number>();
  if (where) {
    const rows = await rowsOf<{ day: string; n: number }>(
      db,
      sql`select to_char(s.created_at at time zone ${window.timezone}, 'YYYY-MM-DD') as day, count(*)::int as n from scans s where ${where} group by 1`,
    );
    for (const r of rows) perDay.set(r.day, r.n);
  }
  const Year = { x: [] as number[], y: [] as number[] };
  const Month = { x: [] as string[], y: [] as number[] };
  const Day = { x: [] as string[], y: [] as number[] };
  const last = formatDate(localDateAt(new Date(window.to.getTime() - 1), window.timezone));
  let monthKey = '';
  for (let date = localDateAt(window.from, window.timezone); ; date = addDays(date, 1)) {
    const key = formatDate(date);
    const n = perDay.get(key) ?? 0;
    if (Year.x[Year.x.length - 1] !== date.year) (Year.x.push(date.year), Year.y.push(0));
    if (monthKey !== key.slice(0, 7)) (monthKey = key.slice(0, 7), Month.x.push(MONTH_NAMES[date.month - 1]!), Month.y.push(0));
    Day.x.push(key);
    Day.y.push(n);
    Year.y[Year.y.length - 1]! += n;
    Month.y[Month.y.length - 1]! += n;
    if (key >= last) break;
  }
  return { data: { Year, Month, Day } };
}

/** Scans per local weekday and hour: all 168 keys `Mon-0` … `Sun-23`, zeros included. */
export async function timeAnalytics(db: Database, scope: AnalyticsScope, query: AnalyticsQuery) {
  const { window, where } = await filterFor(db, scope, query);
  const data: Record<string, number> = {};
  for (const day of WEEKDAYS) for (let hour = 0; hour < 24; hour++) data[`${day}-${hour}`] = 0;
  if (where) {
    const rows = await rowsOf<{ dow: number; hour: number; n: number }>(
      db,
      sql`select extract(isodow from t.local)::int as dow, extract(hour from t.local)::int as hour, count(*)::int as n
          from (select s.created_at at time zone ${window.timezone} as local from scans s where ${where}) t group by 1, 2`,
    );
    for (const r of rows) data[`${WEEKDAYS[r.dow - 1]}-${r.hour}`] = r.n;
  }
  return { data };
}
