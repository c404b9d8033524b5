/**
 * The SVG backend: the scene as one standalone SVG string, built without a DOM. Each layer is a
 * single <path> whose data merges every module outline (see shapes.ts), so a code is a handful
 * of elements instead of the library's one element per module.
 */
import type { ResolvedQrOptions } from '../options.js';
import type { Rgba } from '../css-color.js';
import { computeLayout, type LogoBox } from './layout.js';
import type { QrMatrix } from './encoder.js';
import { makeMatrix } from './matrix.js';
import type { Paint } from './paint.js';
import { drawScene, type Backend, type QrImage } from './scene.js';
import { fmt, ShapeSet, type Sink, type Variant } from './shapes.js';

class PathData implements Sink {
  d = '';
  constructor(private readonly shapes: ShapeSet) {}

  cell(v: Variant, x: number, y: number): void {
    this.d += `M${fmt(x + this.shapes.ox[v]!)} ${fmt(y + this.shapes.oy[v]!)}${this.shapes.tail(v)}`;
  }

  rect(x: number, y: number, w: number, h: number, hole = false): void {
    this.d += hole ? `M${fmt(x)} ${fmt(y)}v${fmt(h)}h${fmt(w)}v${fmt(-h)}z` : `M${fmt(x)} ${fmt(y)}h${fmt(w)}v${fmt(h)}h${fmt(-w)}z`;
  }

  circle(cx: number, cy: number, r: number, hole = false): void {
    const R = fmt(r);
    const sweep = hole ? 0 : 1;
    this.d += `M${fmt(cx - r)} ${fmt(cy)}a${R} ${R} 0 0 ${sweep} ${fmt(2 * r)} 0a${R} ${R} 0 0 ${sweep} ${fmt(-2 * r)} 0z`;
  }

  roundedRect(x: number, y: number, w: number, h: number, r: number, hole = false): void {
    const R = fmt(r);
    const arc = (dx: number, dy: number) => `a${R} ${R} 0 0 ${hole ? 0 : 1} ${fmt(dx)} ${fmt(dy)}`;
    const iw = fmt(w - 2 * r);
    const ih = fmt(h - 2 * r);
    const niw = fmt(-(w - 2 * r));
    const nih = fmt(-(h - 2 * r));
    this.d += `M${fmt(x + r)} ${fmt(y)}`;
    this.d += hole
      ? `${arc(-r, r)}v${ih}${arc(r, r)}h${iw}${arc(r, -r)}v${nih}${arc(-r, -r)}z`
      : `h${iw}${arc(r, r)}v${ih}${arc(-r, r)}h${niw}${arc(-r, -r)}v${nih}${arc(r, -r)}z`;
  }
}

function hex2(v: number): string {
  return (v < 16 ? '0' : '') + v.toString(16);
}

function hex(c: Rgba): string {
  return `#${hex2(c.r)}${hex2(c.g)}${hex2(c.b)}`;
}

function alpha(a: number): string {
  return String(Math.round(a * 10000) / 10000);
}

const dataUris = new WeakMap<Uint8Array, string>();

/** Base64 of a logo, remembered per byte array: bulk renders share one logo. */
export function dataUri(image: QrImage): string {
  const prefix = `data:${image.contentType};base64,`;
  let uri = dataUris.get(image.data);
  if (uri === undefined || !uri.startsWith(prefix)) {
    uri = prefix + base64(image.data);
    dataUris.set(image.data, uri);
  }
  return uri;
}

type NodeBuffer = { from(bytes: ArrayBufferLike, offset: number, length: number): { toString(encoding: 'base64'): string } };

/**
 * This module also runs in the browser (the console's live preview), which has no Buffer: there
 * the bytes go through btoa in chunks. On the server Buffer's native encoder is kept (it is much
 * faster, and bulk renders encode logos of up to a few MB).
 */
