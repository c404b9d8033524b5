/**
 * The analytics dashboard's view (range, time zone, bots) and the URL that holds it, so a view can
 * be bookmarked; the API queries it makes, the period it is compared with, and the answers turned
 * into what the screen draws (chart series, the weekday × hour grid, ranked bars).
 */
import type { paths } from '../api/schema.js';

// The API's presets (domain/analytics/window.ts, which is not imported: it brings zod along).
export const DURATIONS = ['today', 'yesterday', '48_hours', '7_days', '30_days', '3_months', '1_year', 'custom'] as const;
export type Duration = (typeof DURATIONS)[number];

/** A calendar date as its UTC midnight, so adding days is plain arithmetic. */
type LocalDate = Date;
const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` (a real calendar date) or null. */
function parseLocalDate(value: string): LocalDate | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return null;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().startsWith(value) ? d : null;
}
const formatDate = (d: LocalDate) => d.toISOString().slice(0, 10);
const addDays = (d: LocalDate, days: number): LocalDate => new Date(d.getTime() + days * DAY_MS);
/** The local calendar date in `zone` at an instant. */
function localDateAt(instant: Date, zone: string): LocalDate {
  return parseLocalDate(
    new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant),
  )!;
}

export type AnalyticsQuery = NonNullable<paths['/api/v1/analytics/general']['get']['parameters']['query']>;
type Activity = paths['/api/v1/analytics/activity']['get']['responses'][200]['content']['application/json']['data'];
type TimeGrid = paths['/api/v1/analytics/time']['get']['responses'][200]['content']['application/json']['data'];
export type RankedRow = paths['/api/v1/analytics/browser']['get']['responses'][200]['content']['application/json']['data'][number];

export const DURATION_LABELS: Record<Duration, string> = {
  today: 'Today',
  yesterday: 'Yesterday',
  '48_hours': 'Last 48 hours',
  '7_days': 'Last 7 days',
  '30_days': 'Last 30 days',
  '3_months': 'Last 3 months',
  '1_year': 'Last year',
  custom: 'Custom range',
};

/** Where scans came from, as the source ranking names it (`qr`, `link`, `unknown`), in the order the split bar draws them. */
export const SOURCES = ['qr', 'link', 'unknown'] as const;
export type Source = (typeof SOURCES)[number];

/** What a dashboard can be narrowed to by a click: the API's filter parameters, as the ranked rows name the values. */
export const FILTERS = [
  { key: 'country', label: 'Country' },
  { key: 'browser', label: 'Browser' },
  { key: 'os', label: 'System' },
  { key: 'source', label: 'Source' },
  { key: 'domain', label: 'Domain' },
] as const;
export type FilterKey = (typeof FILTERS)[number]['key'];
export type Filters = { [K in FilterKey]?: NonNullable<AnalyticsQuery[K]> };

/** Whether `value` is one the API takes for filter `key` (any text but for the source, one of SOURCES). */
function isFilterValue(key: FilterKey, value: string): boolean {
  return key !== 'source' || (SOURCES as readonly string[]).includes(value);
}

export interface AnalyticsView {
  duration: Duration;
  /** With `custom`: the first and last local days (YYYY-MM-DD), both included. */
  from: string;
  to: string;
  timezone: string;
  /** Bots counted too (the API's exclude_bots=false). */
  bots: boolean;
  /** Only the scans with these facts (set by clicking a country, browser or system). */
  filters: Filters;
}

/** The view's filters that are set, in FILTERS' order. */
export function activeFilters(view: Pick<AnalyticsView, 'filters'>): Array<{ key: FilterKey; label: string; value: string }> {
  return FILTERS.flatMap(({ key, label }) => {
    const value = view.filters[key];
    return value ? [{ key, label, value }] : [];
  });
}

/** The view with one filter set (a value) or removed (undefined, or a value the API would refuse). */
export function withFilter(view: AnalyticsView, key: FilterKey, value: string | undefined): AnalyticsView {
  const filters: Record<string, string> = { ...view.filters };
  if (value === undefined || !isFilterValue(key, value)) delete filters[key];
  else filters[key] = value;
  return { ...view, filters };
}

/** The view a query string describes; anything unknown or malformed falls back to the default (the last 7 days in `browserZone`). */
export function viewFromQuery(query: string, browserZone: string): AnalyticsView {
  const params = new URLSearchParams(query);
  const duration = params.get('duration');
  const date = (name: string) => {
    const value = params.get(name) ?? '';
    return parseLocalDate(value) ? value : '';
  };
  return {
    duration: (DURATIONS as readonly string[]).includes(duration ?? '') ? (duration as Duration) : '7_days',
    from: date('from'),
    to: date('to'),
    timezone: params.get('tz') || browserZone,
    bots: params.get('bots') === '1',
    filters: Object.fromEntries(
      FILTERS.flatMap(({ key }) => {
        const value = params.get(key);
        return value && isFilterValue(key, value) ? [[key, value]] : [];
      }),
    ),
  };
}

/** The console route of a view: `/analytics` for the account, `/analytics/<slug>` for one link; only what differs from the default is written. */
export function routeOfView(view: AnalyticsView, browserZone: string, slug: string | null): string {
  const params = new URLSearchParams();
  if (view.duration !== '7_days') params.set('duration', view.duration);
  if (view.duration === 'custom') {
    if (view.from) params.set('from', view.from);
    if (view.to) params.set('to', view.to);
  }
  if (view.timezone !== browserZone) params.set('tz', view.timezone);
  if (view.bots) params.set('bots', '1');
  for (const { key, value } of activeFilters(view)) params.set(key, value);
  const path = slug === null ? '/analytics' : `/analytics/${encodeURIComponent(slug)}`;
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}

/** The link a dashboard route names (`/<slug>` beneath Analytics), null for the account's; undefined for a path that is neither. */
export function slugOfSubpath(subpath: string): string | null | undefined {
  if (subpath === '') return null;
  const m = /^\/([^/]+)$/.exec(subpath);
  if (!m) return undefined;
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    return undefined;
  }
}

/** The analytics GETs' query for a view; `limit` for the ranked ones. */
export function apiQuery(view: AnalyticsView, limit?: number): AnalyticsQuery {
  return {
    duration: view.duration,
    ...(view.duration === 'custom' && view.from ? { date_from: view.from } : {}),
    ...(view.duration === 'custom' && view.to ? { date_to: view.to } : {}),
    exclude_bots: view.bots ? 'false' : 'true',
    timezone: view.timezone,
    ...(limit !== undefined ? { limit } : {}),
    ...view.filters,
  };
}

/**
 * The period before the view's, as whole local days (the API takes custom ranges in days), and
 * what it is called. The N-day presets end now, so the period before them is N whole days; today
 * is compared with all of yesterday and the last 48 hours with the two whole days before them,
 * which the label says.
 */
export function previousPeriod(view: AnalyticsView, now: Date): { from: string; to: string; label: string } {
  const today = localDateAt(now, view.timezone);
  const days = (first: LocalDate, count: number, label: string) => ({
    from: formatDate(first),
    to: formatDate(addDays(first, count - 1)),
    label,
  });
  const presetDays: Partial<Record<Duration, number>> = { '7_days': 7, '30_days': 30, '3_months': 90, '1_year': 365 };
  switch (view.duration) {
    case 'today':
      return days(addDays(today, -1), 1, 'yesterday');
    case 'yesterday':
      return days(addDays(today, -2), 1, 'the day before');
    case '48_hours':
      return days(addDays(today, -4), 2, 'the two days before');
    case 'custom': {
      const first = parseLocalDate(view.from) ?? new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1));
      const last = parseLocalDate(view.to) ?? today;
      const count = Math.max(1, Math.round((last.getTime() - first.getTime()) / DAY_MS) + 1);
      return days(addDays(first, -count), count, `the ${count} day${count === 1 ? '' : 's'} before`);
    }
    default: {
      const count = presetDays[view.duration]!;
      return days(addDays(today, -2 * count + 1), count, `the ${count} days before`);
    }
  }
}

/** The change from `before` to `now` in words: "+25% vs …", "no scans in …" when there is nothing to compare with. */
export function changeText(now: number, before: number, label: string): string {
  if (before === 0) return now === 0 ? `none in ${label} either` : `none in ${label}`;
  const percent = Math.round(((now - before) / before) * 100);
  return `${percent > 0 ? '+' : percent < 0 ? '−' : '±'}${Math.abs(percent)}% vs ${label} (${before.toLocaleString('en')})`;
}

/** What the scans chart draws: one bar per local hour or per local day. */
export interface ScanSeries {
  unit: 'hour' | 'day';
  /** The buckets as the API names them: `YYYY-MM-DDTHH:00` or `YYYY-MM-DD`. */
  labels: string[];
  /** Each bucket's local wall-clock start read as UTC, in seconds (the chart shows them as UTC). */
  xs: number[];
  ys: number[];
}

/**
 * The activity answer as the chart's series: its hours when it has them (ranges of up to 7 days:
 * today, yesterday, 48 hours, 7 days, short custom ranges), else its days.
 */
export function scanSeries(activity: Activity): ScanSeries {
  const hours = activity.Hour;
  const [unit, series] = hours ? (['hour', hours] as const) : (['day', activity.Day] as const);
  const xs = series.x.map((label) => {
    const day = parseLocalDate(label.slice(0, 10));
    const hour = unit === 'hour' ? /^T(\d{2}):00$/.exec(label.slice(10)) : null;
    if (!day || (unit === 'hour' && !hour)) return NaN;
    return day.getTime() / 1000 + (hour ? Number(hour[1]) * 3600 : 0);
  });
  return { unit, labels: [...series.x], xs, ys: [...series.y] };
}

/** A bucket's name in the table beside the chart: `2026-11-26 14:00` for an hour, the date for a day. */
export const bucketLabel = (label: string) => label.replace('T', ' ');

const DEVICE_NAMES: Record<string, string> = {
  mobile: 'Mobile',
  tablet: 'Tablet',
  desktop: 'Desktop',
  smarttv: 'Smart TV',
  wearable: 'Wearable',
  console: 'Game console',
  embedded: 'Embedded',
};

/** A device type as the API names it (ua-parser-js's lower-case types, "Unknown") in words. */
export const deviceLabel = (name: string) => DEVICE_NAMES[name] ?? name;

export const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;
export const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

/** The time answer as 7 rows (Monday first) of 24 hours, and the busiest cell (for shading; at least 1). */
export function weekGrid(time: TimeGrid): { rows: number[][]; max: number } {
  const rows = WEEKDAYS.map((day) => Array.from({ length: 24 }, (_, hour) => time[`${day}-${hour}`] ?? 0));
  return { rows, max: Math.max(1, ...rows.flat()) };
}

/** How dark a heatmap cell is: 0 for none, else one of 1–5 by its share of the busiest cell. */
export function heatLevel(count: number, max: number): number {
  return count <= 0 ? 0 : Math.min(5, Math.ceil((count / max) * 5));
}

/** ISO 3166 codes by English country name (the names the API stores come from the same Intl table). */
let codesByName: Map<string, string> | null = null;
export function countryCode(name: string): string | null {
  if (!codesByName) {
    codesByName = new Map();
    const english = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
    for (let a = 65; a <= 90; a++) {
      for (let b = 65; b <= 90; b++) {
        const code = String.fromCharCode(a, b);
        const n = english.of(code);
        // Retired codes (DD for East Germany, named "Germany") canonicalize to another.
        if (n && Intl.getCanonicalLocales(`und-${code}`)[0] === `und-${code}`) codesByName.set(n, code);
      }
    }
  }
  return codesByName.get(name) ?? null;
}

/** A country row as shown: its flag emoji (from its ISO code) and its name in `locale`; an unknown name as it is, with no flag. */
export function countryLabel(name: string, locale: string): { flag: string; name: string } {
  const code = countryCode(name);
  if (!code) return { flag: '', name };
  const flag = String.fromCodePoint(...[...code].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
  let local = name;
  try {
    local = new Intl.DisplayNames([locale, 'en'], { type: 'region' }).of(code) ?? name;
  } catch {
    // An invalid locale tag: keep the English name.
  }
  return { flag, name: local };
}

/** A ranked row's bar width, as a share of the first (largest) row, in percent. */
export function barWidth(row: Pick<RankedRow, 'scans'>, top: number): number {
  return top > 0 ? Math.max(1, Math.round((row.scans / top) * 100)) : 0;
}

type ExportBody = NonNullable<paths['/api/v1/analytics/export']['post']['requestBody']>['content']['application/json'];

/** The export's body for a view: the same local days in the same zone; the last 48 hours are the export's default window. Bots are always left out (the export has no switch). */
export function exportBody(view: AnalyticsView, now: Date): ExportBody {
  const today = localDateAt(now, view.timezone);
  // The export follows the dashboard's "Count bots too".
  // And its filters.
  const bots = { ...(view.bots ? { includeBots: true } : {}), ...view.filters };
  const days = (first: LocalDate, last: LocalDate): ExportBody => ({
    startDate: formatDate(first),
    endDate: formatDate(last),
    timezone: view.timezone,
    ...bots,
  });
  const back: Partial<Record<Duration, number>> = { today: 0, '7_days': 6, '30_days': 29, '3_months': 89, '1_year': 364 };
  switch (view.duration) {
    case '48_hours':
      return { timezone: view.timezone, ...bots };
    case 'yesterday':
      return days(addDays(today, -1), addDays(today, -1));
    case 'custom':
      return days(
        parseLocalDate(view.from) ?? new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1)),
        parseLocalDate(view.to) ?? today,
      );
    default:
      return days(addDays(today, -back[view.duration]!), today);
  }
}
