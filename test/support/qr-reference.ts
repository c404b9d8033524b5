/**
 * The reference our QR renderer is held to: qr-code-styling 1.9.2 itself, run in Node with jsdom
 * (`new QRCodeStyling({ jsdom, type: 'svg', ...options })`, then `getRawData('svg')`), its
 * SVG rasterized by the same @resvg/resvg-js our renderer uses, so both sides meet the same
 * rasterizer. Plus the helpers the tests share: pixel comparison, QR decoding, a test logo.
 *
 * Logos: jsdom cannot load images without the optional `canvas` package (the library's load
 * promise never settles), so the library is given a `nodeCanvas` whose `loadImage` only reports
 * the logo's natural size — exactly what callers hand our renderer in `QrImage` — with
 * `saveAsBlob: false` so it embeds the data URI as given instead of re-encoding it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { Resvg } from '@resvg/resvg-js';
import * as jsqrModule from 'jsqr';
import type { ResolvedQrOptions } from '#domain/qr/options.js';
import type { QrImage } from '#domain/qr/render/index.js';

// jsqr is CommonJS with `exports.default`; depending on the loader the function is one or two
// `default`s deep.
type JsQr = (
  data: Uint8ClampedArray,
  width: number,
  height: number,
  options?: { inversionAttempts?: 'dontInvert' | 'attemptBoth' },
) => { data: string } | null;
const jsQR = commonJsFunction(jsqrModule, (f): f is JsQr => typeof f === 'function');

/** A CommonJS module's function, found one or two `default`s deep, as `is` checks it. */
function commonJsFunction<F>(module: unknown, is: (value: unknown) => value is F): F {
  let value = module;
  for (let depth = 0; depth < 3 && typeof value !== 'function'; depth++)
    value = typeof value === 'object' && value !== null ? Reflect.get(value, 'default') : undefined;
  if (!is(value)) throw new Error('the CommonJS module exports no function');
  return value;
}

export const RESVG_OPTIONS = { font: { loadSystemFonts: false }, logLevel: 'off' } as const;

interface StylingInstance {
  getRawData(extension: 'svg'): Promise<Buffer | Blob | null>;
}
type StylingConstructor = new (options: Record<string, unknown>) => StylingInstance;

interface Reference {
  QRCodeStyling: StylingConstructor;
  /** What the library's `jsdom` option receives: a constructor it calls as `new jsdom('', opts)`. */
  jsdom: unknown;
}

let loaded: Promise<Reference> | undefined;

/**
 * qr-code-styling and jsdom, loaded once (jsdom ships no types; the library is CommonJS).
 * The library builds `new options.jsdom('', { resources: 'usable' }).window` per instance; we
 * hand it a constructor that returns one shared JSDOM, its fastest way to run in Node (a new
 * window costs more than drawing the code). Its elements are created detached, so instances do
 * not see each other.
 */
export function loadReference(): Promise<Reference> {
  loaded ??= (async () => {
    const QRCodeStyling = commonJsFunction(await import('qr-code-styling'), (f): f is StylingConstructor => typeof f === 'function');
    // jsdom ships no types: a specifier typed `string` keeps tsc from looking for them.
    const jsdomModule: string = 'jsdom';
    const { JSDOM } = (await import(jsdomModule)) as { JSDOM: new (html: string, options: object) => object };
    const shared = new JSDOM('', { resources: 'usable' });
    const jsdom = function SharedJsdom() {
      return shared;
    };
    return { QRCodeStyling, jsdom };
  })();
  return loaded;
}

export function imageDataUri(image: QrImage): string {
  return `data:${image.contentType};base64,${Buffer.from(image.data).toString('base64')}`;
}

