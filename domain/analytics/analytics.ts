/**
 * The analytics GETs, read from the rollups the scans worker keeps (domain/analytics/rollups.ts;
 * docs/decisions/0182-how-a-window-is-read.md). A window [from, to) is read as whole UTC hours
 * (and, for the account's rankings, whole UTC days) from the rollups, plus the raw scans of any
 * part of an hour at its edges; so every answer equals the count over the raw rows, in every time
 * zone. Every read is bounded by the account (per link by the link) and the window, on the rollups'
 * primary keys.
 */
import { and, count, eq, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../database.js';
import { links } from '../schema.js';
import { linksWithin } from '../links/scope.js';
import { ValidationError } from '../errors.js';
import { FIRST_ON_ACCOUNT, FIRST_ON_LINK, linkDaysFrom, ORIGIN_DIMENSIONS, ROLLUP_DIMENSIONS } from './rollups.js';
import { filterConditions, UNKNOWN_NAME, type AnalyticsQuery } from './schemas.js';
import { addDays, analyticsWindow, formatDate, localDateAt, localHoursOf, type AnalyticsWindow } from './window.js';

/**
 * Whose scans: the whole account, or one of its links named by slug; `folderIds` (a client's) keeps
 * that link to the caller's reach (domain/links/scope.ts), one outside it reading as unknown.
 */
export interface AnalyticsScope {
  accountId: string;
  linkSlug?: string;
  folderIds?: readonly string[] | null;
  /** The default domain's host, what a `domain` filter names it by (absent: the filter matches brand domains only). */
  defaultHost?: string;
}

/** The ranked endpoints and the visitor fact each groups by. */
export const RANKED_DIMENSIONS = { ops: 'os', country: 'country', region: 'city', browser: 'browser', device: 'device' } as const;
export type RankedDimension = keyof typeof RANKED_DIMENSIONS;
type Dimension = keyof typeof ROLLUP_DIMENSIONS;

/** The scans column of each dimension (raw reads) and, per link, the link_scan_hours column. */
const DIMENSION_COLUMNS: Record<Exclude<Dimension, 'all'>, string> = {
  browser: 'browser_name',
  os: 'os_name',
  country: 'country_name',
  city: 'city',
  link: 'link_id',
  device: 'device_type',
  source: 'source',
  placement: 'placement_id',
  referrer: 'referrer_host',
  campaign: 'utm_campaign',
};

const ORIGINS: ReadonlySet<Dimension> = new Set(ORIGIN_DIMENSIONS);

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** Whose rows: an account, or one link (its id resolved in the caller's account). */
type Scope = { accountId: string; linkId?: undefined } | { accountId: string; linkId: string };

/**
 * How a window is read. Hour rows cover [hoursFrom, hoursTo); of those, rankings and general read
 * [daysFrom, daysTo) from day rows instead. `raw` are the parts of an hour at the window's edges,
 * read from scans: none for whole-hour zones' day edges; half an hour at each edge for a zone like
 * Asia/Kolkata. A window that ends at or after `now` takes its last hour whole, since no scan is
 * later than now.
 */
export interface WindowPlan {
  hoursFrom: number;
  hoursTo: number;
  daysFrom: number;
  daysTo: number;
  raw: Array<[number, number]>;
}

const floorTo = (ms: number, unit: number) => Math.floor(ms / unit) * unit;
const ceilTo = (ms: number, unit: number) => Math.ceil(ms / unit) * unit;

/** A window read from raw scans alone: a count per part of an hour no rollup has. */
function rawPlan(window: Pick<AnalyticsWindow, 'from' | 'to'>): WindowPlan {
  const from = window.from.getTime();
  return {
    hoursFrom: from,
    hoursTo: from,
    daysFrom: from,
    daysTo: from,
    raw: from < window.to.getTime() ? [[from, window.to.getTime()]] : [],
  };
}

export function planWindow(window: Pick<AnalyticsWindow, 'from' | 'to'>, now: number): WindowPlan {
  const from = window.from.getTime();
  const to = window.to.getTime();
  const hoursFrom = ceilTo(from, HOUR_MS);
  const hoursTo = to >= now ? ceilTo(to, HOUR_MS) : floorTo(to, HOUR_MS);
  if (hoursFrom >= hoursTo)
    return { hoursFrom, hoursTo: hoursFrom, daysFrom: hoursFrom, daysTo: hoursFrom, raw: from < to ? [[from, to]] : [] };
  const raw: Array<[number, number]> = [];
  if (from < hoursFrom) raw.push([from, hoursFrom]);
  if (to < now && hoursTo < to) raw.push([hoursTo, to]);
  // Empty (daysFrom >= daysTo) when the window holds no whole UTC day.
  const daysFrom = ceilTo(hoursFrom, DAY_MS);
  const daysTo = floorTo(hoursTo, DAY_MS);
  return { hoursFrom, hoursTo, daysFrom, daysTo, raw };
}

/** Epoch milliseconds, not ISO text: year 0 and years past 9999 have ISO forms Postgres does not read. */
export const at = (ms: number) => sql`to_timestamp(${ms}::float8 / 1000)`;

/**
 * The rows to count for a scope, window and dimension, as (at, is_bot, value, scans, visitors):
 * scan_rollups rows of whole hours (and, with `days`, of whole UTC days, except for a link's all
 * scans, which have hour rows only), and single raw scans for the partial hours. `at` is a
 * bucket's start or a raw scan's time. A link has no hour rows per dimension: its partial days'
 * rankings come from link_scan_hours, and so do its whole days from the account's link_days_from
 * on, whose day rows are not written yet (rollLinkDays in rollups.ts). That day is read in this
 * same statement, so a roll committing between two reads can neither count a day twice nor leave
 * it out.
 */
function countedRows(scope: Scope, plan: WindowPlan, dimension: Dimension, days: boolean, only: SQL = sql``): SQL {
  const parts: SQL[] = [];
  const column = dimension === 'all' ? null : DIMENSION_COLUMNS[dimension];
  const scopeId = scope.linkId ?? scope.accountId;
  const rollup = (grain: 'hour' | 'day', a: number, b: number, also = sql``) =>
    a < b &&
    parts.push(sql`select r.bucket as at, r.is_bot, r.value, r.scans, r.visitors from scan_rollups r
      where r.scope_id = ${scopeId} and r.dimension = ${ROLLUP_DIMENSIONS[dimension]} and r.grain = ${grain}
        and r.bucket >= ${at(a)} and r.bucket < ${at(b)}${also}`);
  const linkHours = (a: number, b: number, also = sql``) =>
    a < b &&
    parts.push(sql`select h.hour as at, h.is_bot, ${sql.raw(`h.${column}`)} as value, h.scans, h.visitors from link_scan_hours h
      where h.link_id = ${scopeId} and h.hour >= ${at(a)} and h.hour < ${at(b)}${also}`);
  // A link's origin dimensions have hour and day rows of their own, as an account's every dimension.
  const perLinkDimension = scope.linkId !== undefined && column !== null && !ORIGINS.has(dimension);
  const hours = perLinkDimension ? linkHours : (a: number, b: number) => rollup('hour', a, b);
  const dayRows = days && (scope.linkId === undefined || column !== null);
  if (dayRows && plan.daysFrom < plan.daysTo) {
    hours(plan.hoursFrom, plan.daysFrom);
    if (perLinkDimension) {
      const open = sql`(select ${sql.raw(linkDaysFrom('a'))} from accounts a where a.id = ${scope.accountId})`;
      rollup('day', plan.daysFrom, plan.daysTo, sql` and r.bucket < ${open}`);
      linkHours(plan.daysFrom, plan.daysTo, sql` and h.hour >= ${open}`);
    } else rollup('day', plan.daysFrom, plan.daysTo);
    hours(plan.daysTo, plan.hoursTo);
  } else hours(plan.hoursFrom, plan.hoursTo);
  if (plan.raw.length > 0) {
    const value = column ? sql.raw(`coalesce(s.${column}::text, '')`) : sql`''`;
    const owner = scope.linkId !== undefined ? sql`s.link_id = ${scope.linkId}` : sql`s.account_id = ${scope.accountId}`;
    const first = scope.linkId !== undefined ? FIRST_ON_LINK : FIRST_ON_ACCOUNT;
    const ranges = sql.join(
      plan.raw.map(([a, b]) => sql`(s.created_at >= ${at(a)} and s.created_at < ${at(b)})`),
      sql` or `,
    );
    parts.push(sql`select s.created_at as at, s.is_bot, ${value} as value, 1 as scans, (s.visitor_firsts & ${sql.raw(String(first))} <> 0)::int as visitors
      from scans s where ${owner} and (${ranges})${only}`);
  }
  if (parts.length === 0) return sql`select null::timestamptz as at, false as is_bot, '' as value, 0 as scans, 0 as visitors where false`;
  return sql.join(parts, sql` union all `);
}

interface Reading {
  window: AnalyticsWindow;
  /**
   * The rows to count, or null when the scope has no scans at all (an unknown link). `raw`: every
   * scan of the window on its own, no rollup rows.
   */
  rows: ((dimension: Dimension, days: boolean, raw?: boolean) => SQL) | null;
  /** Whose scans, for reads of their own (null with `rows`). */
  owner: Scope | null;
  /** The bot condition on those rows. */
  bots: SQL;
  /** Filtered (country, browser, os): `rows` are the window's raw scans that match. */
  filtered: boolean;
}

/**
 * The filters as a condition on raw scans (`s`), each fact compared with '' for a missing one;
 * empty without filters. No rollup holds the account's scans per combination of facts, so a
 * filtered answer is counted from the raw scans of its window (docs/decisions/0391).
 */
function filterCondition(query: AnalyticsQuery, scope: AnalyticsScope): SQL | null {
  const conditions = filterConditions(query).map(({ column, value }) => sql` and coalesce(${sql.raw(`s.${column}`)}, '') = ${value}`);
  if (query.domain !== undefined)
    conditions.push(sql` and s.link_id in (select l.id from links l left join domains d on d.id = l.domain_id
      where l.account_id = ${scope.accountId} and coalesce(d.hostname, ${scope.defaultHost ?? ''}::text) = ${query.domain})`);
  if (conditions.length === 0) return null;
  return sql.join(conditions, sql``);
}

/**
 * What a query reads. An id that is not one of the account's links has no scans: the answer is
 * the empty one, never another account's numbers.
 */
export async function readingFor(db: Database, scope: AnalyticsScope, query: AnalyticsQuery, now = Date.now()): Promise<Reading> {
  const window = analyticsWindow(query, new Date(now));
  const bots = query.exclude_bots ? sql`not c.is_bot` : sql`true`;
  const only = filterCondition(query, scope);
  const filtered = only !== null;
  let owner: Scope = { accountId: scope.accountId };
  if (scope.linkSlug !== undefined) {
    const linkId = await linkIdOf(db, scope);
    if (!linkId) return { window, rows: null, owner: null, bots, filtered };
    owner = { accountId: scope.accountId, linkId };
  }
  if (only) return { window, rows: (dimension, days) => countedRows(owner, rawPlan(window), dimension, days, only), owner, bots, filtered };
  const plan = planWindow(window, now);
  return {
    window,
    rows: (dimension, days, raw = false) => countedRows(owner, raw ? rawPlan(window) : plan, dimension, days),
    owner,
    bots,
    filtered,
  };
}

/** The id of the scope's link (by slug, within the caller's reach); null when it is not one of theirs. */
export async function linkIdOf(db: Database, scope: AnalyticsScope): Promise<string | null> {
  const [row] = await db
    .select({ id: links.id })
    .from(links)
    .where(and(linksWithin({ accountId: scope.accountId, folderIds: scope.folderIds ?? null }), eq(links.slug, scope.linkSlug!)));
  return row?.id ?? null;
}

/** Runs a query that reads local times; a zone Intl knows but this Postgres does not is the caller's 400. */
export async function rowsOf<T extends Record<string, unknown>>(db: Database, query: SQL): Promise<T[]> {
  try {
    return await db.transaction(async (tx) => {
      // Every read here is a short index range of rollup rows, but the planner cannot tell an
      // account's few day rows from its many hour rows of other dimensions and guesses hundreds of
      // thousands: it then starts parallel workers and JIT-compiles the query, 80-400 ms for
      // reading 200 rows (measured on 5 million scans). Neither ever pays off for these reads.
      await tx.execute(sql`select set_config('jit', 'off', true), set_config('max_parallel_workers_per_gather', '0', true)`);
      return (await tx.execute<T>(query)).rows as T[];
    });
  } catch (err) {
    const pg = (err as { code?: string; cause?: { code?: string } }).code
      ? (err as { code?: string })
      : (err as { cause?: { code?: string } }).cause;
    if (pg?.code === '22023') throw new ValidationError([{ path: 'timezone', message: 'Time zone not supported by the database' }]);
    throw err;
  }
}

/**
 * The API contract's two numbers, and beside them the window's scans split into human and bot and its
 * unique visitors (each visitor counted once per UTC day it scanned in the window; bots left out
 * when exclude_bots is on, as for numberOfScans).
 */
export async function generalAnalytics(db: Database, scope: AnalyticsScope, query: AnalyticsQuery) {
  const { rows } = await readingFor(db, scope, query);
  const split = { human: 0, bot: 0 };
  const visitors = { human: 0, bot: 0 };
  if (rows) {
    const counted = await rowsOf<{ is_bot: boolean; scans: number; visitors: number }>(
      db,
      sql`select c.is_bot, sum(c.scans)::int as scans, sum(c.visitors)::int as visitors from (${rows('all', true)}) c group by 1`,
    );
    for (const r of counted) {
      split[r.is_bot ? 'bot' : 'human'] += r.scans;
      visitors[r.is_bot ? 'bot' : 'human'] += r.visitors;
    }
  }
  const numberOfLinks =
    scope.linkSlug !== undefined
      ? rows
        ? 1
        : 0
      : ((await db.select({ n: count() }).from(links).where(eq(links.accountId, scope.accountId)))[0]?.n ?? 0);
  const withBots = !query.exclude_bots;
  return {
    data: {
      numberOfLinks,
      numberOfScans: split.human + (withBots ? split.bot : 0),
      humanScans: split.human,
      botScans: split.bot,
      uniqueVisitors: visitors.human + (withBots ? visitors.bot : 0),
    },
  };
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
  const { rows, bots } = await readingFor(db, scope, query);
  if (!rows) return { data: [] };
  return ranked(
    await rowsOf<RankedRow>(
      db,
      sql`select case when c.value = '' then ${UNKNOWN_NAME} else c.value end collate "C" as name, sum(c.scans)::int as scans,
            (sum(sum(c.scans)) over ())::float8 as total
          from (${rows(RANKED_DIMENSIONS[dimension], true)}) c where ${bots}
          group by 1 having sum(c.scans) > 0 order by 2 desc, 1 limit ${query.limit}`,
    ),
  );
}

/** The window's scans per link (`value`: the link's id), links without any left out. */
const scansByLink = (rows: NonNullable<Reading['rows']>, bots: SQL) =>
  sql`select c.value, sum(c.scans)::int as scans from (${rows('link', true)}) c where ${bots} group by 1 having sum(c.scans) > 0`;

/** Account-wide scans by link, named by the link's name; same names are told apart by slug order. */
export async function qrCodeAnalytics(db: Database, accountId: string, query: AnalyticsQuery) {
  const { rows, bots } = await readingFor(db, { accountId }, query);
  const links = await rowsOf<RankedRow & { slug: string }>(
    db,
    sql`select l.name, l.slug, t.scans, (sum(t.scans) over ())::float8 as total
        from (${scansByLink(rows!, bots)}) t
        join links l on l.id = t.value::uuid and l.account_id = ${accountId}
        order by 3 desc, l.name collate "C", l.slug collate "C" limit ${query.limit}`,
  );
  return { data: ranked(links).data.map((row, i) => ({ ...row, dynamicLinkId: links[i]!.slug })) };
}

/**
 * An addition: account-wide scans by the domain their link is on now (the default domain named
 * by its host), most first. A link moved to another domain takes its scans with it.
 */
export async function domainAnalytics(db: Database, accountId: string, query: AnalyticsQuery, defaultHost: string) {
  const { rows, bots } = await readingFor(db, { accountId }, query);
  return ranked(
    await rowsOf<RankedRow>(
      db,
      sql`select coalesce(d.hostname, ${defaultHost}::text) collate "C" as name, sum(t.scans)::int as scans,
            (sum(sum(t.scans)) over ())::float8 as total
          from (${scansByLink(rows!, bots)}) t
          join links l on l.id = t.value::uuid and l.account_id = ${accountId}
          left join domains d on d.id = l.domain_id
          group by 1 order by 2 desc, 1 limit ${query.limit}`,
    ),
  );
}

/** Windows of at most this many local days also answer scans per local hour. */
export const HOUR_SERIES_MAX_DAYS = 7;

/**
 * Scans per local day, month and year of the window; every bucket inside it appears, zeros
 * included. Hour rows are placed by the local time their hour starts at: exact in whole-hour
 * zones; in a zone like Asia/Kolkata an hour row's scans go to the local day of its first minute.
 * A window of at most HOUR_SERIES_MAX_DAYS local days also has `Hour`, exact in every zone.
 */
export async function activityAnalytics(db: Database, scope: AnalyticsScope, query: AnalyticsQuery) {
  const reading = await readingFor(db, scope, query);
  const { window, rows, bots } = reading;
  const perDay = new Map<string, number>();
  if (rows) {
    const counted = await rowsOf<{ day: string; n: number }>(
      db,
      sql`select to_char(c.at at time zone ${window.timezone}, 'YYYY-MM-DD') as day, sum(c.scans)::int as n
          from (${rows('all', false)}) c where ${bots} group by 1`,
    );
    for (const r of counted) perDay.set(r.day, r.n);
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
    if (monthKey !== key.slice(0, 7)) ((monthKey = key.slice(0, 7)), Month.x.push(MONTH_NAMES[date.month - 1]!), Month.y.push(0));
    Day.x.push(key);
    Day.y.push(n);
    Year.y[Year.y.length - 1]! += n;
    Month.y[Month.y.length - 1]! += n;
    if (key >= last) break;
  }
  if (Day.x.length > HOUR_SERIES_MAX_DAYS) return { data: { Year, Month, Day } };
  return { data: { Year, Month, Day, Hour: await hourSeries(db, reading) } };
}

/**
 * Scans per local wall-clock hour (`YYYY-MM-DDTHH:00`), every hour of the window, zeros included.
 * Where the zone's offset is whole hours, an hour row is exactly one local hour and the rollups
 * are read as for the other series. In a :30 or :45 zone every local hour is the end of one UTC
 * hour and the start of the next, which no rollup row holds (shiftedHourRows). A fall-back day's
 * repeated hour is one bucket holding both; a spring-forward day's skipped hour is not there.
 */
async function hourSeries(db: Database, { window, rows, owner, bots, filtered }: Reading) {
  const { labels, startPastUtcHour: past } = localHoursOf(window);
  const perHour = new Map<string, number>();
  if (rows && owner) {
    const from = window.from.getTime();
    const to = window.to.getTime();
    const onLocalHour = (ms: number) => (((ms - (past ?? 0)) % HOUR_MS) + HOUR_MS) % HOUR_MS === 0;
    // Shifted rows need the window to start on a UTC or local hour and to end on a local hour or
    // at now (no scan is later); otherwise, and where the offset changes inside the window, every
    // scan of the window is counted on its own.
    const shifted =
      !filtered && past !== null && past !== 0 && (from % HOUR_MS === 0 || onLocalHour(from)) && (to >= Date.now() || onLocalHour(to));
    const counted = await rowsOf<{ hour: string; n: number }>(
      db,
      sql`select to_char(c.at at time zone ${window.timezone}, 'YYYY-MM-DD"T"HH24":00"') as hour, sum(c.scans)::int as n
          from (${past === 0 ? rows('all', false) : shifted ? shiftedHourRows(owner, from, to, past) : rows('all', false, true)}) c
          where ${bots} group by 1`,
    );
    for (const r of counted) perHour.set(r.hour, r.n);
  }
  return { x: labels, y: labels.map((label) => perHour.get(label) ?? 0) };
}

/**
 * Rows (at, is_bot, scans) whose sums per local hour are exact in a zone whose hours start `past`
 * ms after each UTC hour: the local hour starting at h + past holds the UTC hour h's scans less
 * those of its first `past` ms, plus the first `past` ms of the hour after. So each hour row of
 * [floor(from), ceil(to)) is placed at h + past, and the raw scans of the first `past` ms of each
 * of those hours count +1 at their own time and -1 at their hour's h + past: Asia/Kolkata reads
 * half the window's raw scans, Asia/Kathmandu a quarter. Rows that land outside the window's
 * hours (before `from`, at or after `to`) hold only scans outside it and are not among its labels.
 */
function shiftedHourRows(scope: Scope, from: number, to: number, past: number): SQL {
  const scopeId = scope.linkId ?? scope.accountId;
  const owner = scope.linkId !== undefined ? sql`s.link_id = ${scope.linkId}` : sql`s.account_id = ${scope.accountId}`;
  const first = Math.floor(from / HOUR_MS) * HOUR_MS;
  const last = Math.ceil(to / HOUR_MS) * HOUR_MS;
  const shift = sql`make_interval(secs => ${past / 1000}::float8)`;
  return sql`select r.bucket + ${shift} as at, r.is_bot, r.scans from scan_rollups r
      where r.scope_id = ${scopeId} and r.dimension = ${ROLLUP_DIMENSIONS.all} and r.grain = 'hour'
        and r.bucket >= ${at(first)} and r.bucket < ${at(last)}
    union all
    select x.at, x.is_bot, x.scans from generate_series(${at(first)}, ${at(last - HOUR_MS)}, interval '1 hour') g(h)
      cross join lateral (select s.created_at, s.is_bot from scans s where ${owner} and s.created_at >= g.h and s.created_at < g.h + ${shift}) p
      cross join lateral (values (p.created_at, p.is_bot, 1), (g.h + ${shift}, p.is_bot, -1)) x(at, is_bot, scans)`;
}

/** Scans per local weekday and hour: all 168 keys `Mon-0` … `Sun-23`, zeros included; hour rows placed as in activity. */
export async function timeAnalytics(db: Database, scope: AnalyticsScope, query: AnalyticsQuery) {
  const { window, rows, bots } = await readingFor(db, scope, query);
  const data: Record<string, number> = {};
  for (const day of WEEKDAYS) for (let hour = 0; hour < 24; hour++) data[`${day}-${hour}`] = 0;
  if (rows) {
    const counted = await rowsOf<{ dow: number; hour: number; n: number }>(
      db,
      sql`select extract(isodow from t.local)::int as dow, extract(hour from t.local)::int as hour, sum(t.scans)::int as n
          from (select c.at at time zone ${window.timezone} as local, c.scans from (${rows('all', false)}) c where ${bots}) t group by 1, 2`,
    );
    for (const r of counted) data[`${WEEKDAYS[r.dow - 1]}-${r.hour}`] = r.n;
  }
  return { data };
}
