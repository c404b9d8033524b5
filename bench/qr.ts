/**
 * QR rendering throughput on one core: our native renderer (shared/qr/render) against
 * qr-code-styling 1.9.2's fastest Node pipeline, measured in the same run, in-process and
 * sequentially.
 *
 * - Baseline SVG: `new QRCodeStyling({ jsdom, type: 'svg', ... }).getRawData('svg')` with one
 *   shared JSDOM window (creating a window per code costs more than the code itself).
 * - Baseline PNG: that SVG rasterized by @resvg/resvg-js (`asPng()`); its `url('#id')` references
 *   are unquoted first, which resvg needs (see test/support/qr-reference.ts). The library's own
 *   canvas route (node-canvas) is slower still (~210 ms per code) and not installed here.
 * - Ours: `renderSvg` and `renderPng`, plus our SVG through resvg, the other PNG route the
 *   design allowed, to show why `renderPng` draws its own pixels.
 *
 * Every render gets a fresh short URL, so the code itself cannot be cached between renders; our
 * logo is a fresh Buffer copy of the same bytes each time, as in a bulk job with one logo (the
 * renderer remembers a logo's rasterized pixmap by content, so it is drawn by resvg once). Cases: the spec's default options (300 px) and a gradient +
 * logo style. Figures are renders per second, median of BENCH_QR_RUNS runs (default 5) of about
 * BENCH_QR_MS milliseconds each (default 1500) per pipeline, after a warm-up.
 */
import { Resvg } from '@resvg/resvg-js';
import { withQrDefaults, type QrOptions, type ResolvedQrOptions } from '../shared/qr/options.js';
import { renderPng, renderSvg, type QrImage } from '../shared/qr/render/index.js';
import { makeLogoPng, RESVG_OPTIONS, referenceSvg } from '../test/support/qr-reference.js';
import { printTable } from './support.js';

const RUNS = Number(process.env.BENCH_QR_RUNS ?? 5);
const RUN_MS = Number(process.env.BENCH_QR_MS ?? 1500);
const TARGET = 10;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
let serial = 1_000_000;

/** A new 7-character slug every call, like the service's short URLs. */
function freshUrl(): string {
  let n = serial++ * 7919;
  let slug = '';
  for (let i = 0; i < 7; i++) {
    slug += BASE62[n % 62];
    n = Math.floor(n / 62);
  }
  return `http://localhost:3001/${slug}`;
}

interface Case {
  name: string;
  options: QrOptions;
  logo: QrImage | null;
}

const logoPng = makeLogoPng(64, 64);

const CASES: Case[] = [
  { name: 'default options', options: {}, logo: null },
  {
    name: 'gradient + logo',
    options: {
      qrOptions: { errorCorrectionLevel: 'H' },
      dotsOptions: {
        type: 'rounded',
        gradient: { type: 'linear', rotation: Math.PI / 4, colorStops: [{ offset: 0, color: '#1a237e' }, { offset: 1, color: '#6a1b9a' }] },
      },
      cornersSquareOptions: { type: 'extra-rounded', gradient: { type: 'radial', colorStops: [{ offset: 0, color: '#4a148c' }, { offset: 1, color: '#0d47a1' }] } },
      cornersDotOptions: { type: 'dot', color: '#311b92' },
      backgroundOptions: { gradient: { type: 'linear', rotation: 0, colorStops: [{ offset: 0, color: '#ffffff' }, { offset: 1, color: '#e8eaf6' }] } },
      imageOptions: { hideBackgroundDots: true, imageSize: 0.4, margin: 4 },
    },
    logo: { data: logoPng, contentType: 'image/png', width: 64, height: 64 },
  },
];

type Render = (opts: ResolvedQrOptions, logo: QrImage | null) => unknown;

/** Renders per second: runs `render` for about RUN_MS, RUNS times, and keeps the median. */
async function measure(c: Case, render: Render): Promise<number> {
  const once = async () => {
    const logo = c.logo && { ...c.logo, data: Buffer.from(c.logo.data) };
    await render(withQrDefaults(c.options, freshUrl()), logo);
  };
  const warmUntil = performance.now() + Math.min(500, RUN_MS / 2);
  while (performance.now() < warmUntil) await once();
  const rates: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    let n = 0;
    const start = performance.now();
    let now = start;
    while (now - start < RUN_MS) {
      await once();
      n++;
      now = performance.now();
    }
    rates.push((n * 1000) / (now - start));
  }
  rates.sort((a, b) => a - b);
  return rates[Math.floor(rates.length / 2)]!;
}

const libraryPng: Render = async (opts, logo) => new Resvg(await referenceSvg(opts, logo), RESVG_OPTIONS).render().asPng();
const librarySvg: Render = (opts, logo) => referenceSvg(opts, logo);
const oursPng: Render = (opts, logo) => renderPng(opts, logo);
const oursSvg: Render = (opts, logo) => renderSvg(opts, logo);
const oursSvgResvg: Render = (opts, logo) => new Resvg(renderSvg(opts, logo), RESVG_OPTIONS).render().asPng();

export async function benchQr(): Promise<string> {
  const rows: Array<Array<string | number>> = [];
  for (const c of CASES) {
    const pngBase = await measure(c, libraryPng);
    const png = await measure(c, oursPng);
    const pngViaResvg = await measure(c, oursSvgResvg);
    const svgBase = await measure(c, librarySvg);
    const svg = await measure(c, oursSvg);
    const row = (output: string, pipeline: string, rate: number, base: number, target: boolean) => [
      c.name,
      output,
      pipeline,
      rate.toFixed(0),
      (1000 / rate).toFixed(2),
      base === rate ? '1.0 (baseline)' : (rate / base).toFixed(1),
      target ? (rate / base >= TARGET ? 'yes' : 'NO') : '—',
    ];
    rows.push(row('PNG', 'qr-code-styling SVG (shared jsdom) + resvg', pngBase, pngBase, false));
    rows.push(row('PNG', 'ours: renderPng (own rasterizer + encoder)', png, pngBase, true));
    rows.push(row('PNG', 'ours: renderSvg + resvg (not used)', pngViaResvg, pngBase, false));
    rows.push(row('SVG', 'qr-code-styling SVG (shared jsdom)', svgBase, svgBase, false));
    rows.push(row('SVG', 'ours: renderSvg', svg, svgBase, false));
  }
  return printTable(
    `qr: renders per second on one core, 300 px, fresh URL each, median of ${RUNS} × ${(RUN_MS / 1000).toFixed(1)} s`,
    ['case', 'output', 'pipeline', 'renders/s', 'ms each', '× baseline', `≥ ${TARGET}×`],
    rows,
  );
}
