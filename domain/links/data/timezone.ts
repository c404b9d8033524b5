/**
 * IANA time zones and ISO 8601 wall-clock times, on top of Intl only (no tz database of our own).
 *
 * - A zone name is valid when Intl knows it: the canonical names of `Intl.supportedValuesOf('timeZone')`,
 *   `UTC`, and the aliases `Intl.DateTimeFormat` accepts (`Asia/Kolkata`, `Europe/Kyiv`, `US/Eastern`,
 *   `Etc/GMT+5`...). Matching is case-insensitive, as it is in Intl and PostgreSQL; the name is kept
 *   as written. UTC offsets (`+05:30`) are not zone names and are refused even where a newer
 *   Intl would take them.
 * - A wall-clock time that falls into a DST gap or overlap is resolved like Temporal's
 *   `disambiguation: 'compatible'` (and like most calendar apps): a time skipped by a spring-forward
 *   is moved forward by the length of the gap (02:30 on a New York spring-forward day is 03:30 EDT),
 *   and a time that happens twice on a fall-back day is the earlier of the two (01:30 EDT, not EST).
 * - ISO 8601 is read strictly (see `parseIsoDateTimeParts`); `Date.parse` is never used because it
 *   accepts garbage such as `'1'` or `'March 7'`.
 */

/** A wall-clock date and time. `month` is 1–12, `ms` 0–999. */
export interface LocalDateTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  ms: number;
}

/** What an ISO 8601 string says, before a zone is applied. */
export interface IsoDateTimeParts {
  local: LocalDateTime;
  /** Minutes east of UTC when the string carries `Z` or `±hh:mm`; `null` for a local (floating) time. */
  offsetMinutes: number | null;
  /** `false` for a plain date (`YYYY-MM-DD`), which means midnight. */
  hasTime: boolean;
}

// Zone names are letters, digits, `_`, `+`, `-` in `/`-separated segments, starting with a letter.
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;
/** No IANA name comes close; this only stops long junk before it reaches Intl. */
const ZONE_NAME_MAX = 64;
/** Lower-cased names Intl lists; built once. */
let knownZones: ReadonlySet<string> | undefined;
/** Lower-cased name → whether Intl accepts it, for names outside the list (aliases and junk). Bounded. */
const aliasVerdicts = new Map<string, boolean>();
const ALIAS_CACHE_MAX = 4096;

function zoneSet(): ReadonlySet<string> {
  if (!knownZones) {
    const names = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
    knownZones = new Set([...names, 'UTC'].map((n) => n.toLowerCase()));
  }
  return knownZones;
}

export function isIanaTimezone(tz: string): boolean {
  if (typeof tz !== 'string' || tz.length > ZONE_NAME_MAX || !ZONE_NAME.test(tz)) return false;
  const key = tz.toLowerCase();
  if (zoneSet().has(key)) return true;
  const cached = aliasVerdicts.get(key);
  if (cached !== undefined) return cached;
  let ok: boolean;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    ok = true;
  } catch {
    ok = false;
  }
  if (aliasVerdicts.size < ALIAS_CACHE_MAX) aliasVerdicts.set(key, ok);
  return ok;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(tz: string): Intl.DateTimeFormat {
  const key = tz.toLowerCase();
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(key, f);
  }
  return f;
}

/** Like `Date.UTC`, but years 0–99 are not read as 1900–1999 and fields roll over the same way. */
function utcMs(l: LocalDateTime): number {
  const d = new Date(0);
  d.setUTCFullYear(l.year, l.month - 1, l.day);
  d.setUTCHours(l.hour, l.minute, l.second, l.ms);
  return d.getTime();
}

/** The wall-clock date and time in `tz` at an instant, to the second (`ms` is always 0). */
export function zonedDateTimeAt(instant: Date, tz: string): LocalDateTime {
  const epochMs = instant.getTime();
  const wholeSecond = epochMs - (((epochMs % 1000) + 1000) % 1000);
  const fields: Record<string, string> = {};
  for (const p of formatterFor(tz).formatToParts(new Date(wholeSecond))) fields[p.type] = p.value;
  const yearOfEra = Number(fields.year);
  return {
    year: fields.era === 'BC' || fields.era === 'B' ? 1 - yearOfEra : yearOfEra,
    month: Number(fields.month),
    day: Number(fields.day),
    hour: Number(fields.hour),
    minute: Number(fields.minute),
    second: Number(fields.second),
    ms: 0,
  };
}

