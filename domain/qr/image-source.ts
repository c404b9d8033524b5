/**
 * Loads the centre image of a QR code (the `image` member of QR options) into what a renderer
 * needs: bytes, content type and natural size. `image` is one of:
 *
 * - a `data:image/<png|jpeg|gif|webp|svg+xml>;base64,` URI: decoded; the bytes must sniff as the
 *   type the URI claims.
 * - one of our own file URLs (`${SHORT_URL_BASE}/files/<id>`): read from object storage, only when
 *   the file is the account's (else "File not found", even when it exists for another account).
 *   Any scheme and the default port of either scheme count as "our host", so http/https spellings
 *   of the same file URL behave the same.
 * - any other http(s) URL: fetched with safeFetch (platform/net/safe-fetch.ts: public addresses only,
 *   pinned DNS, at most 3 redirects, QR_IMAGE_MAX_BYTES, QR_IMAGE_FETCH_TIMEOUT_MS, and the
 *   operator's QR_IMAGE_FETCH_ALLOW_CIDRS). The server's Content-Type is not believed: the bytes
 *   decide, as for uploads.
 *
 * Every image is then checked the same way: the type comes from the bytes (sniff.ts) and must be
 * PNG, JPEG, GIF, WebP or SVG; an SVG is always rebuilt by the upload sanitizer (svg.ts) and the
 * sanitized document is what is returned, and one with filters, too many masks or too deep a
 * nesting is refused (their cost grows with the drawn size, not the file's); the natural size is read from the headers (PNG IHDR,
 * JPEG SOFn, GIF screen descriptor, WebP VP8/VP8L/VP8X, SVG width/height/viewBox). Raster images
 * of more than QR_IMAGE_MAX_PIXELS are refused from that header, before anything decodes them (a
 * small file can decode to gigabytes).
 *
 * Every refusal is a 400 ValidationError at `opts.path` (default `image`) with a sentence a user
 * can act on; no system error text or resolved address ever goes into it.
 */
import type { Readable } from 'node:stream';
import type { Config } from '#platform/config/index.js';
import type { DomainContext } from '../context.js';
import { findAccountFiles, keepFiles } from '../files/files.js';
import { sniff, svgRootIndex } from '../files/sniff.js';
import { sanitizeSvg } from '../files/svg-sanitize.js';
import { ValidationError } from '../errors.js';
import { safeFetch, SafeFetchError, type SafeFetchErrorCode } from '#platform/net/safe-fetch.js';
// The renderer's own description of a logo: what this loader produces is exactly what it draws.
import type { QrImage } from './render/index.js';

export type { QrImage };
export type QrImageContentType = QrImage['contentType'];

export type QrImageContext = Pick<DomainContext, 'db' | 'config' | 'storage'>;

/**
 * The most pixels a raster centre image may have (2048 × 2048; 16 MB decoded as RGBA). A logo is
 * drawn into at most `imageSize` × 30 % (level H) of the code's area: ≈ 5 Mpx, about 2240 px
 * square, on the largest code (4096 px), so this keeps any logo sharp; decoding costs the render
 * thread time and memory by the source's pixels, not by the box it is drawn into (`npm run bench
 * -- qr-logo`, a 300 px code on a busy 2-core machine: 2048² 0.4 s and +19 MB, 4096² 1.9 s and
 * +116 MB, 8000² 3.9 s and +432 MB).
 */
export const QR_IMAGE_MAX_PIXELS = 2048 * 2048;
// The count written out: formatting it (toLocaleString) when this module loads would map ICU's
// locale data, ~5 MB resident, into every process that imports it, idle or not.
export const QR_IMAGE_TOO_MANY_PIXELS_MESSAGE = 'Image has more than 4,194,304 pixels (2048 × 2048); scale it down';