/** The library's own SVG for the same options (and the same logo, when given). */
export async function referenceSvg(opts: ResolvedQrOptions, image?: QrImage | null): Promise<string> {
  const { QRCodeStyling, jsdom } = await loadReference();
  const options: Record<string, unknown> = {
    ...structuredClone(opts),
    type: 'svg',
    jsdom,
    image: image ? imageDataUri(image) : undefined,
    imageOptions: { ...opts.imageOptions, saveAsBlob: false },
  };
  if (image) options.nodeCanvas = { loadImage: async () => ({ width: image.width, height: image.height }) };
  const raw = await new QRCodeStyling(options).getRawData('svg');
  if (!raw || !Buffer.isBuffer(raw)) throw new Error('qr-code-styling returned no SVG');
  return forResvg(raw.toString('utf8'));
}

/**
 * The library writes `clip-path="url('#id')"` and `fill="url('#id')"`. Browsers accept the quoted
 * form; resvg 2.6 does not and then ignores the clip, painting the whole image black. Unquoting
 * the reference changes nothing else (same element, same id), so it is done here rather than
 * comparing against a black square.
 */
export function forResvg(svg: string): string {
  return svg.replace(/url\('#([^']*)'\)/g, 'url(#$1)');
}

export interface Raster {
  width: number;
  height: number;
  /** RGBA, premultiplied as resvg leaves it. */
  pixels: Buffer;
}

export function rasterize(svg: string): Raster {
  const out = new Resvg(svg, RESVG_OPTIONS).render();
  return { width: out.width, height: out.height, pixels: out.pixels };
}

/** Fraction of pixels whose four channels all differ by at most `tolerance`. */
export function equalFraction(a: Raster, b: Raster, tolerance = 16): number {
  if (a.width !== b.width || a.height !== b.height) return 0;
  const pa = a.pixels;
  const pb = b.pixels;
  let equal = 0;
  for (let i = 0; i < pa.length; i += 4) {
    if (
      Math.abs(pa[i]! - pb[i]!) <= tolerance &&
      Math.abs(pa[i + 1]! - pb[i + 1]!) <= tolerance &&
      Math.abs(pa[i + 2]! - pb[i + 2]!) <= tolerance &&
      Math.abs(pa[i + 3]! - pb[i + 3]!) <= tolerance
    ) {
      equal++;
    }
  }
  return equal / (pa.length / 4);
}

/**
 * Decodes raw pixels with jsQR after compositing onto white (a transparent background would
 * otherwise read as black). resvg's pixels are premultiplied, so compositing is `c + (255 − a)`.
 */
export function decodeQr(r: Raster): string | null {
  const rgba = new Uint8ClampedArray(r.pixels.length);
  const p = r.pixels;
  for (let i = 0; i < p.length; i += 4) {
    const back = 255 - p[i + 3]!;
    rgba[i] = p[i]! + back;
    rgba[i + 1] = p[i + 1]! + back;
    rgba[i + 2] = p[i + 2]! + back;
    rgba[i + 3] = 255;
  }
  const found = jsQR(rgba, r.width, r.height, { inversionAttempts: 'dontInvert' });
  return found ? found.data : null;
}

/**
 * A PNG file drawn 1:1 by resvg onto white, with `pad` pixels of white around it: resvg decodes
 * the file (so this also checks it is a valid PNG) and the pad is the quiet zone a printed code
 * has on paper; the library's default margin is far below the 4 modules the standard asks for.
 */
export function pngOnWhite(png: Buffer, pad = 0): Resvg {
  const { width, height } = pngSize(png);
  const w = width + 2 * pad;
  const h = height + 2 * pad;
  return new Resvg(
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${w}" height="${h}">` +
      `<rect width="${w}" height="${h}" fill="#fff"/>` +
      `<image x="${pad}" y="${pad}" width="${width}" height="${height}" xlink:href="data:image/png;base64,${png.toString('base64')}"/></svg>`,
    RESVG_OPTIONS,
  );
}

/** jsQR on a PNG file's pixels (decoded by resvg). */
export function decodePng(png: Buffer, pad = 0): string | null {
  const out = pngOnWhite(png, pad).render();
  return decodeQr({ width: out.width, height: out.height, pixels: out.pixels });
}

/** How much quiet zone the second decoding attempt adds around an image. */
export const QUIET_ZONE = 24;

export const HAS_ZBAR = spawnSync('zbarimg', ['--version'], { stdio: 'ignore' }).status === 0;

/**
 * Which of `pngs` decode to `data`. Two decoders, each on the image as it is and with a white
 * quiet zone: jsQR in-process first, then zbarimg (Debian's zbar-tools) on whatever jsQR could
 * not read, in one batch. Stylized codes sit at the edge of what decoders handle, and the two
 * fail on different images (jsQR struggles with round finder rings, zbar with some square eyes
 * in round rings), so a code counts as scannable when either reads it, as a phone would.
 * `quietZone: false` reads camera captures as they are (they have their own surroundings).
 */
export async function decodesAll(pngs: Buffer[], data: string, { quietZone = true } = {}): Promise<boolean[]> {
  const ok = pngs.map((png) => decodePng(png) === data || (quietZone && decodePng(png, QUIET_ZONE) === data));
  const rest = ok.flatMap((v, i) => (v ? [] : [i]));
  if (!rest.length || !HAS_ZBAR) return ok;
  const dir = await mkdtemp(join(tmpdir(), 'qr-decode-'));
  try {
    const files: Array<[number, string]> = [];
    for (const i of rest) {
      const plain = join(dir, `${i}.png`);
      await writeFile(plain, pngs[i]!);
      files.push([i, plain]);
      if (!quietZone) continue;
      const padded = join(dir, `${i}-pad.png`);
      await writeFile(padded, pngOnWhite(pngs[i]!, QUIET_ZONE).render().asPng());
      files.push([i, padded]);
    }
    // zbarimg exits non-zero when some image has no code; its stdout still lists the rest.
    const run = spawnSync('zbarimg', ['--xml', '-q', ...files.map(([, f]) => f)], { encoding: 'utf8', maxBuffer: 1 << 26 });
    const read = new Set<string>();
    for (const m of (run.stdout ?? '').matchAll(/<source href='([^']+)'>([\s\S]*?)<\/source>/g)) {
      for (const d of m[2]!.matchAll(/<data><!\[CDATA\[([\s\S]*?)\]\]><\/data>/g)) if (d[1] === data) read.add(m[1]!);
    }
    for (const [i, f] of files) if (read.has(f)) ok[i] = true;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return ok;
}

export function pngSize(png: Buffer): { width: number; height: number } {
  if (png.readUInt32BE(0) !== 0x89504e47 || png.toString('latin1', 12, 16) !== 'IHDR') throw new Error('not a PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/**
 * A small, real logo PNG written from scratch: a rounded coloured badge with a white bar, RGBA,
 * `width`×`height`. Opaque inside, transparent corners, so it exercises alpha too.
 */
export function makeLogoPng(width = 64, height = 64): Buffer {
  const raw = Buffer.alloc((width * 4 + 1) * height);
  const r = Math.min(width, height) * 0.2;
  for (let y = 0; y < height; y++) {
    const row = y * (width * 4 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const cx = Math.min(Math.max(x + 0.5, r), width - r);
      const cy = Math.min(Math.max(y + 0.5, r), height - r);
      const inside = (x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2 <= r * r;
      const bar = y >= height * 0.4 && y < height * 0.6 && x >= width * 0.2 && x < width * 0.8;
      const o = row + 1 + x * 4;
      if (!inside) continue;
      raw[o] = bar ? 255 : 220;
      raw[o + 1] = bar ? 255 : 40 + Math.round((120 * y) / height);
      raw[o + 2] = bar ? 255 : 60;
      raw[o + 3] = 255;
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

let crcTable: Uint32Array | undefined;
function crc32(buf: Buffer): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (let i = 0; i < buf.length; i++) c = crcTable[(c ^ buf[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
