/**
 * The native QR renderer (domain/qr/render) held against qr-code-styling 1.9.2 itself, run in
 * this process with jsdom and rasterized by the same resvg (test/support/qr-reference.ts).
 *
 * 1. Scannability: every dot type × every error correction level × gradient on/off × logo on/off,
 *    with the finder styles paired so that each corner-square type (square, dot, extra-rounded)
 *    and corner-dot type (square, dot) meets every dot type. Our PNG and our SVG must decode to
 *    the URL wherever the library's own output decodes. Decoding: jsQR, then zbarimg
 *    (zbar-tools), each with and without a white quiet zone; see `decodesAll`.
 * 2. Visual agreement: the fraction of pixels equal within 16 per channel, ours vs the library,
 *    at 300 px (plus a few other sizes), for every option that changes the picture. Bar: 0.97.
 * 3. Errors: data that does not fit, a mode that cannot encode it, sizes with no room.
 * 4. The SVG is a standalone document resvg renders.
 * 5. Render threads run at the lowest CPU priority.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { Resvg } from '@resvg/resvg-js';
import { SaxesParser, type SaxesTagNS } from 'saxes';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCssColor } from '#domain/qr/css-color.js';
import {
  CORNER_DOT_TYPES,
  CORNER_SQUARE_TYPES,
  DOT_TYPES,
  ERROR_CORRECTION_LEVELS,
  withQrDefaults,
  type QrGradient,
  type QrOptions,
  type ResolvedQrOptions,
} from '#domain/qr/options.js';
import { QrRenderError, renderPng, renderSvg, withPixelsPerMetre, type QrImage } from '#domain/qr/render/index.js';
import { createQrRenderer } from '#infra/qr/render-pool.js';
import { pngBytes } from '../../support/fixtures.js';
import {
  decodesAll,
  equalFraction,
  HAS_ZBAR,
  makeLogoPng,
  pngSize,
  rasterize,
  referenceSvg,
  RESVG_OPTIONS,
  type Raster,
} from '../../support/qr-reference.js';

const DATA = 'http://localhost:3001/Ab3xY9z';
const LOGO: QrImage = { data: makeLogoPng(64, 64), contentType: 'image/png', width: 64, height: 64 };
const WIDE_LOGO: QrImage = { data: makeLogoPng(96, 40), contentType: 'image/png', width: 96, height: 40 };
const TALL_LOGO: QrImage = { data: makeLogoPng(30, 80), contentType: 'image/png', width: 30, height: 80 };
const SVG_LOGO: QrImage = {
  data: Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="50" height="30" viewBox="0 0 50 30"><rect width="50" height="30" rx="6" fill="#e91e63"/><circle cx="25" cy="15" r="9" fill="#fff"/></svg>',
  ),
  contentType: 'image/svg+xml',
  width: 50,
  height: 30,
};

const linear = (rotation: number, from = '#0d47a1', to = '#4a148c'): QrGradient => ({
  type: 'linear',
  rotation,
  colorStops: [
    { offset: 0, color: from },
    { offset: 1, color: to },
  ],
});
const radial = (from: string, to: string): QrGradient => ({
  type: 'radial',
  colorStops: [
    { offset: 0, color: from },
    { offset: 1, color: to },
  ],
});

/** Our PNG file's pixels, drawn 1:1 by resvg without a background (premultiplied RGBA). */
function pngPixels(png: Buffer): Raster {
  const { width, height } = pngSize(png);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${width}" height="${height}"><image width="${width}" height="${height}" xlink:href="data:image/png;base64,${png.toString('base64')}"/></svg>`;
  return rasterize(svg);
}

function svgToPng(svg: string): Buffer {
  return new Resvg(svg, RESVG_OPTIONS).render().asPng();
}

// ---------------------------------------------------------------------------------------------
// 1. Scannability
// ---------------------------------------------------------------------------------------------

/** Every corner-square type with every corner-dot type the issue names; cycled through the combos. */
const FINDER_PAIRS = [
  ['square', 'square'],
  ['square', 'dot'],
  ['dot', 'square'],
  ['dot', 'dot'],
  ['extra-rounded', 'square'],
  ['extra-rounded', 'dot'],
] as const;

interface ScanCombo {
  label: string;
  options: QrOptions;
  logo: QrImage | null;
}

