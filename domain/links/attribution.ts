/**
 * Where a scan came from. The URL a QR image encodes is the short URL with a marker, `?q` (a
 * printed code) or `?q=<placement code>` (a named placement's code); the redirect reads the
 * marker, records it with the scan and never passes it on. A request without a marker is a click
 * on the link itself, unless the link has codes printed before markers existed: then it is of
 * unknown source (docs/decisions/0428-qr-source-marker.md).
 */
import type { ResolvedLink } from './resolve/resolved-link.js';
import type { ScanOrigin } from '../scans/types.js';
import { SOURCE_MARKER } from './source-marker.js';
import { campaignOf } from './utm.js';

export { markedShortUrl, SOURCE_MARKER } from './source-marker.js';

/** scans.source: a printed code, the link itself; null is unknown. */
export const SCAN_SOURCES = ['qr', 'link'] as const;
export type ScanSource = (typeof SCAN_SOURCES)[number];

/** The name analytics gives an unknown source. */
export const UNKNOWN_SOURCE = 'unknown';

export interface ScanAttribution {
  source: ScanSource | null;
  placementId: string | null;
}

/**
 * A request's source and placement, from the marker in its query (undefined: none). An unknown
 * placement code (a removed placement, a hand-typed one) is still a QR scan, of no placement.
 */
export function attributionOf(link: Pick<ResolvedLink, 'unmarkedCodes' | 'placements'>, marker: unknown): ScanAttribution {
  if (marker === undefined) return { source: link.unmarkedCodes ? null : 'link', placementId: null };
  const code = Array.isArray(marker) ? marker[0] : marker;
  // Own names only: a code like `constructor` must not find an object's inherited member.
  const placements = link.placements ?? {};
  const placementId = typeof code === 'string' && Object.hasOwn(placements, code) ? placements[code]! : null;
  return { source: 'qr', placementId };
}

/** Everything a scan records about where it came from; the common scan (a code, no referrer, no campaign) costs two property reads. */
export function scanOriginOf(
  link: Pick<ResolvedLink, 'unmarkedCodes' | 'placements' | 'utm' | 'queryPolicy'>,
  query: Record<string, unknown>,
  referer: string | undefined,
): ScanOrigin {
  const { source, placementId } = attributionOf(link, query[SOURCE_MARKER]);
  return { source, placementId, referrerHost: referrerHostOf(referer), utmCampaign: campaignOf(link, query) };
}

/** The longest host name DNS allows: the longest referrer host a scan records. */
export const REFERRER_HOST_MAX = 253;

/** The host of a Referer header, lower case, never the path or query; null when there is none or it is no URL. */
export function referrerHostOf(referer: string | undefined): string | null {
  if (!referer || referer.length > 4096) return null;
  // Parsed once (URL.canParse then new URL would parse twice on the scan path; the machine's own
  // Node 20 has no URL.parse).
  let url: URL;
  try {
    url = new URL(referer);
  } catch {
    return null;
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || !url.hostname) return null;
  return url.hostname.length <= REFERRER_HOST_MAX ? url.hostname.toLowerCase() : null;
}
