/**
 * Time zones and dates as the link editor shows them. Dates are written out the same way in every
 * browser ("1 Dec 2026 09:00"), not in the browser's locale, so what a summary says does not depend
 * on where it is read; instants are turned into wall-clock time with the API's own zone code.
 */
import { zonedDateTimeAt, type LocalDateTime } from '../../../domain/links/data/timezone.js';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** The browser's time zone, the default for new schedules and rules. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** The zones a select offers: Intl's list, UTC, and `current` when it is an alias the list leaves out. */
export function timeZoneOptions(current: string): string[] {
  const zones = new Set(['UTC', ...Intl.supportedValuesOf('timeZone')]);
  if (current) zones.add(current);
  return [...zones].sort();
}

/** A zone in words: `Europe/Lisbon` → "Lisbon time", `America/Argentina/Buenos_Aires` → "Buenos Aires time", `UTC` → "UTC". */
export function zoneLabel(zone: string): string {
  if (/^(Etc\/)?(UTC|GMT|UCT|Zulu|Universal)$/i.test(zone)) return 'UTC';
  const city = zone.split('/').pop() ?? zone;
  return `${city.replace(/_/g, ' ')} time`;
}

const two = (n: number) => String(n).padStart(2, '0');

/** `2026-12-01` → "1 Dec 2026"; anything else is returned as written. */
export function formatDay(isoDate: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate);
  const month = m ? MONTHS[Number(m[2]) - 1] : undefined;
  return m && month ? `${Number(m[3])} ${month} ${m[1]}` : isoDate;
}

/** A wall-clock time as "1 Dec 2026 09:00" (seconds only when there are some). */
function formatLocal(local: LocalDateTime): string {
  const seconds = local.second ? `:${two(local.second)}` : '';
  return `${local.day} ${MONTHS[local.month - 1]} ${local.year} ${two(local.hour)}:${two(local.minute)}${seconds}`;
}

/** The wall-clock time in `zone` at an instant, as a datetime-local input holds it (`2026-12-01T09:00`). */
export function localInputValue(instant: Date, zone: string): string {
  const l = zonedDateTimeAt(instant, zone);
  const seconds = l.second ? `:${two(l.second)}` : '';
  return `${String(l.year).padStart(4, '0')}-${two(l.month)}-${two(l.day)}T${two(l.hour)}:${two(l.minute)}${seconds}`;
}

/** An instant as the owner reads it in `zone`: "1 Dec 2026 09:00". */
export function formatInstant(instant: Date, zone: string): string {
  return formatLocal(zonedDateTimeAt(instant, zone));
}