/**
 * 16 combinations per dot type: 4 levels × gradient × logo, the finder pairs cycling so each of
 * the six pairs appears two or three times per dot type. Gradients are dark on light, as a
 * scannable design must be; the logo uses the API contract's image defaults (imageSize 0.5, dots not
 * hidden), i.e. it covers modules and the error correction has to make up for them.
 */
function scanCombos(type: (typeof DOT_TYPES)[number], offset: number): ScanCombo[] {
  const combos: ScanCombo[] = [];
  let k = offset;
  for (const level of ERROR_CORRECTION_LEVELS) {
    for (const gradient of [false, true]) {
      for (const withLogo of [false, true]) {
        const [ring, eye] = FINDER_PAIRS[k % FINDER_PAIRS.length]!;
        const options: QrOptions = {
          qrOptions: { errorCorrectionLevel: level },
          dotsOptions: { type, ...(gradient ? { gradient: linear((k % 8) * (Math.PI / 4)) } : {}) },
          cornersSquareOptions: { type: ring, ...(gradient ? { gradient: radial('#311b92', '#000000') } : {}) },
          cornersDotOptions: { type: eye, ...(gradient ? { color: '#1a237e' } : {}) },
          ...(gradient ? { backgroundOptions: { gradient: linear(0, '#ffffff', '#e3f2fd') } } : {}),
        };
        combos.push({
          label: `${type}/${level}/${gradient ? 'gradient' : 'plain'}/${withLogo ? 'logo' : 'no logo'}/${ring}+${eye}`,
          options,
          logo: withLogo ? LOGO : null,
        });
        k++;
      }
    }
  }
  return combos;
}

/**
 * Combinations whose *reference* image (the library's own SVG through resvg) neither jsQR nor
 * zbar could read when this was written; ours may then fail too and that is not held against it.
 * Currently empty: with both decoders and a quiet zone, every combination above reads, L with the
 * contract's half-size logo included (it covers 0.5 × 7 % of the modules, within what L restores).
 * Without the zbar pass jsQR alone misses about a fifth of them in both renderers alike, mostly
 * codes with round finder rings ("dot") or square rings around round eyes.
 */
const REFERENCE_UNSCANNABLE: readonly string[] = [];

describe('scannability: every dot type, level, finder style, gradient and logo', () => {
  it('has zbarimg (Debian zbar-tools) to decode with', () => {
    expect(HAS_ZBAR, 'install zbar-tools: the scannability tests use zbarimg besides jsQR').toBe(true);
  });

  DOT_TYPES.forEach((type, t) => {
    it(`${type}: our PNG and SVG decode wherever the library's output does`, async () => {
      const combos = scanCombos(type, t);
      const ours: Buffer[] = [];
      const oursSvg: Buffer[] = [];
      const reference: Buffer[] = [];
      for (const c of combos) {
        const opts = withQrDefaults(c.options, DATA);
        ours.push(renderPng(opts, c.logo));
        oursSvg.push(svgToPng(renderSvg(opts, c.logo)));
        reference.push(svgToPng(await referenceSvg(opts, c.logo)));
      }
      const read = await decodesAll([...ours, ...oursSvg, ...reference], DATA);
      const n = combos.length;
      const failures: string[] = [];
      const referenceFailures: string[] = [];
      combos.forEach((c, i) => {
        if (!read[2 * n + i]) referenceFailures.push(c.label);
        else {
          if (!read[i]) failures.push(`${c.label}: PNG`);
          if (!read[n + i]) failures.push(`${c.label}: SVG`);
        }
      });
      expect(failures).toEqual([]);
      expect(referenceFailures.filter((l) => !REFERENCE_UNSCANNABLE.includes(l))).toEqual([]);
    }, 60_000);
  });
});

// ---------------------------------------------------------------------------------------------
// 2. Visual agreement with qr-code-styling
// ---------------------------------------------------------------------------------------------

interface VisualCase {
  /** The option this case is about; the summary reports the minimum per option. */
  option: string;
  options: QrOptions;
  logo?: QrImage;
  data?: string;
  /** Lowest agreement accepted, when 0.97 is out of reach for a reviewed reason (see BARS). */
  bar?: number;
  /**
   * Give the library the colors as `rgba(r, g, b, a)`. It copies color strings into its SVG
   * verbatim and resvg 2.6 paints forms it does not know (modern `hsl(210 80% 30% / 0.8)`,
   * `rebeccapurple`, `turn` units) black; ours emits `#rrggbb` + opacity for every form the API
   * accepts. The library's geometry is unaffected by the spelling of a color.
   */
  legacyColors?: boolean;
}

