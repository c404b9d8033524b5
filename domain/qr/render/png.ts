/**
 * PNG output: our rasterizer draws straight into the PNG's raw scanlines, which zlib then
 * compresses. No SVG and no second rasterizer in between.
 *
 * Why not resvg on our SVG (the other route the design allowed), per render at 300 px, default
 * options, on the development machine: resvg's render of our SVG ~0.9 ms plus its `asPng()`
 * ~1.3 ms, against ~0.3 ms to draw directly and ~0.1 ms to encode here. The module matrix (~0.1 ms)
 * and the SVG text (~0.05 ms) are small next to either, so end to end: ~2.9 ms per PNG through
 * resvg (10× qr-code-styling's SVG + resvg) against ~0.7 ms direct (38×); the benchmark prints
 * both routes (`npm run bench -- qr`).
 *
 * The pixel format is decided before drawing, from the options: 8-bit grayscale when the image
 * is certainly opaque and every paint is gray (the default black on white), RGB when it is
 * opaque, else RGBA (drawn premultiplied, converted to PNG's straight alpha at the end). Opaque
 * means the background covers the whole image (`round` 0) with opaque paint. Rows use filter
 * type 0 (None), so the drawn surface *is* the raw data; zlib level 2. QR rows repeat a lot, so
 * that compresses well anyway (a default 300 px code is ~5 KB; gradients ~20 KB).
 */
import * as zlib from 'node:zlib';
import { deflateSync } from 'node:zlib';
import type { ResolvedQrOptions } from '../options.js';
import type { Layout } from './layout.js';
import { makeMatrix } from './matrix.js';
import { paintOf, type Paint } from './paint.js';
import { makeSurface, rasterize, type Surface } from './raster.js';
import type { QrImage } from './scene.js';

/** The code as a PNG file. Same errors as `renderSvg`. */
export function renderPng(opts: ResolvedQrOptions, image?: QrImage | null): Buffer {
  const matrix = makeMatrix(opts);
  const surface = rasterize(opts, matrix, image ?? null, (layout, logo) => {
    const s = makeSurface(0, 0, channelsFor(opts, layout, logo), 1);
    s.width = layout.width;
    s.height = layout.height;
    s.rowBytes = layout.width * s.channels + 1;
    s.data = rawScratch(s.rowBytes * s.height);
    return s;
  });
  return encodePng(surface);
}

/**
 * The raw image of `renderPng`, reused between renders (drawing and encoding are synchronous and
 * the raw data does not outlive `encodePng`): saves allocating, and collecting, ~270 KB per
 * 300 px colour code. Up to 4 MB is kept; bigger images get their own buffer.
 */
const RAW_SCRATCH_LIMIT = 4 << 20;
let raw = new Uint8Array(0);

function rawScratch(size: number): Uint8Array {
  if (size > RAW_SCRATCH_LIMIT) return new Uint8Array(size);
  if (raw.length < size) raw = new Uint8Array(size);
  const out = raw.subarray(0, size);
  out.fill(0);
  return out;
}

/** 1 (gray) or 3 (RGB) when the image is certainly opaque, else 4 (RGBA). */
export function channelsFor(opts: ResolvedQrOptions, layout: Layout, logo: QrImage | null): 1 | 3 | 4 {
  const whole = { x: 0, y: 0, width: layout.width, height: layout.height };
  const bg = paintOf(opts.backgroundOptions, whole, 0, 'backgroundOptions');
  if (opts.backgroundOptions.round || !isOpaque(bg)) return 4;
  if (logo) return 3;
  const others = [opts.dotsOptions, opts.cornersSquareOptions, opts.cornersDotOptions];
  const prefix = ['dotsOptions', 'cornersSquareOptions', 'cornersDotOptions'];
  const gray = isGray(bg) && others.every((o, i) => isGray(paintOf(o, whole, 0, prefix[i]!)));
  return gray ? 1 : 3;
}

function isOpaque(p: Paint): boolean {
  return p.kind === 'solid' ? p.color.a >= 1 : p.stops.every((s) => s.color.a >= 1);
}

function isGray(p: Paint): boolean {
  const colors = p.kind === 'solid' ? [p.color] : p.stops.map((s) => s.color);
  return colors.every((c) => c.r === c.g && c.g === c.b);
}

/** A surface with a one-byte row prefix (the filter byte, 0) as a PNG file. */
export function encodePng(surface: Surface): Buffer {
  const { width, height, channels, data } = surface;
  if (channels === 4) unpremultiply(surface);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per sample
  header[9] = channels === 1 ? 0 : channels === 3 ? 2 : 6; // gray, RGB, RGBA
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(data, DEFLATE_OPTIONS)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * `png` with its physical size said (a pHYs chunk, in pixels per metre), so a layout program or a
 * print shop opens it at the size it was drawn for rather than at 72 or 96 dpi. The chunk goes
 * right after IHDR, where PNG wants it (before IDAT).
 */
export function withPixelsPerMetre(png: Buffer, pixelsPerMetre: number): Buffer {
  const ppm = Math.round(pixelsPerMetre);
  const data = Buffer.alloc(9);
  data.writeUInt32BE(ppm, 0);
  data.writeUInt32BE(ppm, 4);
  data[8] = 1; // the unit is the metre
  const afterHeader = SIGNATURE.length + 12 + 13;
  return Buffer.concat([png.subarray(0, afterHeader), chunk('pHYs', data), png.subarray(afterHeader)]);
}

/**
 * zlib level 2, with memLevel 9 (a bigger hash table: ~10% faster on colour images at 300 px,
 * same size). Filters other than None measured slower and bigger on our images (gradients
 * shift from row to row; anti-aliased edges defeat Sub); Up makes solid-colour codes smaller,
 * but filtering the rows in JS costs more time than deflate saves. Z_RLE is several times bigger
 * on gradients, and level 1 no faster (docs/benchmarks.md).
 */
const DEFLATE_OPTIONS = { level: 2, memLevel: 9 } as const;

/** PNG stores straight alpha; the rasterizer blends premultiplied. */
function unpremultiply(s: Surface): void {
  const d = s.data;
  for (let y = 0; y < s.height; y++) {
    for (let o = y * s.rowBytes + s.offset, end = o + s.width * 4; o < end; o += 4) {
      const a = d[o + 3]!;
      if (a === 255 || a === 0) continue;
      const k = 255 / a;
      d[o] = Math.min(255, d[o]! * k + 0.5);
      d[o + 1] = Math.min(255, d[o + 1]! * k + 0.5);
      d[o + 2] = Math.min(255, d[o + 2]! * k + 0.5);
    }
  }
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.allocUnsafe(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(zlibCrc32 ? zlibCrc32(out.subarray(4, 8 + data.length)) : crc32(out, 4, 8 + data.length), 8 + data.length);
  return out;
}

/** Node's own CRC-32 (node:zlib `crc32`, Node ≥ 20.15); ours below where it is missing. */
const zlibCrc32 = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(buf: Buffer, start: number, end: number): number {
  let c = 0xffffffff;
  for (let i = start; i < end; i++) c = CRC_TABLE[(c ^ buf[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
