/**
 * The source marker a QR image's URL carries (domain/links/attribution.ts): imports nothing, so the
 * console's in-browser designer encodes exactly what the api renders.
 */

/** The query parameter a QR image's URL carries. One letter: it must not raise the QR version of a typical short URL. */
export const SOURCE_MARKER = 'q';

/** The URL a QR image of the link encodes: its short URL with the source marker, and a placement's code when it has one. */
export function markedShortUrl(shortUrl: string, placementCode?: string | null): string {
  return placementCode ? `${shortUrl}?${SOURCE_MARKER}=${placementCode}` : `${shortUrl}?${SOURCE_MARKER}`;
}