const VISUAL: VisualCase[] = [
  { option: 'defaults', options: {} },
  ...DOT_TYPES.map((type) => ({ option: `dotsOptions.type ${type}`, options: { dotsOptions: { type } } })),
  ...CORNER_SQUARE_TYPES.map((type) => ({ option: `cornersSquareOptions.type ${type}`, options: { cornersSquareOptions: { type } } })),
  ...CORNER_DOT_TYPES.map((type) => ({
    option: `cornersDotOptions.type ${type}`,
    options: { cornersSquareOptions: { type: 'extra-rounded' as const }, cornersDotOptions: { type } },
  })),
  ...[0, Math.PI / 4, Math.PI / 2, (3 * Math.PI) / 4, Math.PI, 5, -2].map((rotation) => ({
    option: 'gradient linear (dots, corners, background)',
    options: {
      dotsOptions: { gradient: linear(rotation, '#0d47a1', '#880e4f') },
      cornersSquareOptions: { gradient: linear(rotation + 1, '#1b5e20', '#000000') },
      cornersDotOptions: { gradient: linear(rotation, '#e65100', '#311b92') },
      backgroundOptions: { gradient: linear(rotation / 2, '#ffffff', '#e0f7fa') },
    },
  })),
  {
    option: 'gradient radial (dots, corners, background)',
    options: {
      dotsOptions: {
        type: 'rounded',
        gradient: {
          type: 'radial',
          colorStops: [
            { offset: 0.2, color: '#000000' },
            { offset: 0.5, color: '#b71c1c' },
            { offset: 0.9, color: '#0d47a1' },
          ],
        },
      },
      cornersSquareOptions: { type: 'dot', gradient: radial('#4a148c', '#000000') },
      cornersDotOptions: { gradient: radial('#00e676', '#004d40') },
      backgroundOptions: { gradient: radial('#ffffff', '#fff3e0') },
    },
  },
  {
    option: 'gradient stops with alpha, transparent background',
    options: {
      dotsOptions: {
        gradient: {
          type: 'linear',
          rotation: 0.3,
          colorStops: [
            { offset: 0, color: 'rgba(0,0,0,0.2)' },
            { offset: 1, color: '#000' },
          ],
        },
      },
      backgroundOptions: { color: 'transparent' },
    },
  },
  { option: 'logo (PNG)', options: { qrOptions: { errorCorrectionLevel: 'H' } }, logo: LOGO },
  {
    option: 'logo (PNG)',
    options: { qrOptions: { errorCorrectionLevel: 'Q' }, imageOptions: { hideBackgroundDots: true, margin: 4 } },
    logo: LOGO,
  },
  {
    option: 'logo (PNG)',
    options: { qrOptions: { errorCorrectionLevel: 'H' }, imageOptions: { hideBackgroundDots: true, imageSize: 0.3 } },
    logo: WIDE_LOGO,
  },
  {
    option: 'logo (PNG)',
    options: { qrOptions: { errorCorrectionLevel: 'M' }, imageOptions: { hideBackgroundDots: true, imageSize: 1 } },
    logo: TALL_LOGO,
  },
  { option: 'logo (SVG)', options: { imageOptions: { hideBackgroundDots: true, imageSize: 0.3 } }, logo: SVG_LOGO },
  { option: 'background transparent', options: { backgroundOptions: { color: 'transparent' } } },
  {
    option: 'background alpha',
    options: { backgroundOptions: { color: 'rgba(255, 255, 255, 0.5)' }, dotsOptions: { color: 'rgba(0, 0, 80, 0.8)' } },
  },
  { option: 'background round', options: { backgroundOptions: { round: 0.3, color: '#e8eaf6' } } },
  { option: 'background round', options: { width: 400, height: 300, backgroundOptions: { round: 1, color: '#e8eaf6' } } },
  { option: 'margin 0', options: { margin: 0 } },
  { option: 'margin 20', options: { margin: 20 } },
  { option: 'margin 20', options: { margin: 20, dotsOptions: { type: 'dots' }, qrOptions: { errorCorrectionLevel: 'H' } }, logo: LOGO },
  ...DOT_TYPES.map((type) => ({ option: 'roundSize false', options: { dotsOptions: { type, roundSize: false } } })),
  {
    option: 'roundSize false',
    options: { width: 317, height: 317, dotsOptions: { roundSize: false }, cornersSquareOptions: { type: 'dot' as const } },
  },
  {
    option: 'roundSize false',
    options: {
      dotsOptions: { roundSize: false },
      qrOptions: { errorCorrectionLevel: 'H' as const },
      imageOptions: { hideBackgroundDots: true },
    },
    logo: WIDE_LOGO,
  },
  { option: 'shape circle', options: { shape: 'circle', backgroundOptions: { round: 1 } } },
  { option: 'shape circle', options: { shape: 'circle', margin: 0, dotsOptions: { type: 'dots' } } },
  { option: 'shape circle', options: { shape: 'circle', width: 300, height: 400, dotsOptions: { type: 'classy' } } },
  { option: 'size 400×300', options: { width: 400, height: 300 } },
  { option: 'size 1000', options: { width: 1000, height: 1000, dotsOptions: { type: 'extra-rounded' } } },
  {
    option: 'colors in every accepted CSS form',
    options: {
      dotsOptions: { color: 'hsl(210 80% 30% / 0.9)' },
      cornersSquareOptions: { color: 'rebeccapurple' },
      cornersDotOptions: { color: 'rgb(200 0 0)' },
      backgroundOptions: { color: '#fffde7' },
    },
    legacyColors: true,
  },
  { option: 'qrOptions (typeNumber 10, level L)', options: { qrOptions: { typeNumber: 10, errorCorrectionLevel: 'L' } } },
  { option: 'qrOptions (mode Alphanumeric)', options: { qrOptions: { mode: 'Alphanumeric' } }, data: 'HTTP://LOCALHOST:3001/AB3XY9Z' },
  { option: 'data beyond ASCII (same matrix)', options: {}, data: 'http://localhost:3001/Ab3xY9z?q=äöü€' },
];