/**
 * What an SVG logo may ask of a render thread (svg.ts, SvgDrawingCost), which draws it at the
 * logo's size (up to about 2240 px square on a 4096 px code). Filters are refused: 290 bytes of
 * feTurbulence, feMorphology and feGaussianBlur take over a minute per code. Masks and clip paths,
 * and nesting, are layers held at once (about 17 MB and 7.5 MB each on the largest code: 100
 * chained masks took 2 GB), so they are capped; real logos stay far below both caps.
 */
export const QR_SVG_FILTERS_MESSAGE =
  'SVG logo uses filters (blur, shadow, texture), which take too long to draw; remove them or use a PNG';
export const QR_SVG_MAX_MASKS = 16;
export const QR_SVG_MAX_DEPTH = 24;
export const QR_SVG_TOO_COMPLEX_MESSAGE = `SVG logo is too complex to draw (more than ${QR_SVG_MAX_MASKS} masks and clip paths, or elements nested more than ${QR_SVG_MAX_DEPTH} deep); simplify it or use a PNG`;

const QR_IMAGE_TYPES: ReadonlySet<string> = new Set<QrImageContentType>([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/svg+xml',
]);
const isQrImageType = (type: string): type is QrImageContentType => QR_IMAGE_TYPES.has(type);

export const NOT_AN_IMAGE_MESSAGE = 'Not an image';
const UNSUPPORTED_MESSAGE = 'Image must be PNG, JPEG, GIF, WebP or SVG';
const UNREADABLE_MESSAGE = 'Image could not be read';
const FILE_NOT_FOUND_MESSAGE = 'File not found';

/** "2 MB", "512 KB" or "1000 bytes", for messages about QR_IMAGE_MAX_BYTES. */
export function formatBytes(n: number): string {
  const MB = 1024 * 1024;
  if (n % MB === 0) return `${n / MB} MB`;
  if (n % 1024 === 0) return `${n / 1024} KB`;
  return `${n} bytes`;
}

export async function loadQrImage(
  ctx: QrImageContext,
  accountId: string,
  image: string | null | undefined,
  opts: { path?: string } = {},
): Promise<QrImage | null> {
  if (image === null || image === undefined || image === '') return null;
  const path = opts.path ?? 'image';
  const fail = (message: string) => new ValidationError([{ path, message }]);
  const maxBytes = ctx.config.QR_IMAGE_MAX_BYTES;
  const tooLarge = () => fail(`Image is larger than ${formatBytes(maxBytes)}`);

  if (typeof image !== 'string') throw fail('Must be null, an http(s) URL or a data:image/...;base64, URI');
  if (/^data:/i.test(image)) return fromDataUri(image, maxBytes, fail, tooLarge);

  const ownId = ownFileId(ctx.config, image);
  if (ownId !== null) return fromStorage(ctx, accountId, ownId, maxBytes, fail, tooLarge);

  let body: Buffer;
  try {
    ({ body } = await safeFetch(image, {
      maxBytes,
      timeoutMs: ctx.config.QR_IMAGE_FETCH_TIMEOUT_MS,
      allowCidrs: ctx.config.QR_IMAGE_FETCH_ALLOW_CIDRS,
      headers: {
        accept: 'image/png,image/jpeg,image/gif,image/webp,image/svg+xml;q=0.9,*/*;q=0.1',
        'user-agent': 'qrlinks-image-loader/1.0',
      },
    }));
  } catch (err) {
    if (err instanceof SafeFetchError) throw err.code === 'too_large' ? tooLarge() : fail(fetchMessage(err));
    throw fail('Image could not be fetched');
  }
  return decodeImage(body, fail);
}

/**
 * The check of a centre image about to be stored in QR options (a link's, a template's): loaded as
 * a render would, and when it is one of the account's uploads, kept from the orphan sweep, since
 * every later render of the code reads it.
 */
export async function checkStoredQrImage(
  ctx: QrImageContext,
  accountId: string,
  image: string | null | undefined,
  opts: { path?: string } = {},
): Promise<void> {
  await loadQrImage(ctx, accountId, image, opts);
  const ownId = typeof image === 'string' ? ownFileId(ctx.config, image) : null;
  if (ownId !== null) await keepFiles(ctx.db, accountId, [ownId]);
}