function base64(bytes: Uint8Array): string {
  const buffer = (globalThis as { Buffer?: NodeBuffer }).Buffer;
  if (buffer) return buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

class SvgWriter implements Backend {
  defs = '';
  body = '';
  hasImage = false;
  private gradients = 0;

  constructor(
    private readonly shapes: ShapeSet,
    private readonly ids: string,
  ) {}

  fill(paint: Paint, draw: (sink: Sink) => void): void {
    const path = new PathData(this.shapes);
    draw(path);
    if (path.d) this.body += `<path d="${path.d}"${this.paint(paint)}/>`;
  }

  image(box: LogoBox, logo: QrImage): void {
    this.hasImage = true;
    this.body += `<image x="${fmt(box.x)}" y="${fmt(box.y)}" width="${fmt(box.width)}" height="${fmt(box.height)}" xlink:href="${dataUri(logo)}"/>`;
  }

  private paint(p: Paint): string {
    if (p.kind === 'solid') return ` fill="${hex(p.color)}"${p.color.a < 1 ? ` fill-opacity="${alpha(p.color.a)}"` : ''}`;
    const id = `${this.ids}${this.gradients++}`;
    let stops = '';
    for (const s of p.stops)
      stops += `<stop offset="${s.offset}" stop-color="${hex(s.color)}"${s.color.a < 1 ? ` stop-opacity="${alpha(s.color.a)}"` : ''}/>`;
    this.defs +=
      p.kind === 'linear'
        ? `<linearGradient id="${id}" gradientUnits="userSpaceOnUse" x1="${p.x1}" y1="${p.y1}" x2="${p.x2}" y2="${p.y2}">${stops}</linearGradient>`
        : `<radialGradient id="${id}" gradientUnits="userSpaceOnUse" cx="${p.cx}" cy="${p.cy}" fx="${p.cx}" fy="${p.cy}" r="${p.r}">${stops}</radialGradient>`;
    return ` fill="url(#${id})"`;
  }
}

/**
 * Renders `opts` as a standalone SVG document (xmlns, width, height, viewBox). The logo is drawn
 * when `image` is given: callers resolve `opts.image` to bytes and natural size; this function
 * does no I/O. Throws `QrRenderError` when the data does not fit, the mode cannot encode it, or
 * the size leaves no room for the modules.
 */
export function renderSvg(opts: ResolvedQrOptions, image?: QrImage | null): string {
  return svgFromMatrix(opts, makeMatrix(opts), image ?? null);
}

export function svgFromMatrix(opts: ResolvedQrOptions, matrix: QrMatrix, image: QrImage | null): string {
  const logo = image && image.width > 0 && image.height > 0 ? image : null; // as raster.ts's usableLogo
  const layout = computeLayout(opts, matrix.count, logo);
  const out = new SvgWriter(new ShapeSet(layout.dotSize), idPrefix(opts));
  drawScene(opts, matrix, layout, logo, out);
  const { width, height } = layout;
  const xlink = out.hasImage ? ' xmlns:xlink="http://www.w3.org/1999/xlink"' : '';
  // The library's own switch: without whole-pixel rounding, edges are drawn unsmoothed.
  const crisp = opts.dotsOptions.roundSize ? '' : ' shape-rendering="crispEdges"';
  return (
    `<svg xmlns="http://www.w3.org/2000/svg"${xlink} width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"${crisp}>` +
    (out.defs ? `<defs>${out.defs}</defs>` : '') +
    out.body +
    '</svg>'
  );
}

/**
 * Gradient ids must not collide when several of our SVGs are inlined in one HTML page, and the
 * same input must give the same bytes (caching, ETags): a hash of the data and the gradients.
 */
function idPrefix(opts: ResolvedQrOptions): string {
  const g = [
    opts.backgroundOptions.gradient,
    opts.dotsOptions.gradient,
    opts.cornersSquareOptions.gradient,
    opts.cornersDotOptions.gradient,
  ];
  if (!g.some(Boolean)) return 'qr';
  const text = opts.data + JSON.stringify(g);
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return `qr${(h >>> 0).toString(36)}-`;
}
