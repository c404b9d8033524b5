/**
 * Where a scan came from. The URL a QR image encodes is the short URL with a marker, `?q` (a
 * printed code) or `?q=<placement code>` (a named placement's code); the redirect reads the
 * marker, records it with the scan and never passes it on. A request without a marker is a click
 * on the link itself, unless the link has codes printed before markers existed: then it is of
 * unknown source (docs/decisions/0428-qr-source-marker.md).
 */
import type { ResolvedLink } from './resolve/resolved-link.js';

/** The query parameter a QR image's URL carries. One letter: it must not raise the QR version of a typical short URL. */
export const SOURCE_MARKER = 'q';

/** scans.source: a printed code, the link itself; null is unknown. */
export const SCAN_SOURCES = ['qr', 'link'] as const;
export type ScanSource = (typeof SCAN_SOURCES)[number];

/** The name analytics gives an unknown source. */
export const UNKNOWN_SOURCE = 'unknown';

/** The URL a QR image of the link encodes: its short URL with the source marker, and a placement's code when it has one. */
export function markedShortUrl(shortUrl: string, placementCode?: string | null): string {
  return placementCode ? `${shortUrl}?${SOURCE_MARKER}=${placementCode}` : `${shortUrl}?${SOURCE_MARKER}`;
}

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
  const placementId = typeof code === 'string' && code !== '' ? (link.placements?.[code] ?? null) : null;
  return { source: 'qr', placementId };
}

/** The longest host name DNS allows. */
const HOST_MAX = 253;

/** The host of a Referer header, lower case, never the path or query; null when there is none or it is no URL. */
export function referrerHostOf(referer: string | undefined): string | null {
  if (!referer || referer.length > 4096) return null;
  // Not URL.parse: the machine's own Node (20) has no such function.
  const url = URL.canParse(referer) ? new URL(referer) : null;
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || !url.hostname) return null;
  return url.hostname.length <= HOST_MAX ? url.hostname.toLowerCase() : null;
}