/** The zone's UTC offset in ms at an instant (positive east of UTC). */
function offsetAt(tz: string, epochMs: number): number {
  const wholeSecond = epochMs - (((epochMs % 1000) + 1000) % 1000);
  return utcMs(zonedDateTimeAt(new Date(wholeSecond), tz)) - wholeSecond;
}

const DAY_MS = 86_400_000;

/**
 * The UTC instant of a wall-clock time in `tz`. DST gaps and overlaps are resolved as described at
 * the top of this file. Out-of-range fields roll over like `Date.UTC` (month 13 is next January);
 * callers validate first. Throws a RangeError for a zone Intl does not know.
 */
export function zonedLocalToUtc(local: LocalDateTime, tz: string): Date {
  if (!isIanaTimezone(tz)) throw new RangeError(`Unknown time zone: ${tz}`);
  const wall = utcMs(local);
  if (!Number.isFinite(wall)) return new Date(NaN);
  // The offsets in force a day either side bracket any single transition near `wall`.
  const before = offsetAt(tz, wall - DAY_MS);
  const after = offsetAt(tz, wall + DAY_MS);
  const candidates = [...new Set([before, after])]
    .map((offset) => wall - offset)
    .filter((instant) => wall - offsetAt(tz, instant) === instant)
    .sort((a, b) => a - b);
  // Overlap: two candidates, take the earlier. Gap: none, so read the time with the offset from
  // before the transition, which lands the same distance past it.
  return new Date(candidates[0] ?? wall - before);
}

const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})?)?$/;

function isLeapYear(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  return [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
}

/**
 * Reads `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM[:SS[.fraction]][Z|±HH:MM]` (the RFC 3339 profile of ISO
 * 8601, with seconds and offset optional). Everything is range-checked: a real calendar date,
 * hours 00–23, minutes and seconds 00–59 (no leap second, no `24:00`), offsets up to ±23:59.
 * The separator must be `T`, the zone `Z` or `±HH:MM`. Fractions beyond milliseconds are truncated.
 * Answers `null` for anything else.
 */
export function parseIsoDateTimeParts(value: string): IsoDateTimeParts | null {
  if (typeof value !== 'string') return null;
  const m = ISO_DATE_TIME.exec(value);
  if (!m) return null;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  const hasTime = m[4] !== undefined;
  const hour = hasTime ? Number(m[4]) : 0;
  const minute = hasTime ? Number(m[5]) : 0;
  const second = m[6] !== undefined ? Number(m[6]) : 0;
  const ms = m[7] !== undefined ? Number(m[7].slice(0, 3).padEnd(3, '0')) : 0;
  if (hour > 23 || minute > 59 || second > 59) return null;
  let offsetMinutes: number | null = null;
  const zone = m[8];
  if (zone === 'Z') offsetMinutes = 0;
  else if (zone !== undefined) {
    const oh = Number(zone.slice(1, 3));
    const om = Number(zone.slice(4, 6));
    if (oh > 23 || om > 59) return null;
    offsetMinutes = (zone[0] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  return { local: { year, month, day, hour, minute, second, ms }, offsetMinutes, hasTime };
}

/**
 * The instant an ISO 8601 value names: with `Z`/`±HH:MM` that instant (the zone is not consulted);
 * without an offset the wall-clock time in `tz`; a plain date is midnight in `tz`. `null` when the
 * value is not ISO 8601 as `parseIsoDateTimeParts` reads it, or when a zone is needed and `tz` is
 * not one.
 */
export function parseDateTimeInZone(value: string, tz: string): Date | null {
  const parts = parseIsoDateTimeParts(value);
  if (!parts) return null;
  if (parts.offsetMinutes !== null) {
    return new Date(utcMs(parts.local) - parts.offsetMinutes * 60_000);
  }
  if (!isIanaTimezone(tz)) return null;
  return zonedLocalToUtc(parts.local, tz);
}
