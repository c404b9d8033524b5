/**
 * What a duration preset covers: the [from, to) instants of an analytics query, read in the
 * caller's time zone (docs/decisions/0185-durations.md). "Today" starts at local midnight, a day
 * bucket is a local calendar day, and a DST change day is 23 or 25 hours long.
 */
import { ValidationError } from '../errors.js';
import { parseIsoDateTimeParts, zonedDateTimeAt, zonedLocalToUtc } from '../links/data/timezone.js';

export const DURATIONS = ['today', 'yesterday', '48_hours', '7_days', '30_days', '3_months', '1_year', 'custom'] as const;
export type Duration = (typeof DURATIONS)[number];

/** The longest custom range: ten years of day buckets, so no request builds millions of them. */
export const MAX_CUSTOM_DAYS = 3653;

/** A calendar date (month 1–12). */
export interface LocalDate {
  year: number;
  month: number;
  day: number;
}

export interface AnalyticsWindow {
  from: Date;
  /** Exclusive. */
  to: Date;
  timezone: string;
}

const HOUR_MS = 3_600_000;

/** Midnight UTC of a calendar date, in ms; setUTCFullYear, not Date.UTC, which reads years 0–99 as 1900–1999. */
function utcMidnight(date: LocalDate, dayOffset = 0): Date {
  const d = new Date(0);
  d.setUTCFullYear(date.year, date.month - 1, date.day + dayOffset);
  return d;
}

/** `date` moved by `days` calendar days. */
export function addDays(date: LocalDate, days: number): LocalDate {
  const d = utcMidnight(date, days);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

export function formatDate(date: LocalDate): string {
  return `${String(date.year).padStart(4, '0')}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;
}

/** The local calendar date in `tz` at an instant. */
export function localDateAt(instant: Date, tz: string): LocalDate {
  const { year, month, day } = zonedDateTimeAt(instant, tz);
  return { year, month, day };
}

/** The local hours a window touches and where they start (see localHoursOf). */
export interface LocalHours {
  /** `YYYY-MM-DDTHH:00`, in order, each once. */
  labels: string[];
  /**
   * How far past a UTC hour every local hour of the window starts, in ms: 0 where the zone's
   * offset is whole hours, 30 minutes in Asia/Kolkata, 15 in Asia/Kathmandu; null when it changes
   * within the window (Australia/Lord_Howe's half-hour DST).
   */
  startPastUtcHour: number | null;
}

/**
 * The local wall-clock hours of [from, to) in its zone, walked hour by hour. A fall-back day's
 * repeated hour is one label (it comes round twice); a spring-forward day's skipped hour has none.
 * The first and last may be partial hours (a window that starts or ends inside one).
 */
export function localHoursOf(window: AnalyticsWindow): LocalHours {
  const labels: string[] = [];
  const seen = new Set<string>();
  const starts = new Set<number>();
  const to = window.to.getTime();
  for (let t = window.from.getTime(); t < to;) {
    const local = zonedDateTimeAt(new Date(t), window.timezone);
    const date = formatDate(local);
    const label = `${date}T${String(local.hour).padStart(2, '0')}:00`;
    if (!seen.has(label)) (seen.add(label), labels.push(label));
    const wall =
      utcMidnight(local).getTime() + local.hour * HOUR_MS + local.minute * 60_000 + local.second * 1000 + (((t % 1000) + 1000) % 1000);
    const intoHour = ((wall % HOUR_MS) + HOUR_MS) % HOUR_MS;
    starts.add((((t - intoHour) % HOUR_MS) + HOUR_MS) % HOUR_MS);
    t += HOUR_MS - intoHour;
  }
  return { labels, startPastUtcHour: starts.size <= 1 ? ([...starts][0] ?? 0) : null };
}

/** The instant a local day starts in `tz` (a midnight skipped by DST is the first instant of the day). */
function startOfDay(date: LocalDate, tz: string): Date {
  return zonedLocalToUtc({ ...date, hour: 0, minute: 0, second: 0, ms: 0 }, tz);
}

/** `YYYY-MM-DD` (a real calendar date) or null. */
export function parseLocalDate(value: string): LocalDate | null {
  const parts = parseIsoDateTimeParts(value);
  if (!parts || parts.hasTime || parts.offsetMinutes !== null) return null;
  const { year, month, day } = parts.local;
  return { year, month, day };
}

export interface WindowQuery {
  duration: Duration;
  date_from?: string;
  date_to?: string;
  timezone: string;
}

/**
 * The window a query asks for at `now`. Rolling presets end at `now`; `custom` covers whole local
 * days from date_from to date_to inclusive (defaults: the first of the current month, today).
 */
export function analyticsWindow(query: WindowQuery, now: Date = new Date()): AnalyticsWindow {
  const tz = query.timezone;
  const today = localDateAt(now, tz);
  const daysBack = (n: number) => ({ from: startOfDay(addDays(today, -n), tz), to: now, timezone: tz });
  switch (query.duration) {
    case 'today':
      return daysBack(0);
    case 'yesterday':
      return { from: startOfDay(addDays(today, -1), tz), to: startOfDay(today, tz), timezone: tz };
    case '48_hours':
      // From the start of the UTC hour 48 hours ago: whole hour buckets, so a busy account's default
      // window never reads raw scans (between 48 and 49 hours, documented).
      return { from: new Date(Math.floor((now.getTime() - 48 * HOUR_MS) / HOUR_MS) * HOUR_MS), to: now, timezone: tz };
    case '7_days':
      return daysBack(6);
    case '30_days':
      return daysBack(29);
    case '3_months':
      return daysBack(89);
    case '1_year':
      return daysBack(364);
    case 'custom': {
      // The query schema has checked both are real dates.
      const first = query.date_from ? parseLocalDate(query.date_from)! : { ...today, day: 1 };
      const last = query.date_to ? parseLocalDate(query.date_to)! : today;
      const days = Math.round((utcMidnight(last).getTime() - utcMidnight(first).getTime()) / 86_400_000);
      if (days < 0) throw new ValidationError([{ path: 'date_to', message: `Must not be before date_from (${formatDate(first)})` }]);
      if (days >= MAX_CUSTOM_DAYS)
        throw new ValidationError([{ path: 'date_from', message: `The range may cover at most ${MAX_CUSTOM_DAYS} days` }]);
      return { from: startOfDay(first, tz), to: startOfDay(addDays(last, 1), tz), timezone: tz };
    }
  }
}
