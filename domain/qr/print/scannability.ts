/**
 * The scannability gate: a design, printed at a size and read from a distance, is captured the
 * way a phone would (phone-capture.ts: eight captures from a steady hand in good light to a
 * shaking one in a dim cafe) and each capture is given to two independent decoders (jsQR and
 * zxing-cpp). The score is the share of captures both decoders read to the code's own data; the
 * verdict follows from it. Reasons come from the design's own figures (risks.ts) and from the
 * module size the camera sees, so "will fail" always says why.
 */
import { decodeWithJsqr, decodeWithZxing, DECODER_NAMES } from '#platform/barcode/qr-decoders.js';
import type { ResolvedQrOptions } from '../options.js';
import { computeLayout, type Layout } from '../render/layout.js';
import { makeMatrix } from '../render/matrix.js';
import { makeSurface, rasterize, usableLogo } from '../render/raster.js';
import type { QrImage } from '../render/scene.js';
import { frameCodeBox } from './frame-geometry.js';
import { CAPTURES, capturePicture, capturePxPerMm, type PrintedPicture } from './phone-capture.js';

export type Verdict = 'scans-well' | 'risky' | 'will-fail';

/** At least this share of captures read by both decoders: scans well. */
export const SCANS_WELL_SCORE = 7 / 8;
/** At most this share read by either decoder alone: will fail. Between the two: risky. */
export const WILL_FAIL_SCORE = 0;

/** Below this many capture pixels a module, phone decoders stop reading (measured: see the gate's test). */
export const MIN_CAPTURE_PX_PER_MODULE = 2;

/** The print trade's rule: a code reads from at most ten times its own size. */
export const DISTANCE_PER_SIZE = 10;

/**
 * The biggest picture the gate draws, in pixels across: a larger design is drawn smaller for the
 * gate (the camera sees ~260 px of it at most; phone-capture.ts), which keeps a 4096 px design's
 * gate as quick as a 300 px one's.
 */
const GATE_DRAW_MAX_PX = 1024;

export interface CaptureResult {
  name: string;
  zxing: boolean;
  jsqr: boolean;
}

export interface GateResult {
  verdict: Verdict;
  /** Share of captures both decoders read (0–1). */
  score: number;
  captures: CaptureResult[];
  decoders: string[];
  /** Capture pixels a module spans, straight on at the asked distance. */
  capturePxPerModule: number;
}

/**
 * Scans well when both decoders read nearly every capture; will fail when neither decoder, even
 * alone, reads a single one. Anything between is risky: some phones will read it and some will
 * not (zbar, say, reads a #dddddd code on white in good light that neither of ours reads twice).
 */
export function verdictOf(captures: readonly CaptureResult[]): Verdict {
  const share = (read: (c: CaptureResult) => boolean) => captures.filter(read).length / captures.length;
  if (share((c) => c.zxing && c.jsqr) >= SCANS_WELL_SCORE) return 'scans-well';
  return share((c) => c.zxing) <= WILL_FAIL_SCORE && share((c) => c.jsqr) <= WILL_FAIL_SCORE ? 'will-fail' : 'risky';
}

/**
 * The design's code drawn as the printer would print it: gray levels over white paper, and its
 * layout. `widthMm` is the whole printed picture's width; a framed design's code is printed
 * smaller, at its place in the frame, and that is what the camera must read (the frame around it
 * counts as surroundings).
 */
export function printedPicture(
  opts: ResolvedQrOptions,
  image: QrImage | null,
  widthMm: number,
): { picture: PrintedPicture; layout: Layout } {
  if (opts.frameOptions) {
    const { frameOptions, ...code } = opts;
    return printedPicture(code, image, (widthMm * frameCodeBox(frameOptions.style, opts.width).width) / opts.width);
  }
  const drawn = withinDrawLimit(opts);
  const matrix = makeMatrix(drawn);
  let layout: Layout | undefined;
  const surface = rasterize(drawn, matrix, image, (l) => {
    layout = l;
    return makeSurface(l.width, l.height, 4, 0);
  });
  const { width, height, data } = surface;
  const luma = new Uint8Array(width * height);
  for (let i = 0, o = 0; i < luma.length; i++, o += 4) {
    // Premultiplied RGBA over white paper, then Rec. 601 luma (what both decoders compute).
    const cover = 255 - data[o + 3]!;
    luma[i] = (306 * (data[o]! + cover) + 601 * (data[o + 1]! + cover) + 117 * (data[o + 2]! + cover) + 512) >> 10;
  }
  return { picture: { luma, width, height, widthMm }, layout: layout ?? computeLayout(drawn, matrix.count, usableLogo(image)) };
}

/** The design with its pixel sizes scaled down to the gate's drawing limit (same proportions). */
function withinDrawLimit(opts: ResolvedQrOptions): ResolvedQrOptions {
  const biggest = Math.max(opts.width, opts.height);
  if (biggest <= GATE_DRAW_MAX_PX) return opts;
  const k = GATE_DRAW_MAX_PX / biggest;
  return {
    ...opts,
    width: Math.round(opts.width * k),
    height: Math.round(opts.height * k),
    margin: opts.margin * k,
    imageOptions: { ...opts.imageOptions, margin: opts.imageOptions.margin * k },
  };
}

/**
 * Scores `picture` (whose code is `data`, its modules `modulePx` pixels of the picture) read from
 * `distanceMm`: each capture is decoded by both decoders, one capture after another.
 */
export async function scoreCaptures(
  picture: PrintedPicture,
  data: string,
  modulePx: number,
  distanceMm: number,
  captures = CAPTURES,
): Promise<GateResult> {
  const results: CaptureResult[] = [];
  let both = 0;
  for (let i = 0; i < captures.length; i++) {
    const frame = capturePicture(picture, distanceMm, captures[i]!, 0x9e3779b1 + i);
    const zxing = (await decodeWithZxing(frame)) === data;
    const jsqr = decodeWithJsqr(frame) === data;
    if (zxing && jsqr) both++;
    results.push({ name: captures[i]!.name, jsqr, zxing });
  }
  const score = both / captures.length;
  const mm = (picture.widthMm * modulePx) / picture.width;
  return {
    verdict: verdictOf(results),
    score,
    captures: results,
    decoders: [...DECODER_NAMES],
    capturePxPerModule: mm * capturePxPerMm(distanceMm),
  };
}

/** The gate for a design printed `widthMm` wide and read from `distanceMm`. */
export async function gateDesign(opts: ResolvedQrOptions, image: QrImage | null, widthMm: number, distanceMm: number): Promise<GateResult> {
  const { picture, layout } = printedPicture(opts, image, widthMm);
  return scoreCaptures(picture, opts.data, layout.dotSize, distanceMm);
}
