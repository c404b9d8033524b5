/**
 * The raster backend: the scene drawn straight into RGBA pixels, no SVG in between.
 *
 * Anti-aliasing is 4 × 4 supersampling, the factor resvg (tiny-skia) uses, done with an
 * accumulation buffer: at every sample row an edge crosses, it adds ±1 per sample from its
 * crossing (rounded to the nearest sample boundary) rightwards, stored as a delta at the pixel
 * where that starts; a running sum along each pixel row then gives how many of the pixel's 16
 * samples are inside (winding-weighted; clamped, so nonzero rule). All outlines run clockwise
 * and holes counter-clockwise (shapes.ts), so non-overlapping shapes add up exactly. Arcs are
 * flattened to chords at most 0.05 px from the true curve. `roundSize: false` makes the library
 * ask for `shape-rendering="crispEdges"`: then one sample per pixel, at its centre, as resvg.
 *
 * Pixels are premultiplied RGBA, blended source-over in sRGB without gamma, as in resvg;
 * gradients are sampled at pixel centres with colors interpolated unpremultiplied, as in resvg.
 *
 * The logo is the one thing not drawn here: resvg renders it into a pixmap the size of its box
 * (so every format resvg reads — PNG, JPEG, GIF, WebP, SVG — looks exactly as in the SVG output)
 * and it is composited on top. That pixmap is remembered (see `logoPixels`): bulk jobs draw one
 * logo thousands of times. Gradient lookup tables are remembered per list of stops likewise.
 */
import { createHash } from 'node:crypto';
import { Resvg } from '@resvg/resvg-js';
import type { ResolvedQrOptions } from '../options.js';
import { computeLayout, type Layout, type LogoBox } from './layout.js';
import type { QrMatrix } from './encoder.js';
import type { Paint, Stop } from './paint.js';
import { drawScene, type Backend, type QrImage } from './scene.js';
import { flattenArc, ShapeSet, type Sink, type Variant } from './shapes.js';
import { dataUri } from './svg-write.js';

export const RESVG_OPTIONS = { font: { loadSystemFonts: false }, logLevel: 'off' } as const;

/** TypedArray's own fill: Buffer#fill validates its arguments first, too slow for short runs. */
const fillBytes = Uint8Array.prototype.fill;

/** Samples per pixel along each axis when anti-aliasing (as a shift: 4 = 1 << 2). */
const SUPERSAMPLE_SHIFT = 2;

/**
 * Where pixels go. Pixel (x, y) starts at byte `y * rowBytes + offset + x * channels`. One
 * channel is gray, three RGB (both only for images that end up opaque, so straight and
 * premultiplied color are the same), four premultiplied RGBA. `offset` 1 leaves room for PNG's
 * per-row filter byte, so a PNG's raw data is drawn in place.
 */
export interface Surface {
  width: number;
  height: number;
  channels: 1 | 3 | 4;
  offset: number;
  rowBytes: number;
  data: Uint8Array;
}

export function makeSurface(width: number, height: number, channels: 1 | 3 | 4, offset: number): Surface {
  const rowBytes = width * channels + offset;
  return { width, height, channels, offset, rowBytes, data: Buffer.alloc(rowBytes * height) };
}

/**
 * Scratch buffers reused between renders (rendering is synchronous): the accumulation buffer
 * and a bit per entry saying it was touched, so a fill visits only touched columns and paints
 * the runs between them whole. Every fill leaves both cleared. Only sizes up to about 1400 px
 * are kept (8 MB); bigger renders allocate their own, so one 4096 px code does not pin 70 MB.
 */
const SCRATCH_LIMIT = 1 << 21;
let accScratch = new Int32Array(0);
let bitScratch = new Int32Array(0);

function scratch(kind: 'acc' | 'bits', size: number): Int32Array {
  if (size > SCRATCH_LIMIT) return new Int32Array(size);
  if (kind === 'acc') {
    if (accScratch.length < size) accScratch = new Int32Array(size);
    return accScratch;
  }
  if (bitScratch.length < size) bitScratch = new Int32Array(size);
  return bitScratch;
}

