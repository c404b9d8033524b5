/**
 * The links list's QR thumbnails, drawn in the browser by the server's own SVG renderer (the
 * designer's) from each link's stored design without its logo (too small to see at 40 px, and the
 * list does not fetch logos: GET /links?fields=). Loaded on demand, after the rows have painted,
 * and drawn a few at a time between frames, so the list shows at once and the main thread stays free.
 * Each picture is kept (as an object URL) per short URL and design for as long as the tab lives.
 */
import { withQrDefaults, type QrOptions } from '#domain/qr/options.js';
import { makeMatrix } from '#domain/qr/render/matrix.js';
import { svgFromMatrix } from '#domain/qr/render/svg-write.js';

/** Drawn this big: enough pixels per module for any short URL's code at the stored margin. */
const DRAWN_PX = 160;
const kept = new Map<string, string | null>();

/** The thumbnail's object URL, or null when the design cannot be drawn (the row keeps its icon). */
export function thumbnailUrl(data: string, design: Record<string, unknown>): string | null {
  const key = `${data}\n${JSON.stringify(design)}`;
  let url = kept.get(key);
  if (url === undefined) {
    try {
      const opts = withQrDefaults(design, data);
      opts.width = opts.height = DRAWN_PX;
      opts.margin = Math.min(opts.margin, 8);
      const svg = svgFromMatrix(opts, makeMatrix(opts), null);
      url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
    } catch {
      url = null;
    }
    kept.set(key, url);
  }
  return url;
}