/**
 * Reviewed exceptions to the 0.97 bar, per option. None needed: the lowest figure is `dots`
 * (about 0.986), where resvg approximates each circle by Bézier curves and we by chords, and
 * some anti-aliased edge pixels differ by more than 16.
 */
const BARS: Record<string, number> = {};
const BAR = 0.97;

function legacy(opts: ResolvedQrOptions): ResolvedQrOptions {
  const copy = structuredClone(opts);
  const fix = (c: string) => {
    const v = parseCssColor(c)!;
    return `rgba(${v.r}, ${v.g}, ${v.b}, ${v.a})`;
  };
  for (const part of [copy.dotsOptions, copy.cornersSquareOptions, copy.cornersDotOptions, copy.backgroundOptions]) {
    part.color = fix(part.color);
    part.gradient?.colorStops.forEach((s) => (s.color = fix(s.color)));
  }
  return copy;
}

const figures = new Map<string, { png: number; svg: number }>();

afterAll(() => {
  if (!figures.size) return;
  const lines = [...figures].map(([option, f]) => `  ${option.padEnd(48)} PNG ${f.png.toFixed(4)}  SVG ${f.svg.toFixed(4)}`);
  console.log(`Visual agreement with qr-code-styling 1.9.2 (min per option, pixels equal within 16):\n${lines.join('\n')}`);
});

