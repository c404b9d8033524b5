/**
 * The formats of link data values as plain predicates (no zod), so pages and the console can check
 * a value the way the link data schemas do.
 */
import { URL_MAX } from './limits.js';
import { parseIsoDateTimeParts } from './timezone.js';

export function isHttpUrl(value: string): boolean {
  return httpUrlHref(value) !== null;
}

/**
 * An absolute http(s) URL (see the URL rule in schemas.ts) as the WHATWG URL standard serialises it, or
 * null when the value is not one. The serialisation is plain printable ASCII: path, query and
 * fragment percent-encoded as UTF-8, an IDN host in punycode (`bücher.example` →
 * `xn--bcher-kva.example`). That is the form browsers send and the only one a Location header can
 * carry, so it is the form stored and redirected to.
 */
export function httpUrlHref(value: string): string | null {
  if (typeof value !== 'string' || value.length > URL_MAX) return null;
  // The WHATWG parser would quietly fix `http:example.com`, `https:/x` or stray whitespace, which
  // would store something the client did not mean; those are refused rather than repaired.
  if (!/^https?:\/\//i.test(value) || /[\u0000-\u0020\u007f]/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  const ok = (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' && url.username === '' && url.password === '';
  return ok ? url.href : null;
}

export function isPhoneNumber(value: string): boolean {
  return typeof value === 'string' && /^[0-9 +\-().]{3,32}$/.test(value) && (value.match(/[0-9]/g)?.length ?? 0) >= 3;
}

/** `YYYY-MM-DD`, a real calendar date. */
export function isIsoDate(value: string): boolean {
  const parts = typeof value === 'string' && value.length === 10 ? parseIsoDateTimeParts(value) : null;
  return parts !== null && !parts.hasTime;
}

/** A date and a time, optionally with an offset (a plain date is not a date-time). */
export function isIsoDateTime(value: string): boolean {
  return parseIsoDateTimeParts(value)?.hasTime === true;
}

/** `HH:MM`, 24-hour. */
export function isTimeOfDay(value: string): boolean {
  return typeof value === 'string' && /^(?:[01][0-9]|2[0-3]):[0-5][0-9]$/.test(value);
}

export function utf8Length(value: string): number {
  return Buffer.byteLength(value, 'utf8');
}
