/**
 * Time zones and dates as the link editor shows them. Dates are written out the same way in every
 * browser ("1 Dec 2026 09:00"), not in the browser's locale, so what a summary says does not depend
 * on where it is read; instants are turned into wall-clock time with the API's own zone code.
 */
import { zonedDateTimeAt, type LocalDateTime } from '#domain/links/data/timezone.js';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

let knownZone: string | undefined;

/**
 * The browser's time zone, the default for new schedules and rules. Read once per page: the first
 * Intl.DateTimeFormat costs tens of milliseconds on a phone, and screens ask on every render.
 */
export function browserTimeZone(): string {
  return (knownZone ??= Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');
}

/** The zones a select offers: Intl's list, UTC, and `current` when it is an alias the list leaves out. */
export function timeZoneOptions(current: string): string[] {
  const zones = new Set(['UTC', ...Intl.supportedValuesOf('timeZone')]);
  if (current) zones.add(current);
  return [...zones].sort();
}

/** Zones most people who pick one want, after their own: the world's busiest business zones. */
const COMMON_ZONES = [
  'UTC',
  'Europe/London',
  'Europe/Lisbon',
  'Europe/Paris',
  'Europe/Berlin',
  'Europe/Madrid',
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Los_Angeles',
  'America/Sao_Paulo',
  'America/Mexico_City',
  'Asia/Dubai',
  'Asia/Kolkata',
  'Asia/Singapore',
  'Asia/Shanghai',
  'Asia/Tokyo',
  'Australia/Sydney',
];

export interface ZoneGroup {
  label: string;
  zones: string[];
}

/**
 * The zones a select offers, in groups: the one chosen and the browser's first, then common zones,
 * then every zone by region, so nobody scrolls 400 names to find their own. Each zone is in its
 * first group only.
 */
export function groupedTimeZoneOptions(current: string, browser: string): ZoneGroup[] {
  const all = timeZoneOptions(current);
  const known = new Set(all);
  const seen = new Set<string>();
  const take = (zones: string[]) => zones.filter((z) => known.has(z) && !seen.has(z) && seen.add(z));
  const groups: ZoneGroup[] = [
    { label: current === browser || !current ? 'Yours' : 'Chosen and yours', zones: take([current, browser]) },
    { label: 'Common', zones: take(COMMON_ZONES) },
  ];
  const regions = new Map<string, string[]>();
  for (const zone of take(all)) {
    const region = zone.includes('/') ? zone.split('/')[0]! : 'Other';
    regions.set(region, [...(regions.get(region) ?? []), zone]);
  }
  for (const [region, zones] of regions) groups.push({ label: region, zones });
  return groups.filter((g) => g.zones.length > 0);
}

/** A zone as a select shows it, its city first so typing the city finds it: "Lisbon · Europe", "UTC". */
export function zoneOptionLabel(zone: string): string {
  const parts = zone.replace(/_/g, ' ').split('/');
  return parts.length < 2 ? parts[0]! : `${parts.slice(1).reverse().join(', ')} · ${parts[0]}`;
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
