/**
 * A destination URL with a link's UTM parameters (utm.ts says when each part runs). Pure string
 * work, browser-safe: the console's link editor previews a destination with `withUtm`, the very
 * function the redirect runs. The query is edited as text, pair by pair, never re-serialised: a
 * destination's own parameters (a signed URL's, one spelled `%20` rather than `+`) reach it byte
 * for byte.
 */
import { UTM_FIELDS, type Utm } from './utm-fields.js';

/** The longest UTM value a link or template stores, and the longest campaign a scan records. */
export const UTM_VALUE_MAX = 200;

/** `utm_source`, … : the query parameter a UTM field is sent as. */
export const utmParam = (field: (typeof UTM_FIELDS)[number]) => `utm_${field}`;

/** A URL cut in three: before the query, the query's pairs (without `?`), the fragment with its `#` ('' when none). */
export function splitUrl(url: string): { base: string; pairs: string[]; hash: string } {
  const hashAt = url.indexOf('#');
  const hash = hashAt === -1 ? '' : url.slice(hashAt);
  const rest = hashAt === -1 ? url : url.slice(0, hashAt);
  const queryAt = rest.indexOf('?');
  if (queryAt === -1) return { base: rest, pairs: [], hash };
  const query = rest.slice(queryAt + 1);
  return { base: rest.slice(0, queryAt), pairs: query === '' ? [] : query.split('&'), hash };
}

function joinUrl(base: string, pairs: readonly string[], hash: string): string {
  return pairs.length === 0 ? base + hash : `${base}?${pairs.join('&')}${hash}`;
}

/** A query pair's name as a server reads it (`+` a space, percent-decoded); the raw name when it is no valid encoding. */
export function pairName(pair: string): string {
  const eq = pair.indexOf('=');
  const raw = (eq === -1 ? pair : pair.slice(0, eq)).replace(/\+/g, ' ');
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** The link's UTM parameters as query pairs, in UTM_FIELDS order; empty for none. */
function utmPairs(utm: Utm | null): Map<string, string> {
  const pairs = new Map<string, string>();
  if (!utm) return pairs;
  for (const field of UTM_FIELDS) {
    // A row written outside the api may hold anything: only text a URL can carry is sent.
    const value = typeof utm[field] === 'string' ? encoded(utm[field]) : null;
    if (value) pairs.set(utmParam(field), `${utmParam(field)}=${value}`);
  }
  return pairs;
}

/**
 * The destination with the link's UTM parameters added after its own, each replacing every
 * parameter of the same name already there (the link's campaign is the one that counts), before
 * any fragment. Without UTM, the destination itself.
 */
export function withUtm(destination: string, utm: Utm | null): string {
  const added = utmPairs(utm);
  if (added.size === 0) return destination;
  const { base, pairs, hash } = splitUrl(destination);
  const kept = pairs.filter((pair) => pair !== '' && !added.has(pairName(pair)));
  return joinUrl(base, [...kept, ...added.values()], hash);
}

/** A query name or value percent-encoded; null for text no URL can carry (half a surrogate pair). */
export function encoded(text: string): string | null {
  try {
    return encodeURIComponent(text);
  } catch {
    return null;
  }
}