class Rasterizer implements Sink, Backend {
  readonly width: number;
  readonly height: number;
  private readonly acc: Int32Array;
  private readonly bits: Int32Array;
  private readonly bitWords: number;
  private readonly stride: number;
  private readonly shift: number;
  private top: number;
  private bottom = 0;
  /** A lone pixel-aligned rectangle held back from the edge list, to be filled without coverage. */
  private plain: { x: number; y: number; w: number; h: number } | null = null;
  private edges = false;
  /** Colors of the current row, for paints that vary. */
  private readonly span: Float32Array;

  constructor(
    private readonly surface: Surface,
    private readonly shapes: ShapeSet,
    antialias: boolean,
  ) {
    this.width = surface.width;
    this.height = surface.height;
    this.shift = antialias ? SUPERSAMPLE_SHIFT : 0;
    this.stride = this.width + 2;
    this.bitWords = (this.stride + 31) >> 5;
    this.acc = scratch('acc', this.stride * this.height);
    this.bits = scratch('bits', this.bitWords * this.height);
    this.top = this.height;
    this.span = new Float32Array(this.width * 4);
  }

  // ---- geometry (Sink) ----

  cell(v: Variant, x: number, y: number): void {
    this.flushPlain();
    this.polygon(this.shapes.polygon(v), x, y);
  }

  rect(x: number, y: number, w: number, h: number, hole = false): void {
    if (!hole && !this.edges && !this.plain && Number.isInteger(x) && Number.isInteger(y) && Number.isInteger(w) && Number.isInteger(h)) {
      this.plain = { x, y, w, h };
      return;
    }
    this.flushPlain();
    // Horizontal edges cross no sample row: only the sides matter.
    if (hole) {
      this.line(x, y, x, y + h);
      this.line(x + w, y + h, x + w, y);
    } else {
      this.line(x + w, y, x + w, y + h);
      this.line(x, y + h, x, y);
    }
  }

  circle(cx: number, cy: number, r: number, hole = false): void {
    this.flushPlain();
    const pts: number[] = [cx - r, cy];
    flattenArc(pts, cx - r, cy, cx + r, cy, cx, cy, r);
    flattenArc(pts, cx + r, cy, cx - r, cy, cx, cy, r);
    this.polygon(hole ? reversed(pts) : pts, 0, 0);
  }

  roundedRect(x: number, y: number, w: number, h: number, r: number, hole = false): void {
    this.flushPlain();
    const pts: number[] = [x + r, y, x + w - r, y];
    flattenArc(pts, x + w - r, y, x + w, y + r, x + w - r, y + r, r);
    pts.push(x + w, y + h - r);
    flattenArc(pts, x + w, y + h - r, x + w - r, y + h, x + w - r, y + h - r, r);
    pts.push(x + r, y + h);
    flattenArc(pts, x + r, y + h, x, y + h - r, x + r, y + h - r, r);
    pts.push(x, y + r);
    flattenArc(pts, x, y + r, x + r, y, x + r, y + r, r);
    this.polygon(hole ? reversed(pts) : pts, 0, 0);
  }

  private flushPlain(): void {
    this.edges = true;
    const p = this.plain;
    if (!p) return;
    this.plain = null;
    this.rect(p.x, p.y, p.w, p.h);
  }

  private polygon(p: ArrayLike<number>, dx: number, dy: number): void {
    const n = p.length;
    let px = p[n - 2]! + dx;
    let py = p[n - 1]! + dy;
    for (let i = 0; i < n; i += 2) {
      const x = p[i]! + dx;
      const y = p[i + 1]! + dy;
      this.line(px, py, x, y);
      px = x;
      py = y;
    }
  }

