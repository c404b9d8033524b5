/**
 * Checking print PDFs the way a print shop's RIP sees them: ghostscript rasterises every page at
 * 300 dpi (so a code is read at its printed size), then two decoders that share nothing with our
 * renderer read the codes: zbarimg on whole pages (it finds every code on a page), and jsQR on
 * each code's own area (it reads one code per image). Plus readers of the file's own structure:
 * page boxes, colour operators, the Info dictionary.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';
import * as jsqrModule from 'jsqr';

type JsQr = (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;
function jsQrFunction(): JsQr {
  let value: unknown = jsqrModule;
  for (let depth = 0; depth < 3 && typeof value !== 'function'; depth++)
    value = typeof value === 'object' && value !== null ? Reflect.get(value, 'default') : undefined;
  if (typeof value !== 'function') throw new Error('jsqr exports no function');
  return value as JsQr;
}
const jsQR = jsQrFunction();

export const PT_PER_MM = 72 / 25.4;

/** An 8-bit gray page. */
export interface GrayPage {
  width: number;
  height: number;
  pixels: Uint8Array;
  /** The page's PNG file, for zbarimg. */
  png: Buffer;
}

/** Every page of `pdf` as 8-bit gray at `dpi`, by ghostscript (`pnggray`). */
export async function rasterisePdf(pdf: Buffer, dpi = 300): Promise<GrayPage[]> {
  const dir = await mkdtemp(join(tmpdir(), 'pdf-print-'));
  try {
    const input = join(dir, 'in.pdf');
    await import('node:fs/promises').then((fs) => fs.writeFile(input, pdf));
    const run = spawnSync(
      'gs',
      [
        '-q',
        '-dNOPAUSE',
        '-dBATCH',
        '-dSAFER',
        '-sDEVICE=pnggray',
        `-r${dpi}`,
        '-dUseTrimBox=false',
        `-sOutputFile=${join(dir, 'p%05d.png')}`,
        input,
      ],
      { encoding: 'utf8' },
    );
    if (run.status !== 0) throw new Error(`ghostscript failed: ${run.stderr}`);
    const names = (await readdir(dir)).filter((n) => n.endsWith('.png')).sort();
    return Promise.all(names.map(async (n) => decodeGrayPng(await readFile(join(dir, n)))));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A gray 8-bit PNG (what ghostscript's pnggray writes), unfiltered into pixels. */
export function decodeGrayPng(png: Buffer): GrayPage {
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  if (png[24] !== 8 || png[25] !== 0) throw new Error('not an 8-bit gray PNG');
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    if (type === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const pixels = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (width + 1)]!;
    const row = raw.subarray(y * (width + 1) + 1, (y + 1) * (width + 1));
    const out = y * width;
    for (let x = 0; x < width; x++) {
      const a = x > 0 ? pixels[out + x - 1]! : 0;
      const b = y > 0 ? pixels[out - width + x]! : 0;
      const c = x > 0 && y > 0 ? pixels[out - width + x - 1]! : 0;
      let predictor = 0;
      if (filter === 1) predictor = a;
      else if (filter === 2) predictor = b;
      else if (filter === 3) predictor = (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      pixels[out + x] = (row[x]! + predictor) & 0xff;
    }
  }
  return { width, height, pixels, png };
}

/** A rectangle of a page (pixels) with white around it, as paper has: what a phone aimed at one code sees. */
export interface Crop {
  width: number;
  height: number;
  pixels: Uint8Array;
}

export function cropOf(page: GrayPage, x: number, y: number, w: number, h: number): Crop {
  const pad = Math.round(Math.min(w, h) * 0.15);
  const W = Math.round(w) + 2 * pad;
  const H = Math.round(h) + 2 * pad;
  const pixels = new Uint8Array(W * H).fill(255);
  const left = Math.round(x);
  const top = Math.round(y);
  for (let j = 0; j < Math.round(h); j++) {
    const sy = top + j;
    if (sy < 0 || sy >= page.height) continue;
    for (let i = 0; i < Math.round(w); i++) {
      const sx = left + i;
      if (sx < 0 || sx >= page.width) continue;
      pixels[(j + pad) * W + i + pad] = page.pixels[sy * page.width + sx]!;
    }
  }
  return { width: W, height: H, pixels };
}

/** jsQR on a rectangle of a page (pixels), with white around it. */
export function jsQrIn(page: GrayPage, x: number, y: number, w: number, h: number): string | null {
  const crop = cropOf(page, x, y, w, h);
  const rgba = new Uint8ClampedArray(crop.width * crop.height * 4);
  for (let i = 0; i < crop.pixels.length; i++) {
    rgba[i * 4] = rgba[i * 4 + 1] = rgba[i * 4 + 2] = crop.pixels[i]!;
    rgba[i * 4 + 3] = 255;
  }
  return jsQR(rgba, crop.width, crop.height)?.data ?? null;
}

/** A crop as an 8-bit gray PNG file. */
function grayPng(crop: Crop): Buffer {
  const raw = Buffer.alloc((crop.width + 1) * crop.height);
  for (let y = 0; y < crop.height; y++) raw.set(crop.pixels.subarray(y * crop.width, (y + 1) * crop.width), y * (crop.width + 1) + 1);
  const chunk = (type: string, data: Buffer) => {
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    out.write(type, 4, 'latin1');
    data.copy(out, 8);
    out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(crop.width, 0);
  ihdr.writeUInt32BE(crop.height, 4);
  ihdr[8] = 8;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** What zbarimg reads in each crop (one code each), in one zbarimg run. */
export async function zbarCrops(crops: Crop[]): Promise<Array<string | null>> {
  const dir = await mkdtemp(join(tmpdir(), 'pdf-zbar-crops-'));
  try {
    const files = crops.map((_, i) => join(dir, `c${i}.png`));
    const fs = await import('node:fs/promises');
    await Promise.all(crops.map((c, i) => fs.writeFile(files[i]!, grayPng(c))));
    const run = spawnSync('zbarimg', ['--xml', '-q', '-Sdisable', '-Sqrcode.enable', ...files], { encoding: 'utf8', maxBuffer: 1 << 27 });
    const found = new Map<string, string>();
    for (const m of (run.stdout ?? '').matchAll(/<source href='([^']+)'>([\s\S]*?)<\/source>/g)) {
      const d = /<data><!\[CDATA\[([\s\S]*?)\]\]><\/data>/.exec(m[2]!);
      if (d) found.set(m[1]!, d[1]!);
    }
    return files.map((f) => found.get(f) ?? null);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Every code zbarimg finds on each page, in one zbarimg run. */
export async function zbarPages(pages: GrayPage[]): Promise<string[][]> {
  const dir = await mkdtemp(join(tmpdir(), 'pdf-zbar-'));
  try {
    const files = pages.map((_, i) => join(dir, `p${i}.png`));
    const fs = await import('node:fs/promises');
    await Promise.all(pages.map((p, i) => fs.writeFile(files[i]!, p.png)));
    const run = spawnSync('zbarimg', ['--xml', '-q', '-Sdisable', '-Sqrcode.enable', ...files], { encoding: 'utf8', maxBuffer: 1 << 27 });
    const found = new Map<string, string[]>();
    for (const m of (run.stdout ?? '').matchAll(/<source href='([^']+)'>([\s\S]*?)<\/source>/g)) {
      found.set(
        m[1]!,
        [...m[2]!.matchAll(/<data><!\[CDATA\[([\s\S]*?)\]\]><\/data>/g)].map((d) => d[1]!),
      );
    }
    return files.map((f) => found.get(f) ?? []);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Page content streams and other streams, inflated, as latin1 text. */
export function pdfStreams(pdf: Buffer): string[] {
  const text = pdf.toString('latin1');
  const out: string[] = [];
  for (const m of text.matchAll(/stream\r?\n/g)) {
    const start = m.index + m[0].length;
    const end = text.indexOf('endstream', start);
    const bytes = pdf.subarray(start, end);
    try {
      out.push(inflateSync(bytes).toString('latin1'));
    } catch {
      out.push(bytes.toString('latin1'));
    }
  }
  return out;
}

/** A page box (`MediaBox`, `TrimBox`, `BleedBox`) of each page, in points. */
export function pageBoxes(pdf: Buffer, box: 'MediaBox' | 'TrimBox' | 'BleedBox'): number[][] {
  return [...pdf.toString('latin1').matchAll(new RegExp(`/${box} \\[([^\\]]*)\\]`, 'g'))].map((m) => m[1]!.trim().split(/\s+/).map(Number));
}

/** An entry of the Info dictionary, as pdfkit writes it: a reference to a literal string (UTF-16BE with a BOM when not ASCII). */
export function infoEntry(pdf: Buffer, name: string): string | null {
  const text = pdf.toString('latin1');
  const ref = new RegExp(`/${name} (\\d+) 0 R`).exec(text);
  const literal = ref ? new RegExp(`\\n${ref[1]} 0 obj\\n\\(((?:\\\\.|[^\\\\)])*)\\)`).exec(text) : null;
  if (!literal) return null;
  const bytes = Buffer.from(
    literal[1]!.replace(/\\([nrtbf()\\]|[0-7]{1,3})/g, (_, e: string) =>
      /^[0-7]/.test(e)
        ? String.fromCharCode(parseInt(e, 8))
        : (({ n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' } as Record<string, string>)[e] ?? e),
    ),
    'latin1',
  );
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return Buffer.from(bytes.subarray(2)).swap16().toString('utf16le');
  return bytes.toString('latin1');
}