const FETCH_MESSAGES: Record<Exclude<SafeFetchErrorCode, 'too_large' | 'http_status'>, string> = {
  invalid_url: 'Image URL is not valid',
  scheme: 'Image URL must be http or https',
  credentials: 'Image URL must not contain a user name or password',
  port: 'Image URL port is not allowed',
  non_public_address: 'Image URL must resolve to a public address',
  dns: 'Image URL host could not be resolved',
  timeout: 'Image could not be fetched: timeout',
  too_many_redirects: 'Image URL redirects too many times',
  bad_redirect: 'Image URL redirects to an invalid location',
  network: 'Image could not be fetched: connection failed',
};

function fetchMessage(err: SafeFetchError): string {
  if (err.code === 'http_status') return `Image could not be fetched: HTTP ${err.status ?? 'error'}`;
  if (err.code === 'too_large') return 'Image is too large';
  return FETCH_MESSAGES[err.code];
}

type Fail = (message: string) => ValidationError;

// ---------------------------------------------------------------------------------------------
// data: URIs

const DATA_URI = /^data:image\/([a-z0-9][a-z0-9.+-]*);base64,([A-Za-z0-9+/]*)(={0,2})$/i;

async function fromDataUri(uri: string, maxBytes: number, fail: Fail, tooLarge: () => ValidationError): Promise<QrImage> {
  const m = DATA_URI.exec(uri);
  if (!m) throw fail('Must be a data:image/...;base64, URI');
  const claimed = `image/${m[1]!.toLowerCase()}`;
  if (!isQrImageType(claimed)) throw fail(UNSUPPORTED_MESSAGE);
  const chars = m[2]!.length + m[3]!.length;
  // Same rule as the options schema (WHATWG forgiving-base64).
  if (m[3] ? chars % 4 !== 0 : chars % 4 === 1) throw fail('Image data is not valid base64');
  if (Math.floor((m[2]!.length * 3) / 4) > maxBytes) throw tooLarge();
  const bytes = Buffer.from(m[2]!, 'base64');
  if (bytes.length === 0) throw fail(NOT_AN_IMAGE_MESSAGE);
  return decodeImage(bytes, fail, claimed);
}

// ---------------------------------------------------------------------------------------------
// Our own file URLs

/**
 * The id segment when `value` is a file URL of this service (`${SHORT_URL_BASE}/files/<id>`,
 * query and fragment ignored), else null. The id is not checked here: a URL on our host that
 * names no file of the account is "File not found", never fetched over the network.
 */
export function ownFileId(config: Pick<Config, 'SHORT_URL_BASE'>, value: string): string | null {
  let url: URL;
  let base: URL;
  try {
    url = new URL(value);
    base = new URL(config.SHORT_URL_BASE);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.hostname !== base.hostname) return null;
  const samePort = url.protocol === base.protocol ? url.port === base.port : url.port === '' && base.port === '';
  if (!samePort) return null;
  const prefix = `${base.pathname.replace(/\/+$/, '')}/files/`;
  if (!url.pathname.startsWith(prefix)) return null;
  const id = url.pathname.slice(prefix.length).replace(/\/$/, '');
  return id.includes('/') ? null : id;
}

async function fromStorage(
  ctx: QrImageContext,
  accountId: string,
  fileId: string,
  maxBytes: number,
  fail: Fail,
  tooLarge: () => ValidationError,
): Promise<QrImage> {
  const [file] = await findAccountFiles(ctx.db, accountId, [fileId]);
  if (!file) throw fail(FILE_NOT_FOUND_MESSAGE);
  if (!isQrImageType(file.contentType)) throw fail(NOT_AN_IMAGE_MESSAGE);
  if (file.size > maxBytes) throw tooLarge();
  const object = await ctx.storage.get(file.storageKey);
  if (!object) throw fail(FILE_NOT_FOUND_MESSAGE);
  const bytes = await readAtMost(object.body, maxBytes);
  if (!bytes) throw tooLarge();
  return decodeImage(bytes, fail, file.contentType);
}