  /** One edge into the accumulation buffer (downward edges count +1, upward −1). */
  private line(x0: number, y0: number, x1: number, y1: number): void {
    if (y0 === y1) return;
    let dir = 1;
    if (y0 > y1) {
      dir = -1;
      let t = x0;
      x0 = x1;
      x1 = t;
      t = y0;
      y0 = y1;
      y1 = t;
    }
    const shift = this.shift;
    const ss = 1 << shift;
    const Y0 = y0 * ss;
    const Y1 = y1 * ss;
    // Sample rows s (centred at s + ½, in sample units) with Y0 ≤ s + ½ < Y1, inside the canvas.
    let s = Math.ceil(Y0 - 0.5);
    let end = Math.ceil(Y1 - 0.5);
    if (s < 0) s = 0;
    if (end > this.height << shift) end = this.height << shift;
    if (s >= end) return;
    const rowTop = s >> shift;
    const rowEnd = (end + ss - 1) >> shift;
    if (rowTop < this.top) this.top = rowTop;
    if (rowEnd > this.bottom) this.bottom = rowEnd;
    const a = this.acc;
    const bits = this.bits;
    const bitWords = this.bitWords;
    const stride = this.stride;
    const maxQ = this.width << shift;
    const mask = ss - 1;
    if (x0 === x1) {
      // Vertical: the same crossing on every sample row, so add whole pixel rows at once.
      let q = Math.floor(x0 * ss + 0.5);
      if (q < 0) q = 0;
      else if (q > maxQ) q = maxQ;
      const px = q >> shift;
      const m = q & mask;
      const x = px + 1;
      for (let row = s >> shift, last = (end - 1) >> shift; row <= last; row++) {
        const n = Math.min(end, (row + 1) << shift) - Math.max(s, row << shift);
        const i = row * stride + px;
        a[i] = a[i]! + dir * (ss - m) * n;
        bits[row * bitWords + (px >> 5)] = bits[row * bitWords + (px >> 5)]! | (1 << (px & 31));
        if (m !== 0) {
          a[i + 1] = a[i + 1]! + dir * m * n;
          bits[row * bitWords + (x >> 5)] = bits[row * bitWords + (x >> 5)]! | (1 << (x & 31));
        }
      }
      return;
    }
    const step = (x1 - x0) / (Y1 - Y0);
    // x in sample columns at the first sample row's centre, then one step per sample row.
    let xs = (x0 + (s + 0.5 - Y0) * step) * ss + 0.5;
    const dxs = step * ss;
    for (; s < end; s++, xs += dxs) {
      // The crossing rounded half up to a sample boundary; clamping to the canvas leaves every
      // visible sample unchanged.
      let q = Math.floor(xs);
      if (q < 0) q = 0;
      else if (q > maxQ) q = maxQ;
      const px = q >> shift;
      const m = q & mask;
      const row = s >> shift;
      const i = row * stride + px;
      const w = row * bitWords + (px >> 5);
      a[i] = a[i]! + dir * (ss - m);
      bits[w] = bits[w]! | (1 << (px & 31));
      if (m !== 0) {
        const x = px + 1;
        a[i + 1] = a[i + 1]! + dir * m;
        bits[row * bitWords + (x >> 5)] = bits[row * bitWords + (x >> 5)]! | (1 << (x & 31));
      }
    }
  }

  // ---- painting (Backend) ----

  fill(paint: Paint, draw: (sink: Sink) => void): void {
    this.plain = null;
    this.edges = false;
    try {
      draw(this);
    } catch (err) {
      // Leave the shared scratch clean for the next render.
      this.acc.fill(0);
      this.bits.fill(0);
      throw err;
    }
    const plain = this.plain as { x: number; y: number; w: number; h: number } | null;
    this.plain = null;
    if (plain) this.fillPlain(paint, plain.x, plain.y, plain.w, plain.h);
    if (this.top < this.bottom) this.fillEdges(paint);
  }

  /** A pixel-aligned rectangle: every pixel fully covered, no accumulation needed. */
  private fillPlain(paint: Paint, x: number, y: number, w: number, h: number): void {
    const x0 = Math.max(0, x);
    const y0 = Math.max(0, y);
    const x1 = Math.max(x0, Math.min(this.width, x + w));
    const y1 = Math.min(this.height, y + h);
    if (x0 >= x1 || y0 >= y1) return;
    const { data, channels: ch, rowBytes, offset } = this.surface;
    const shade = shader(paint);
    const first = y0 * rowBytes + offset + x0 * ch;
    const bytes = (x1 - x0) * ch;
    if (shade.opaque && (shade.constant || shade.sameRows)) {
      // One row by hand, then native copies.
      const c = shade.constant ? shade.color : this.span;
      if (!shade.constant) shade.span(y0, x0, x1, c);
      if (ch === 1 && shade.constant) fillBytes.call(data, Math.round(c[0]!), first, first + bytes);
      else {
        for (let o = first, i = shade.constant ? 0 : x0 * 4; o < first + bytes; o += ch) {
          put(data, o, ch, c[i]!, c[i + 1]!, c[i + 2]!, 255, 1);
          if (!shade.constant) i += 4;
        }
      }
      for (let y = y0 + 1; y < y1; y++) data.copyWithin(y * rowBytes + offset + x0 * ch, first, first + bytes);
      return;
    }
    const c = shade.constant ? shade.color : this.span;
    for (let y = y0; y < y1; y++) {
      if (!shade.constant) shade.span(y, x0, x1, c);
      for (let x = x0, o = y * rowBytes + offset + x0 * ch; x < x1; x++, o += ch) {
        const i = shade.constant ? 0 : x * 4;
        put(data, o, ch, c[i]!, c[i + 1]!, c[i + 2]!, c[i + 3]!, 1);
      }
    }
  }

