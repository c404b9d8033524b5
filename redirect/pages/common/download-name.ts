/**
 * File names for the downloads a page offers (`Ada Lovelace.vcf`, `Jazz at the Aroma.ics`), sent
 * in Content-Disposition: the name as written in `filename*` (RFC 6266 / RFC 5987, UTF-8), an
 * ASCII stand-in in `filename` for old clients. Characters no file system takes are dropped.
 */
import { firstCodePoints } from '#platform/format/text.js';

const NAME_MAX = 80;
/** A lone surrogate: encodeURIComponent throws on one, and no file system wants it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A name safe as a file name on every system: no path separators, controls or reserved characters. */
export function downloadName(name: string, fallback: string, extension: string): string {
  const cleaned = name
    .replace(/[\u0000-\u001f\u007f<>:"/\\|?*]+|\.{2,}/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '')
    .replace(LONE_SURROGATE, '');
  const short = firstCodePoints(cleaned, NAME_MAX).trim();
  return `${short || fallback}.${extension}`;
}

/** RFC 8187 ext-value characters: percent-encode everything but attr-char. */
export function encodeRfc5987(name: string): string {
  return encodeURIComponent(name.replace(LONE_SURROGATE, '\uFFFD')).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** `attachment; filename="Ada Lovelace.vcf"; filename*=UTF-8''Ada%20Lovelace.vcf`. */
export function attachmentDisposition(fileName: string): string {
  const ascii =
    fileName
      .normalize('NFD')
      .replace(/[^\x20-\x7e]/g, '')
      .replace(/["\\]/g, '') || 'download';
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeRfc5987(fileName)}`;
}