/** The whole stream, or null (and the stream destroyed) once it runs past `max`. */
async function readAtMost(stream: Readable, max: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buf.length;
    if (size > max) {
      stream.destroy();
      return null;
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks, size);
}

// ---------------------------------------------------------------------------------------------
// Type, sanitizing and size

async function decodeImage(bytes: Buffer, fail: Fail, claimed?: QrImageContentType): Promise<QrImage> {
  const sniffed = sniff(bytes);
  if (!sniffed || !isQrImageType(sniffed.contentType)) throw fail(NOT_AN_IMAGE_MESSAGE);
  if (claimed && sniffed.contentType !== claimed) throw fail(`Image content is not ${claimed}`);

  if (sniffed.contentType === 'image/svg+xml') {
    const result = await sanitizeSvg(sniffed.text);
    if ('error' in result) throw fail(result.error);
    if (result.drawing.filters) throw fail(QR_SVG_FILTERS_MESSAGE);
    if (result.drawing.masks > QR_SVG_MAX_MASKS || result.drawing.depth > QR_SVG_MAX_DEPTH) throw fail(QR_SVG_TOO_COMPLEX_MESSAGE);
    const size = svgSize(result.svg);
    if (!size) throw fail(UNREADABLE_MESSAGE);
    return { data: Buffer.from(result.svg, 'utf8'), contentType: 'image/svg+xml', ...size };
  }

  const size = rasterSize(bytes, sniffed.contentType);
  if (!size) throw fail(UNREADABLE_MESSAGE);
  if (size.width * size.height > QR_IMAGE_MAX_PIXELS) throw fail(QR_IMAGE_TOO_MANY_PIXELS_MESSAGE);
  return { data: bytes, contentType: sniffed.contentType, ...size };
}

export interface ImageSize {
  width: number;
  height: number;
}

const positive = (s: ImageSize | null): ImageSize | null => (s && s.width > 0 && s.height > 0 ? s : null);

/** Natural size of a PNG, JPEG, GIF or WebP from its headers; null when they are missing or broken. */
export function rasterSize(buf: Buffer, type: Exclude<QrImageContentType, 'image/svg+xml'>): ImageSize | null {
  switch (type) {
    case 'image/png':
      // Signature (8), then the IHDR chunk: length (4), type (4), width (4), height (4).
      if (buf.length < 24 || buf.toString('latin1', 12, 16) !== 'IHDR') return null;
      return positive({ width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) });
    case 'image/gif':
      // Logical screen descriptor right after "GIF89a".
      if (buf.length < 10) return null;
      return positive({ width: buf.readUInt16LE(6), height: buf.readUInt16LE(8) });
    case 'image/webp':
      return positive(webpSize(buf));
    case 'image/jpeg':
      return positive(jpegSize(buf));
  }
}

function webpSize(buf: Buffer): ImageSize | null {
  if (buf.length < 30) return null;
  switch (buf.toString('latin1', 12, 16)) {
    case 'VP8 ': // lossy: frame tag (3), start code 9d 01 2a, then 14-bit width and height
      if (buf[23] !== 0x9d || buf[24] !== 0x01 || buf[25] !== 0x2a) return null;
      return { width: buf.readUInt16LE(26) & 0x3fff, height: buf.readUInt16LE(28) & 0x3fff };
    case 'VP8L': {
      // lossless: signature 0x2f, then width-1 and height-1 in 14 bits each
      if (buf[20] !== 0x2f) return null;
      const bits = buf.readUInt32LE(21);
      return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
    }
    case 'VP8X': // extended: flags (4), canvas width-1 (24 bits), canvas height-1 (24 bits)
      return { width: buf.readUIntLE(24, 3) + 1, height: buf.readUIntLE(27, 3) + 1 };
    default:
      return null;
  }
}