  private fillEdges(paint: Paint): void {
    const W = this.width;
    const a = this.acc;
    const bits = this.bits;
    const bitWords = this.bitWords;
    const { data, channels: ch, rowBytes, offset } = this.surface;
    const stride = this.stride;
    const full = 1 << (2 * this.shift);
    const inv = 1 / full;
    const shade = shader(paint);
    const constant = shade.constant;
    const opaque = shade.opaque;
    const c = constant ? shade.color : this.span;
    const solidOpaque = constant && opaque;
    const paintRow = shade.paintRow;
    const r8 = Math.round(shade.color[0]!);
    const g8 = Math.round(shade.color[1]!);
    const b8 = Math.round(shade.color[2]!);
    /** Pixels x0 ≤ x < x1 of row y, all with `count` samples inside. */
    const run = (y: number, x0: number, x1: number, count: number) => {
      if (x1 > W) x1 = W;
      if (x0 >= x1) return;
      const base = y * rowBytes + offset;
      if (count >= full && solidOpaque) {
        if (ch === 1) fillBytes.call(data, r8, base + x0, base + x1);
        else {
          for (let o = base + x0 * ch, end = base + x1 * ch; o < end; o += ch) {
            data[o] = r8;
            data[o + 1] = g8;
            data[o + 2] = b8;
            if (ch === 4) data[o + 3] = 255;
          }
        }
        return;
      }
      if (count >= full && paintRow) {
        paintRow(y, x0, x1, data, base, ch);
        return;
      }
      const cov = count >= full ? 1 : count * inv;
      if (!constant) shade.span(y, x0, x1, c);
      for (let x = x0; x < x1; x++) {
        const i = constant ? 0 : x * 4;
        put(data, base + x * ch, ch, c[i]!, c[i + 1]!, c[i + 2]!, cov === 1 && opaque ? 255 : c[i + 3]!, cov);
      }
    };
    for (let y = this.top; y < this.bottom; y++) {
      const row = y * stride;
      const wordRow = y * bitWords;
      let sum = 0;
      let from = 0;
      for (let w = 0; w < bitWords; w++) {
        let word = bits[wordRow + w]!;
        if (word === 0) continue;
        bits[wordRow + w] = 0;
        while (word !== 0) {
          const low = word & -word;
          word ^= low;
          const x = (w << 5) + 31 - Math.clz32(low);
          if (sum !== 0) run(y, from, x, sum < 0 ? -sum : sum);
          sum += a[row + x]!;
          a[row + x] = 0;
          from = x;
        }
      }
      if (sum !== 0) run(y, from, W, sum < 0 ? -sum : sum);
    }
    this.top = this.height;
    this.bottom = 0;
  }

  image(box: LogoBox, logo: QrImage): void {
    // Whole-pixel bounds of the box, so the logo lands on the same pixel grid as in a full render.
    const left = Math.max(0, Math.floor(box.x));
    const top = Math.max(0, Math.floor(box.y));
    const right = Math.min(this.width, Math.ceil(box.x + box.width));
    const bottom = Math.min(this.height, Math.ceil(box.y + box.height));
    const w = right - left;
    const h = bottom - top;
    if (w <= 0 || h <= 0) return;
    const src = logoPixels(logo, box, left, top, w, h);
    if (!src) return; // an undecodable logo is left out, as resvg leaves it out of the SVG output
    const { data, channels: ch, rowBytes, offset } = this.surface;
    for (let y = 0; y < h; y++) {
      let i = y * w * 4;
      let o = (top + y) * rowBytes + offset + left * ch;
      for (let x = 0; x < w; x++, i += 4, o += ch) put(data, o, ch, src[i]!, src[i + 1]!, src[i + 2]!, src[i + 3]!, 1);
    }
  }
}

