/**
 * What a frame costs a render, and which PNG route to take (domain/qr/print/frames.ts). In this
 * process, one thread, as a render thread runs it, same run: the unframed PNG and SVG (today's
 * path, the baseline), the framed SVG (code + frame + outlined text) and the framed PNG through
 * resvg, split into resvg's drawing and resvg's own PNG encoding (not used: ours is faster, see frames.ts). Text outlines are remembered per text,
 * as in a bulk job; the first layout of a text costs ~1–2 ms more. Medians of BENCH_RUNS rounds
 * (default 15), after one warm-up of each.
 */
import { Resvg } from '@resvg/resvg-js';
import { FRAME_STYLES, withQrDefaults } from '#domain/qr/options.js';
import { frameCodeBox } from '#domain/qr/print/frame-geometry.js';
import { framedSvg, renderFramed, resolveFrame } from '#domain/qr/print/frames.js';
import { renderPng, renderSvg } from '#domain/qr/render/index.js';
import { RESVG_OPTIONS } from '#domain/qr/render/raster.js';
import { median, printTable } from './support.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const DATA = 'https://qr.example/k7F2qXa?q';

function timed(fn: () => unknown): number {
  fn();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  return median(times);
}

const ms = (v: number) => v.toFixed(2);

export async function benchQrFrames(): Promise<string> {
  const rows: Array<Array<string | number>> = [];
  for (const width of [300, 1000]) {
    const plain = withQrDefaults({ width, height: width }, DATA);
    const png = timed(() => renderPng(plain, null));
    const svg = timed(() => renderSvg(plain, null));
    rows.push([`${width} px`, 'none', ms(svg), ms(png), '–', '–']);
    for (const style of [FRAME_STYLES[0], 'table-tent'] as const) {
      const design = withQrDefaults({ width, height: width, frameOptions: { style, text: 'Scan for the menu' } }, DATA);
      const framedSvgMs = timed(() => renderFramed('svg', design, null));
      const framedPngMs = timed(() => renderFramed('png', design, null));
      const side = Math.floor(frameCodeBox(style, width).width);
      const picture = framedSvg(
        renderSvg({ ...plain, width: side, height: side }, null),
        side,
        side,
        resolveFrame(design.frameOptions!, design, ''),
        design,
      ).svg;
      const draw = timed(() => new Resvg(picture, { ...RESVG_OPTIONS, fitTo: { mode: 'width', value: width } }).render());
      const drawn = new Resvg(picture, { ...RESVG_OPTIONS, fitTo: { mode: 'width', value: width } }).render();
      const encode = timed(() => drawn.asPng());
      rows.push([`${width} px`, style, ms(framedSvgMs), ms(framedPngMs), ms(draw), ms(encode)]);
    }
  }
  return printTable(
    `Framed QR renders, ms each (median of ${RUNS}, one thread)`,
    ['picture', 'frame', 'SVG', 'PNG', 'resvg draw', 'resvg asPng (unused)'],
    rows,
  );
}
