/**
 * QR rendering throughput on one core: our native renderer (domain/qr/render) against
 * qr-code-styling 1.9.2's fastest Node pipeline, measured in the same run, in-process, one
 * render at a time.
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
 * renderer remembers a logo's rasterized pixmap by content, so it is drawn by resvg once).
 * Cases: the API contract's default options (300 px) and a gradient + logo style.
 *
 * Figures: renders per second (and ms each) as the median of BENCH_QR_RUNS rounds (default 5);
 * in each round every pipeline of the case runs for about BENCH_QR_MS ms (default 1500) in turn,
 * after one warm-up. "× baseline" is the median over the rounds of ours ÷ the library's rate
 * in the same round, which keeps the ratio steady while other work on the machine comes and goes.
 */
import { Resvg } from '@resvg/resvg-js';
import { withQrDefaults, type QrOptions, type ResolvedQrOptions } from '#domain/qr/options.js';
import { renderPng, renderSvg, type QrImage } from '#domain/qr/render/index.js';
import { makeLogoPng, RESVG_OPTIONS, referenceSvg } from '../test/support/qr-reference.js';
import { median, printTable } from './support.js';

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
        gradient: {
          type: 'linear',
          rotation: Math.PI / 4,
          colorStops: [
            { offset: 0, color: '#1a237e' },
            { offset: 1, color: '#6a1b9a' },
          ],
        },
      },
      cornersSquareOptions: {
        type: 'extra-rounded',
        gradient: {
          type: 'radial',
          colorStops: [
            { offset: 0, color: '#4a148c' },
            { offset: 1, color: '#0d47a1' },
          ],
        },
      },
      cornersDotOptions: { type: 'dot', color: '#311b92' },
      backgroundOptions: {
        gradient: {
          type: 'linear',
          rotation: 0,
          colorStops: [
            { offset: 0, color: '#ffffff' },
            { offset: 1, color: '#e8eaf6' },
          ],
        },
      },
      imageOptions: { hideBackgroundDots: true, imageSize: 0.4, margin: 4 },
    },
    logo: { data: logoPng, contentType: 'image/png', width: 64, height: 64 },
  },
];

type Render = (opts: ResolvedQrOptions, logo: QrImage | null) => unknown;

interface Pipeline {
  output: 'PNG' | 'SVG';
  name: string;
  render: Render;
  /** The qr-code-styling pipeline this one is compared with; none for the baselines themselves. */
  baseline?: Pipeline;
  /** The target: PNG ≥ TARGET× the library. */
  target?: boolean;
}

const libraryPng: Pipeline = {
  output: 'PNG',
  name: 'qr-code-styling SVG (shared jsdom) + resvg',
  render: async (opts, logo) => new Resvg(await referenceSvg(opts, logo), RESVG_OPTIONS).render().asPng(),
};
const librarySvg: Pipeline = {
  output: 'SVG',
  name: 'qr-code-styling SVG (shared jsdom)',
  render: (opts, logo) => referenceSvg(opts, logo),
};
const PIPELINES: Pipeline[] = [
  libraryPng,
  {
    output: 'PNG',
    name: 'ours: renderPng (own encoder, rasterizer, PNG writer)',
    render: (opts, logo) => renderPng(opts, logo),
    baseline: libraryPng,
    target: true,
  },
  {
    output: 'PNG',
    name: 'ours: renderSvg + resvg (not used)',
    render: (opts, logo) => new Resvg(renderSvg(opts, logo), RESVG_OPTIONS).render().asPng(),
    baseline: libraryPng,
  },
  librarySvg,
  { output: 'SVG', name: 'ours: renderSvg', render: (opts, logo) => renderSvg(opts, logo), baseline: librarySvg },
];

/** Renders per second of `pipeline` over about RUN_MS. */
async function rate(c: Case, pipeline: Pipeline): Promise<number> {
  let n = 0;
  const start = performance.now();
  let now = start;
  while (now - start < RUN_MS) {
    const logo = c.logo && { ...c.logo, data: Buffer.from(c.logo.data) };
    await pipeline.render(withQrDefaults(c.options, freshUrl()), logo);
    n++;
    now = performance.now();
  }
  return (n * 1000) / (now - start);
}

/**
 * Every pipeline of a case in turn, RUNS rounds (after a warm-up round of RUN_MS / 3 each), so a
 * pipeline and its baseline are always measured seconds apart: on a shared machine the load
 * drifts, and a ratio of two medians taken minutes apart would carry that drift. Returns the
 * median rate per pipeline and the median of the per-round ratios to the baseline.
 */
async function measureCase(c: Case): Promise<Map<Pipeline, { rate: number; ratio: number }>> {
  for (const p of PIPELINES) {
    const warmUntil = performance.now() + RUN_MS / 3;
    while (performance.now() < warmUntil) await p.render(withQrDefaults(c.options, freshUrl()), c.logo);
  }
  const rounds: Array<Map<Pipeline, number>> = [];
  for (let r = 0; r < RUNS; r++) {
    const round = new Map<Pipeline, number>();
    for (const p of PIPELINES) round.set(p, await rate(c, p));
    rounds.push(round);
  }
  const result = new Map<Pipeline, { rate: number; ratio: number }>();
  for (const p of PIPELINES) {
    const base = p.baseline ?? p;
    result.set(p, {
      rate: median(rounds.map((round) => round.get(p)!)),
      ratio: median(rounds.map((round) => round.get(p)! / round.get(base)!)),
    });
  }
  return result;
}

export async function benchQr(): Promise<string> {
  const rows: Array<Array<string | number>> = [];
  for (const c of CASES) {
    const figures = await measureCase(c);
    for (const p of PIPELINES) {
      const { rate, ratio } = figures.get(p)!;
      rows.push([
        c.name,
        p.output,
        p.name,
        rate.toFixed(0),
        (1000 / rate).toFixed(2),
        p.baseline ? ratio.toFixed(1) : '1.0 (baseline)',
        p.target ? (ratio >= TARGET ? 'yes' : 'NO') : '—',
      ]);
    }
  }
  return printTable(
    `qr: renders per second on one core, 300 px, fresh URL each, median of ${RUNS} interleaved rounds of ${(RUN_MS / 1000).toFixed(1)} s per pipeline`,
    ['case', 'output', 'pipeline', 'renders/s', 'ms each', '× baseline (median of rounds)', `≥ ${TARGET}×`],
    rows,
  );
}