/**
 * The logo drawn by resvg into a w × h premultiplied RGBA pixmap whose (0, 0) is pixel
 * (left, top) of the code, or null when resvg cannot decode it. Results are remembered in a
 * small LRU (bulk jobs render thousands of codes with one logo): keyed by a hash of the image
 * bytes and everything else the pixmap depends on (content type, the exact box, the pixel
 * window), and a hit is confirmed by comparing the bytes, so a hash collision cannot show the
 * wrong logo. The cache holds at most LOGO_CACHE_ENTRIES pixmaps and LOGO_CACHE_BYTES in all;
 * bigger pixmaps are not kept. Cached pixmaps are only read.
 */
function logoPixels(logo: QrImage, box: LogoBox, left: number, top: number, w: number, h: number): Uint8Array | null {
  const digest = createHash('sha1').update(logo.data).digest('base64');
  const key = `${digest}|${logo.contentType}|${box.x},${box.y},${box.width},${box.height}|${left},${top},${w},${h}`;
  const hit = logoCache.get(key);
  if (hit && hit.data.equals(logo.data)) {
    logoCache.delete(key); // most recently used last
    logoCache.set(key, hit);
    return hit.pixels;
  }
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${w}" height="${h}" viewBox="${left} ${top} ${w} ${h}">` +
    `<image x="${box.x}" y="${box.y}" width="${box.width}" height="${box.height}" xlink:href="${dataUri(logo)}"/></svg>`;
  let pixels: Uint8Array | null;
  try {
    pixels = new Resvg(svg, RESVG_OPTIONS).render().pixels;
  } catch {
    pixels = null;
  }
  const size = (pixels?.length ?? 0) + logo.data.length;
  if (size <= LOGO_CACHE_BYTES / 4) {
    if (hit) logoCache.delete(key);
    logoCache.set(key, { data: Buffer.from(logo.data), pixels, size });
    logoCacheBytes += size - (hit?.size ?? 0);
    for (const [k, e] of logoCache) {
      if (logoCache.size <= LOGO_CACHE_ENTRIES && logoCacheBytes <= LOGO_CACHE_BYTES) break;
      logoCache.delete(k);
      logoCacheBytes -= e.size;
    }
  }
  return pixels;
}

const LOGO_CACHE_ENTRIES = 16;
const LOGO_CACHE_BYTES = 16 << 20;
const logoCache = new Map<string, { data: Buffer; pixels: Uint8Array | null; size: number }>();
let logoCacheBytes = 0;

/**
 * Source-over of a premultiplied color (0..255 floats) at coverage `cov` onto the pixel at `o`.
 * On an opaque surface (1 or 3 channels) that is the same arithmetic with straight colors. The
 * result never exceeds 255 (a premultiplied channel ≤ its alpha), so `+ 0.5` followed by the
 * typed array's truncation rounds.
 */
function put(d: Uint8Array, o: number, ch: number, r: number, g: number, b: number, a: number, cov: number): void {
  const sa = a * cov;
  if (sa >= 255) {
    d[o] = r + 0.5;
    if (ch === 1) return;
    d[o + 1] = g + 0.5;
    d[o + 2] = b + 0.5;
    if (ch === 4) d[o + 3] = 255;
    return;
  }
  if (sa <= 0) return;
  const keep = 1 - sa / 255;
  d[o] = r * cov + d[o]! * keep + 0.5;
  if (ch === 1) return;
  d[o + 1] = g * cov + d[o + 1]! * keep + 0.5;
  d[o + 2] = b * cov + d[o + 2]! * keep + 0.5;
  if (ch === 4) d[o + 3] = sa + d[o + 3]! * keep + 0.5;
}

function reversed(pts: number[]): number[] {
  const out = new Array<number>(pts.length);
  for (let i = 0, j = pts.length - 2; j >= 0; i += 2, j -= 2) {
    out[i] = pts[j]!;
    out[i + 1] = pts[j + 1]!;
  }
  return out;
}

