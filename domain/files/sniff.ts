/**
 * Decides what an uploaded file is from its bytes alone. The client's Content-Type and file name
 * are never consulted: a PNG named x.pdf is a PNG, and an HTML page named logo.png is refused.
 */

export type SniffedType = 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif' | 'application/pdf' | 'image/svg+xml';

/** The types an upload may have, as the error message names them. */
export const ALLOWED_TYPES_LABEL = 'PNG, JPEG, WebP, GIF, PDF, SVG';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);
const GIF87 = Buffer.from('GIF87a', 'latin1');
const GIF89 = Buffer.from('GIF89a', 'latin1');
const RIFF = Buffer.from('RIFF', 'latin1');
const WEBP = Buffer.from('WEBP', 'latin1');
const PDF = Buffer.from('%PDF-', 'latin1');

const startsWith = (buf: Buffer, sig: Buffer, at = 0) => buf.length >= at + sig.length && buf.subarray(at, at + sig.length).equals(sig);

/** Magic numbers of the binary types; null when none matches. Needs only the first 12 bytes. */
export function sniffBinary(buf: Buffer): Exclude<SniffedType, 'image/svg+xml'> | null {
  if (startsWith(buf, PNG)) return 'image/png';
  if (startsWith(buf, JPEG)) return 'image/jpeg';
  if (startsWith(buf, GIF87) || startsWith(buf, GIF89)) return 'image/gif';
  if (startsWith(buf, RIFF) && startsWith(buf, WEBP, 8)) return 'image/webp';
  // The PDF header must open the file. (Readers tolerate up to 1 KB of junk before it; we don't,
  // so a file that is really something else with "%PDF-" inside is not served as a PDF.)
  if (startsWith(buf, PDF)) return 'application/pdf';
  return null;
}

/**
 * Decodes text the way an XML parser would for the encodings we accept: UTF-8 (with or without a
 * BOM) and UTF-16 with a BOM. Invalid byte sequences make it "not text" (null), not U+FFFD soup.
 */
export function decodeText(buf: Buffer): string | null {
  let encoding = 'utf-8';
  if (buf.length >= 2 && buf[0] === 0xff && buf[1] === 0xfe) encoding = 'utf-16le';
  else if (buf.length >= 2 && buf[0] === 0xfe && buf[1] === 0xff) encoding = 'utf-16be';
  try {
    // TextDecoder drops the BOM itself (ignoreBOM defaults to false).
    return new TextDecoder(encoding, { fatal: true }).decode(buf);
  } catch {
    return null;
  }
}

/**
 * Where the root element of an SVG document starts, or -1 when the text is not one. Before the
 * root only whitespace, an XML declaration or other processing instructions, comments and one
 * doctype (with an internal subset) may appear; the root element must be `<svg` (unprefixed, as
 * browsers require for a standalone SVG).
 */
export function svgRootIndex(text: string): number {
  let i = 0;
  let sawDoctype = false;
  for (;;) {
    while (i < text.length && isXmlSpace(text.charCodeAt(i))) i++;
    if (text.startsWith('<?', i)) {
      const end = text.indexOf('?>', i + 2);
      if (end < 0) return -1;
      i = end + 2;
    } else if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      if (end < 0) return -1;
      i = end + 3;
    } else if (!sawDoctype && text.slice(i, i + 9).toUpperCase() === '<!DOCTYPE') {
      const end = doctypeEnd(text, i + 9);
      if (end < 0) return -1;
      i = end;
      sawDoctype = true;
    } else {
      break;
    }
  }
  return /^<svg[\s/>]/.test(text.slice(i, i + 5)) ? i : -1;
}

/** Index just past the doctype's closing '>', skipping quoted strings and an internal subset `[...]`. */
function doctypeEnd(text: string, from: number): number {
  let inSubset = false;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'") {
      const close = text.indexOf(c, i + 1);
      if (close < 0) return -1;
      i = close;
    } else if (inSubset && text.startsWith('<!--', i)) {
      const close = text.indexOf('-->', i + 4);
      if (close < 0) return -1;
      i = close + 2;
    } else if (c === '[') {
      inSubset = true;
    } else if (c === ']') {
      inSubset = false;
    } else if (c === '>' && !inSubset) {
      return i + 1;
    }
  }
  return -1;
}

function isXmlSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/** A cheap pre-check on the first bytes: could this be an XML text document at all? */
function mayBeXmlText(buf: Buffer): boolean {
  let i = 0;
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) i = 3;
  else if ((buf[0] === 0xff && buf[1] === 0xfe) || (buf[0] === 0xfe && buf[1] === 0xff)) return true;
  while (i < buf.length && isXmlSpace(buf[i]!)) i++;
  return buf[i] === 0x3c; // '<'
}

export type SniffResult =
  | { contentType: Exclude<SniffedType, 'image/svg+xml'> }
  /** `text` is the whole document decoded; `rootIndex` where its `<svg` root starts. */
  | { contentType: 'image/svg+xml'; text: string; rootIndex: number };

/** The type of a whole file, or null when it is none of the accepted types. */
export function sniff(buf: Buffer): SniffResult | null {
  const binary = sniffBinary(buf);
  if (binary) return { contentType: binary };
  if (!mayBeXmlText(buf)) return null;
  const text = decodeText(buf);
  if (text === null) return null;
  const rootIndex = svgRootIndex(text);
  return rootIndex < 0 ? null : { contentType: 'image/svg+xml', text, rootIndex };
}
