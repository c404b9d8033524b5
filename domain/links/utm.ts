/**
 * Where a website or smart-url link sends a visitor, given its UTM parameters and query policy
 * (docs/decisions/0432-utm-and-query-policy.md). Pure, no I/O:
 * - `withUtm` (utm-url.ts) runs once per destination when a link enters a redirect process's cache
 *   (resolve/destinations.ts), so a link that drops the visitor's query costs nothing per scan;
 * - `withVisitorQuery` runs per scan, only for a link that merges and a visitor who brought a query;
 * - `campaignOf` names the campaign a scan records.
 */
import { SOURCE_MARKER } from './source-marker.js';
import type { QueryPolicy, Utm } from './utm-fields.js';
import { encoded, pairName, splitUrl, utmParam, UTM_VALUE_MAX } from './utm-url.js';

/**
 * The longest Location a merge may make. Past it the visitor's query is left out: some browsers
 * and proxies refuse longer headers, and a visitor's query is not worth a failed redirect.
 */
export const MERGED_LOCATION_MAX = 8 * 1024;

/** What a link's redirect needs of it (a ResolvedLink has both). */
export interface UtmPolicy {
  utm: Utm | null;
  queryPolicy: QueryPolicy;
}

/** One value of a parsed query (a repeated name gives a list), as strings. */
function valuesOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return [];
}

/** A destination as a merge needs it: up to its fragment, its fragment, and the names it has. */
interface MergeBase {
  head: string;
  hasQuery: boolean;
  hash: string;
  own: ReadonlySet<string>;
}

/**
 * Destinations read for a merge, so a scan only walks the visitor's query (reading the
 * destination again took most of a merge's time). A few hundred links' destinations at most are
 * scanned often; the map is emptied when full, which bounds its memory whatever is scanned.
 */
const mergeBases = new Map<string, MergeBase>();
const MERGE_BASES_MAX = 1000;

function mergeBaseOf(destination: string): MergeBase {
  let found = mergeBases.get(destination);
  if (found) return found;
  const { base, pairs, hash } = splitUrl(destination);
  const kept = pairs.filter((pair) => pair !== '');
  found = { head: kept.length > 0 ? `${base}?${kept.join('&')}` : base, hasQuery: kept.length > 0, hash, own: new Set(kept.map(pairName)) };
  if (mergeBases.size >= MERGE_BASES_MAX) mergeBases.clear();
  mergeBases.set(destination, found);
  return found;
}

/**
 * The destination with the visitor's query added: every parameter but the source marker (`q`,
 * the redirect's own) and those the destination already names (its own and the link's UTM win).
 * A result longer than MERGED_LOCATION_MAX is the destination alone.
 */
export function withVisitorQuery(destination: string, query: Readonly<Record<string, unknown>>): string {
  const names = Object.keys(query);
  if (names.length === 0) return destination;
  const merge = mergeBaseOf(destination);
  let added = '';
  let length = destination.length;
  for (const name of names) {
    if (name === SOURCE_MARKER || merge.own.has(name)) continue;
    const key = encoded(name);
    if (key === null) continue;
    for (const value of valuesOf(query[name])) {
      const text = encoded(value);
      if (text === null) continue;
      const pair = added === '' ? `${key}=${text}` : `&${key}=${text}`;
      length += pair.length + 1;
      if (length > MERGED_LOCATION_MAX) return destination;
      added += pair;
    }
  }
  if (added === '') return destination;
  return `${merge.head}${merge.hasQuery ? '&' : '?'}${added}${merge.hash}`;
}

// C0 and C1 controls and DEL: nothing a campaign name is made of.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** The first `max` code points of `text`, so a cut never leaves half a surrogate pair. */
function firstCodePoints(text: string, max: number): string {
  let end = 0;
  for (let n = 0; n < max && end < text.length; n++) end += text.codePointAt(end)! > 0xffff ? 2 : 1;
  return text.slice(0, end);
}

/**
 * The utm_campaign a scan sends the visitor on with, for its record: the link's own; else, where
 * the link merges the visitor's query, the visitor's (the first, trimmed, at most UTM_VALUE_MAX
 * code points; none when empty or holding control characters). Null: no campaign. A campaign
 * written into the destination URL itself is not the link's setting and is not seen here.
 */
export function campaignOf(link: UtmPolicy, query: Readonly<Record<string, unknown>>): string | null {
  const own = link.utm?.campaign;
  if (own) return firstCodePoints(own, UTM_VALUE_MAX);
  if (link.queryPolicy !== 'merge') return null;
  const visitor = valuesOf(query[utmParam('campaign')])[0]?.trim();
  if (!visitor || CONTROL.test(visitor)) return null;
  return firstCodePoints(visitor, UTM_VALUE_MAX);
}