describe('visual agreement with qr-code-styling 1.9.2', () => {
  it.each(VISUAL.map((c, i) => [`${c.option} #${i}`, c] as const))('%s', async (_name, c) => {
    const opts = withQrDefaults(c.options, c.data ?? DATA);
    const logo = c.logo ?? null;
    const reference = rasterize(await referenceSvg(c.legacyColors ? legacy(opts) : opts, logo));
    const png = equalFraction(pngPixels(renderPng(opts, logo)), reference);
    const svg = equalFraction(rasterize(renderSvg(opts, logo)), reference);
    const seen = figures.get(c.option);
    figures.set(c.option, { png: Math.min(png, seen?.png ?? 1), svg: Math.min(svg, seen?.svg ?? 1) });
    const bar = c.bar ?? BARS[c.option] ?? BAR;
    expect(png, 'PNG').toBeGreaterThanOrEqual(bar);
    expect(svg, 'SVG').toBeGreaterThanOrEqual(bar);
  });

  it('draws circle + roundSize false, which crashes the library (decoys use whole modules)', async () => {
    const opts = withQrDefaults({ shape: 'circle', dotsOptions: { roundSize: false } }, DATA);
    await expect(referenceSvg(opts)).rejects.toThrow();
    const [png, svg] = await decodesAll([renderPng(opts), svgToPng(renderSvg(opts))], DATA);
    expect(png && svg).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------
// 3. Errors
// ---------------------------------------------------------------------------------------------

function renderError(options: QrOptions, data = DATA): QrRenderError[] {
  const opts = withQrDefaults(options, data);
  const errors: QrRenderError[] = [];
  for (const render of [renderSvg, renderPng]) {
    try {
      render(opts);
    } catch (err) {
      if (err instanceof QrRenderError) errors.push(err);
      else throw err;
    }
  }
  return errors;
}

describe('errors', () => {
  it('data too long for the chosen typeNumber: qrOptions.typeNumber', () => {
    const errors = renderError({ qrOptions: { typeNumber: 1 } });
    expect(errors).toHaveLength(2);
    for (const e of errors) {
      expect(e).toBeInstanceOf(Error);
      expect(e.name).toBe('QrRenderError');
      expect(e.path).toBe('qrOptions.typeNumber');
      expect(e.message).toMatch(/version 1 .* level Q/);
    }
  });

  it('a mode that cannot encode the data: qrOptions.mode', () => {
    expect(renderError({ qrOptions: { mode: 'Numeric' } }).map((e) => e.path)).toEqual(['qrOptions.mode', 'qrOptions.mode']);
    expect(renderError({ qrOptions: { mode: 'Alphanumeric' } }).map((e) => e.path)).toEqual(['qrOptions.mode', 'qrOptions.mode']);
    expect(renderError({ qrOptions: { mode: 'Kanji' } }).map((e) => e.message)).toEqual([
      'Kanji mode is not supported (no Shift_JIS table)',
      'Kanji mode is not supported (no Shift_JIS table)',
    ]);
  });

  it('data longer than any version holds (auto typeNumber): data', () => {
    expect(renderError({ qrOptions: { errorCorrectionLevel: 'H' } }, `${DATA}?${'x'.repeat(1300)}`).map((e) => e.path)).toEqual([
      'data',
      'data',
    ]);
  });

  it('no room for the modules: width, margin', () => {
    expect(renderError({ width: 20, height: 300 }).map((e) => e.path)).toEqual(['width', 'width']);
    expect(renderError({ margin: 140 }).map((e) => e.path)).toEqual(['margin', 'margin']);
  });

  it('still renders right at the limits', () => {
    const opts = withQrDefaults({ qrOptions: { typeNumber: 3 } }, DATA); // the smallest that holds it at Q
    expect(renderSvg(opts)).toContain('<svg');
    expect(renderPng(opts).subarray(1, 4).toString()).toBe('PNG');
  });
});

// ---------------------------------------------------------------------------------------------
// 4. The SVG document
// ---------------------------------------------------------------------------------------------

function parseSvg(svg: string): { root: SaxesTagNS; elements: string[] } {
  const parser = new SaxesParser({ xmlns: true });
  let root: SaxesTagNS | undefined;
  const elements: string[] = [];
  parser.on('opentag', (tag) => {
    root ??= tag;
    elements.push(tag.local);
  });
  parser.write(svg).close();
  if (!root) throw new Error('no root element');
  return { root, elements };
}

describe('the SVG document', () => {
  it('is a standalone SVG with xmlns, width, height and viewBox that resvg renders', () => {
    const opts = withQrDefaults({ width: 420, height: 360 }, DATA);
    const svg = renderSvg(opts);
    const { root, elements } = parseSvg(svg);
    expect(root.local).toBe('svg');
    expect(root.uri).toBe('http://www.w3.org/2000/svg');
    expect(root.attributes.width?.value).toBe('420');
    expect(root.attributes.height?.value).toBe('360');
    expect(root.attributes.viewBox?.value).toBe('0 0 420 360');
    // One path per layer: background, data modules, finder rings, finder eyes.
    expect(elements).toEqual(['svg', 'path', 'path', 'path', 'path']);
    const out = new Resvg(svg, RESVG_OPTIONS).render();
    expect([out.width, out.height]).toEqual([420, 360]);
    const p = out.pixels;
    let dark = 0;
    for (let i = 0; i < p.length; i += 4) if (p[i]! < 128) dark++;
    expect(dark / (p.length / 4)).toBeGreaterThan(0.2);
  });

  it('embeds the logo as a data: URI, PNG and SVG alike, with the xlink namespace', () => {
    for (const logo of [LOGO, SVG_LOGO]) {
      const svg = renderSvg(withQrDefaults({ imageOptions: { hideBackgroundDots: true } }, DATA), logo);
      const { root, elements } = parseSvg(svg);
      expect(root.attributes['xmlns:xlink']?.value).toBe('http://www.w3.org/1999/xlink');
      expect(elements).toContain('image');
      expect(svg).toContain(`xlink:href="data:${logo.contentType};base64,${Buffer.from(logo.data).toString('base64')}"`);
    }
  });

  it('is deterministic, with gradient ids that differ between codes', () => {
    const options: QrOptions = { dotsOptions: { gradient: linear(1) } };
    const a = renderSvg(withQrDefaults(options, DATA));
    expect(renderSvg(withQrDefaults(options, DATA))).toBe(a);
    const b = renderSvg(withQrDefaults(options, `${DATA}x`));
    const ids = (s: string) => [...s.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
    expect(ids(a)).toHaveLength(1);
    expect(ids(a)).not.toEqual(ids(b));
  });

  it('writes the smallest exact PNG color type: gray, RGB, or RGBA when not opaque', () => {
    const type = (o: QrOptions, logo: QrImage | null = null) => renderPng(withQrDefaults(o, DATA), logo)[25];
    expect(type({})).toBe(0);
    expect(type({ dotsOptions: { color: '#1a237e' } })).toBe(2);
    expect(type({}, LOGO)).toBe(2);
    expect(type({ backgroundOptions: { color: 'transparent' } })).toBe(6);
    expect(type({ backgroundOptions: { round: 0.5 } })).toBe(6);
  });

  it('can say its physical size: a pHYs chunk right after IHDR, the picture unchanged', async () => {
    const png = renderPng(withQrDefaults({ width: 472, height: 472 }, DATA));
    const sized = withPixelsPerMetre(png, 472 / 0.04);
    expect(sized.length).toBe(png.length + 21);
    expect(sized.subarray(33, 41).toString('latin1')).toBe('\u0000\u0000\u0000\tpHYs');
    expect([sized.readUInt32BE(41), sized.readUInt32BE(45), sized[49]]).toEqual([11_800, 11_800, 1]);
    const [before, after] = await Promise.all([png, sized].map((p) => sharp(p).raw().toBuffer()));
    expect(after!.equals(before!)).toBe(true);
    expect((await sharp(sized).metadata()).density).toBe(300);
  });
});

describe('the drawn-logo cache (bulk jobs reuse one logo)', () => {
  const opts = withQrDefaults(
    { qrOptions: { errorCorrectionLevel: 'H' }, imageOptions: { imageSize: 0.3 } },
    'http://localhost:3001/Ca5hLg0',
  );
  const logo = (rgb: [number, number, number]): QrImage => ({
    data: pngBytes(24, 24, rgb),
    contentType: 'image/png',
    width: 24,
    height: 24,
  });

  it('gives the same picture for the same logo bytes, and a different one for another logo', () => {
    const red1 = renderPng(opts, logo([220, 20, 20]));
    const red2 = renderPng(opts, logo([220, 20, 20]));
    const blue = renderPng(opts, logo([20, 20, 220]));
    const none = renderPng(opts, null);
    expect(Buffer.compare(red1, red2)).toBe(0);
    expect(Buffer.compare(red1, blue)).not.toBe(0);
    expect(Buffer.compare(red1, none)).not.toBe(0);
    // After another logo was drawn, the first still draws as itself.
    expect(Buffer.compare(renderPng(opts, logo([220, 20, 20])), red1)).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------
// 5. Render threads
// ---------------------------------------------------------------------------------------------

/** Nice value of each thread of this process, by thread id (Linux: field 19 of its stat). */
function threadNices(): Map<number, number> {
  const nices = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    // Fields after "pid (comm) ": state is field 3, nice field 19
    nices.set(Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
  }
  return nices;
}

describe('render threads', () => {
  it.runIf(process.platform === 'linux')('run at nice 19 while the thread that asks keeps its priority', async () => {
    const before = threadNices();
    const renderer = createQrRenderer({ threads: 1, perAccountThreads: 1, timeoutMs: 20_000 });
    try {
      const png = await renderer.render('png', withQrDefaults({}, DATA), null, { accountId: 'a' });
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      const after = threadNices();
      const started = [...after].filter(([tid]) => !before.has(tid)).map(([, nice]) => nice);
      expect(started).toContain(19);
      expect(after.get(process.pid)).toBe(before.get(process.pid));
    } finally {
      await renderer.close();
    }
  });
});