/** A paint's premultiplied colors (RGBA, 0..255) at pixel centres, a row span at a time. */
interface Shader {
  /** One color everywhere, held in `color`; `span` is then never called. */
  constant: boolean;
  /** Every color is fully opaque. */
  opaque: boolean;
  /** Every row is the same (a horizontal linear gradient). */
  sameRows: boolean;
  color: Float32Array;
  /** Writes the colors of pixels x0 ≤ x < x1 of row y to out[4x …]. */
  span(y: number, x0: number, x1: number, out: Float32Array): void;
  /**
   * For an opaque paint that varies: paints pixels x0 ≤ x < x1 of row y, fully covered, straight
   * into `data` (pixel x at `base + x * ch`); the same bytes `put` writes from `span`'s colors.
   */
  paintRow?(y: number, x0: number, x1: number, data: Uint8Array, base: number, ch: number): void;
}

const LUT_SIZE = 1024;

function shader(p: Paint): Shader {
  if (p.kind === 'solid') return solid(p.color);
  const stops = p.stops;
  const last = stops[stops.length - 1]!.color;
  if (stops.length === 1) return solid(last);
  const { lut, bytes } = gradientLuts(stops);
  const opaque = stops.every((s) => s.color.a >= 1);
  const top = LUT_SIZE - 1;
  if (p.kind === 'linear') {
    const dx = p.x2 - p.x1;
    const dy = p.y2 - p.y1;
    const len2 = dx * dx + dy * dy;
    // A gradient vector of zero length paints the last stop's color (SVG 1.1, 13.2.2).
    if (len2 === 0) return solid(last);
    const kx = (dx / len2) * top;
    const ky = (dy / len2) * top;
    return {
      constant: false,
      opaque,
      sameRows: dy === 0,
      color: new Float32Array(4),
      span(y, x0, x1, out) {
        // t · (LUT_SIZE − 1) at the pixel centre (x + ½, y + ½)
        let t = (x0 + 0.5 - p.x1) * kx + (y + 0.5 - p.y1) * ky;
        for (let x = x0; x < x1; x++, t += kx) {
          const i = (t <= 0 ? 0 : t >= top ? top : (t + 0.5) | 0) * 4;
          const o = x * 4;
          out[o] = lut[i]!;
          out[o + 1] = lut[i + 1]!;
          out[o + 2] = lut[i + 2]!;
          out[o + 3] = lut[i + 3]!;
        }
      },
      paintRow: bytes
        ? (y, x0, x1, data, base, ch) => {
            let t = (x0 + 0.5 - p.x1) * kx + (y + 0.5 - p.y1) * ky;
            if (ch === 3) {
              for (let o = base + x0 * 3, end = base + x1 * 3; o < end; t += kx, o += 3) {
                const i = (t <= 0 ? 0 : t >= top ? top : (t + 0.5) | 0) << 2;
                data[o] = bytes[i]!;
                data[o + 1] = bytes[i + 1]!;
                data[o + 2] = bytes[i + 2]!;
              }
              return;
            }
            for (let x = x0, o = base + x0 * ch; x < x1; x++, t += kx, o += ch) {
              const i = (t <= 0 ? 0 : t >= top ? top : (t + 0.5) | 0) * 4;
              data[o] = bytes[i]!;
              if (ch === 1) continue;
              data[o + 1] = bytes[i + 1]!;
              data[o + 2] = bytes[i + 2]!;
              if (ch === 4) data[o + 3] = 255;
            }
          }
        : undefined,
    };
  }
  if (p.r <= 0) return solid(last);
  const scale = top / p.r;
  return {
    constant: false,
    opaque,
    sameRows: false,
    color: new Float32Array(4),
    span(y, x0, x1, out) {
      const ry = (y + 0.5 - p.cy) * scale;
      const ry2 = ry * ry;
      for (let x = x0; x < x1; x++) {
        const rx = (x + 0.5 - p.cx) * scale;
        const t = Math.sqrt(rx * rx + ry2);
        const i = (t >= top ? top : (t + 0.5) | 0) * 4;
        const o = x * 4;
        out[o] = lut[i]!;
        out[o + 1] = lut[i + 1]!;
        out[o + 2] = lut[i + 2]!;
        out[o + 3] = lut[i + 3]!;
      }
    },
    paintRow: bytes
      ? (y, x0, x1, data, base, ch) => {
          const ry = (y + 0.5 - p.cy) * scale;
          const ry2 = ry * ry;
          for (let x = x0, o = base + x0 * ch; x < x1; x++, o += ch) {
            const rx = (x + 0.5 - p.cx) * scale;
            const t = Math.sqrt(rx * rx + ry2);
            const i = (t >= top ? top : (t + 0.5) | 0) * 4;
            data[o] = bytes[i]!;
            if (ch === 1) continue;
            data[o + 1] = bytes[i + 1]!;
            data[o + 2] = bytes[i + 2]!;
            if (ch === 4) data[o + 3] = 255;
          }
        }
      : undefined,
  };
}