/** Walks the JPEG markers up to the first start-of-frame (SOF0–SOF15 except DHT, JPG and DAC). */
function jpegSize(buf: Buffer): ImageSize | null {
  let i = 2;
  while (i + 1 < buf.length) {
    if (buf[i] !== 0xff) return null;
    const marker = buf[i + 1]!;
    if (marker === 0xff) {
      i++; // fill byte
      continue;
    }
    i += 2;
    // Markers without a length: TEM, RST0-7, SOI.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) continue;
    if (marker === 0xd9 || marker === 0xda) return null; // EOI or scan data before any frame header
    if (i + 2 > buf.length) return null;
    const length = buf.readUInt16BE(i);
    if (length < 2) return null;
    const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isSof) {
      if (i + 7 > buf.length) return null;
      return { height: buf.readUInt16BE(i + 3), width: buf.readUInt16BE(i + 5) };
    }
    i += length;
  }
  return null;
}

/** CSS pixels per unit, as browsers size an SVG (96 dpi; em and ex at the default 16 px font). */
const UNITS: Record<string, number> = {
  '': 1,
  px: 1,
  in: 96,
  cm: 96 / 2.54,
  mm: 96 / 25.4,
  q: 96 / 101.6,
  pt: 96 / 72,
  pc: 16,
  em: 16,
  ex: 8,
};

function svgLength(value: string | undefined): number | null {
  if (value === undefined) return null;
  const m = /^\s*\+?((?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)\s*([a-z]*)\s*$/i.exec(value);
  const unit = m ? UNITS[m[2]!.toLowerCase()] : undefined;
  if (!m || unit === undefined) return null; // percentages, auto, garbage: no intrinsic length
  const px = Number(m[1]) * unit;
  return Number.isFinite(px) && px > 0 ? px : null;
}

function viewBoxSize(value: string | undefined): ImageSize | null {
  if (value === undefined) return null;
  const parts = value
    .trim()
    .split(/[\s,]+/)
    .map(Number);
  if (parts.length !== 4 || !parts.every(Number.isFinite)) return null;
  const [, , width, height] = parts as [number, number, number, number];
  return width > 0 && height > 0 ? { width, height } : null;
}

/**
 * Natural size of an SVG the way a browser sizes it in <img>: absolute width and height on the
 * root; one of them plus the viewBox's aspect ratio; the viewBox's size; else the 300 × 150 of any
 * replaced element without an intrinsic size. Rounded to whole pixels (at least 1).
 */
export function svgSize(text: string): ImageSize | null {
  const root = svgRootIndex(text);
  if (root < 0) return null;
  const attrs = startTagAttributes(text, root);
  if (!attrs) return null;
  let width = svgLength(attrs.get('width'));
  let height = svgLength(attrs.get('height'));
  const box = viewBoxSize(attrs.get('viewBox') ?? attrs.get('viewbox'));
  if (width === null || height === null) {
    if (box) {
      if (width !== null) height = (width * box.height) / box.width;
      else if (height !== null) width = (height * box.width) / box.height;
      else ({ width, height } = box);
    } else {
      width ??= 300;
      height ??= 150;
    }
  }
  const px = (n: number) => Math.max(1, Math.round(n));
  return { width: px(width), height: px(height) };
}

/** The attributes of the start tag at `at` (which is `<name ...>`), entities decoded; null if it never closes. */
function startTagAttributes(text: string, at: number): Map<string, string> | null {
  let end = -1;
  let quote = '';
  for (let i = at + 1; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '>') {
      end = i;
      break;
    }
  }
  if (end < 0) return null;
  const tag = text.slice(at, end);
  const attrs = new Map<string, string>();
  for (const m of tag.matchAll(/([^\s=/<>"']+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    if (!attrs.has(m[1]!)) attrs.set(m[1]!, decodeEntities(m[2] ?? m[3] ?? ''));
  }
  return attrs;
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(s: string): string {
  return s.replace(/&(?:#(\d+)|#x([0-9a-f]+)|(amp|lt|gt|quot|apos));/gi, (whole, dec?: string, hex?: string, name?: string) => {
    if (name) return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
    const code = dec ? Number(dec) : parseInt(hex!, 16);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}