/**
 * A gradient's LUT, and for opaque stops its colors as the bytes `put` writes for them (rounded
 * half up). Remembered per list of stops (a few layers share stops; bulk jobs share styles);
 * both arrays are only read.
 */
function gradientLuts(stops: Stop[]): { lut: Float32Array; bytes: Uint8Array | null } {
  let key = '';
  for (const s of stops) key += `${s.offset},${s.color.r},${s.color.g},${s.color.b},${s.color.a};`;
  let hit = lutCache.get(key);
  if (!hit) {
    const lut = gradientLut(stops);
    let bytes: Uint8Array | null = null;
    if (stops.every((s) => s.color.a >= 1)) {
      bytes = new Uint8Array(lut.length);
      for (let i = 0; i < lut.length; i++) bytes[i] = lut[i]! + 0.5;
    }
    hit = { lut, bytes };
    if (lutCache.size >= LUT_CACHE_ENTRIES) lutCache.delete(lutCache.keys().next().value!);
    lutCache.set(key, hit);
  }
  return hit;
}

const LUT_CACHE_ENTRIES = 32;
const lutCache = new Map<string, { lut: Float32Array; bytes: Uint8Array | null }>();

function solid(c: { r: number; g: number; b: number; a: number }): Shader {
  return {
    constant: true,
    opaque: c.a >= 1,
    sameRows: true,
    color: Float32Array.of(c.r * c.a, c.g * c.a, c.b * c.a, c.a * 255),
    span() {},
  };
}

/** Premultiplied colors at LUT_SIZE evenly spaced offsets, interpolated unpremultiplied. */
function gradientLut(stops: Stop[]): Float32Array {
  const lut = new Float32Array(LUT_SIZE * 4);
  let k = 0;
  for (let i = 0; i < LUT_SIZE; i++) {
    const t = i / (LUT_SIZE - 1);
    while (k < stops.length && stops[k]!.offset <= t) k++;
    let r: number, g: number, b: number, a: number;
    if (k === 0 || k === stops.length) {
      ({ r, g, b, a } = stops[k === 0 ? 0 : stops.length - 1]!.color);
    } else {
      const s0 = stops[k - 1]!;
      const s1 = stops[k]!;
      const f = (t - s0.offset) / (s1.offset - s0.offset);
      r = s0.color.r + (s1.color.r - s0.color.r) * f;
      g = s0.color.g + (s1.color.g - s0.color.g) * f;
      b = s0.color.b + (s1.color.b - s0.color.b) * f;
      a = s0.color.a + (s1.color.a - s0.color.a) * f;
    }
    lut[i * 4] = r * a;
    lut[i * 4 + 1] = g * a;
    lut[i * 4 + 2] = b * a;
    lut[i * 4 + 3] = a * 255;
  }
  return lut;
}

/** Draws the code onto a surface made by `surfaceFor` once the layout (and so the size) is known. */
export function rasterize(
  opts: ResolvedQrOptions,
  matrix: QrMatrix,
  image: QrImage | null,
  surfaceFor: (layout: Layout, logo: QrImage | null) => Surface,
): Surface {
  const logo = usableLogo(image);
  const layout = computeLayout(opts, matrix.count, logo);
  const surface = surfaceFor(layout, logo);
  drawScene(opts, matrix, layout, logo, new Rasterizer(surface, shapeSet(layout.dotSize), opts.dotsOptions.roundSize));
  return surface;
}

/** Module outlines per module size, remembered (a ShapeSet only fills its own caches). */
function shapeSet(size: number): ShapeSet {
  let set = shapeSets.get(size);
  if (!set) {
    if (shapeSets.size >= 16) shapeSets.delete(shapeSets.keys().next().value!);
    set = new ShapeSet(size);
    shapeSets.set(size, set);
  }
  return set;
}

const shapeSets = new Map<number, ShapeSet>();

export function usableLogo(image: QrImage | null): QrImage | null {
  return image && image.width > 0 && image.height > 0 ? image : null;
}
