/**
 * What is drawn, independent of the output format: background, the data modules (plus decoys
 * for a circle), the finder patterns ("corners"), then the logo — the order qr-code-styling 1.9.2
 * paints them in. Where the library paints a full-size rect clipped by a clipPath of per-module
 * elements, we fill the merged outline directly with the same paint: the same pixels are covered.
 * Backends: the SVG writer (svg.ts) and the rasterizer (raster.ts).
 */
import type { ResolvedQrOptions } from '../options.js';
import type { Layout, LogoBox } from './layout.js';
import type { QrMatrix } from './encoder.js';
import { isInvisible, paintOf, type Box, type Paint } from './paint.js';
import { drawModules, type DotType, type Sink } from './shapes.js';

export interface QrImage {
  /** The file's bytes (a Buffer on the server; the console's preview has plain bytes). */
  data: Uint8Array;
  contentType: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp' | 'image/svg+xml';
  /** Natural size of the logo in pixels (for an SVG: its width/height, or its viewBox size). */
  width: number;
  height: number;
}

export interface Backend {
  /** One filled layer: `draw` sends its geometry (nonzero rule) to the sink. */
  fill(paint: Paint, draw: (sink: Sink) => void): void;
  /** The logo, fitted into `box` keeping its aspect ratio (SVG's default xMidYMid meet). */
  image(box: LogoBox, logo: QrImage): void;
}

/** Finder pattern shapes as padded 9×9 grids (zero border), for corners drawn with dot types. */
const FINDER_RING = paddedMask((r, c) => r === 0 || r === 6 || c === 0 || c === 6);
const FINDER_EYE = paddedMask((r, c) => r >= 2 && r <= 4 && c >= 2 && c <= 4);

function paddedMask(test: (r: number, c: number) => boolean): Uint8Array {
  const grid = new Uint8Array(81);
  for (let r = 0; r < 7; r++) for (let c = 0; c < 7; c++) if (test(r, c)) grid[(r + 1) * 9 + c + 1] = 1;
  return grid;
}

/** Corner positions: [column, row, extra gradient rotation] — top-left, top-right, bottom-left. */
const CORNERS: ReadonlyArray<readonly [number, number, number]> = [
  [0, 0, 0],
  [1, 0, Math.PI / 2],
  [0, 1, -Math.PI / 2],
];

export function drawScene(opts: ResolvedQrOptions, matrix: QrMatrix, layout: Layout, logo: QrImage | null, out: Backend): void {
  const { width, height, dotSize: d } = layout;
  const whole: Box = { x: 0, y: 0, width, height };

  // Background: the whole image, or a centred square with rounded corners when `round` > 0
  const bg = opts.backgroundOptions;
  const bgPaint = paintOf(bg, whole, 0, 'backgroundOptions');
  if (!isInvisible(bgPaint)) {
    out.fill(bgPaint, (sink) => {
      let w = width;
      let h = height;
      if (bg.round) w = h = Math.min(width, height);
      const x = layout.snap((width - w) / 2);
      const y = layout.snap((height - h) / 2);
      if (bg.round) sink.roundedRect(x, y, w, h, (h / 2) * bg.round);
      else sink.rect(x, y, w, h);
    });
  }

  // Data modules (and, for a circle, the decoys around them)
  const dots = opts.dotsOptions;
  const dotsPaint = paintOf(dots, whole, 0, 'dotsOptions');
  if (!isInvisible(dotsPaint)) {
    out.fill(dotsPaint, (sink) => {
      drawModules(sink, visibleModules(matrix, layout), matrix.count, dots.type, d, layout.x0, layout.y0);
      if (opts.shape === 'circle') drawDecoys(sink, matrix, layout, dots.type);
    });
  }

  // Finder patterns: the ring ("corner square") and the eye ("corner dot") of each corner
  const cs = opts.cornersSquareOptions;
  const cd = opts.cornersDotOptions;
  const span = d * (matrix.count - 7);
  const at = (col: number, row: number) => [layout.x0 + col * span, layout.y0 + row * span] as const;
  if (!cs.gradient && !cd.gradient) {
    // One layer each for all three: same paint, no overlap, same pixels as three.
    const ringPaint = paintOf(cs, whole, 0, 'cornersSquareOptions');
    const eyePaint = paintOf(cd, whole, 0, 'cornersDotOptions');
    if (!isInvisible(ringPaint)) {
      out.fill(ringPaint, (sink) => {
        for (const [col, row] of CORNERS) drawRing(sink, cs.type, ...at(col, row), d);
      });
    }
    if (!isInvisible(eyePaint)) {
      out.fill(eyePaint, (sink) => {
        for (const [col, row] of CORNERS) drawEye(sink, cd.type, ...at(col, row), d);
      });
    }
  } else {
    for (const [col, row, turn] of CORNERS) {
      const [x, y] = at(col, row);
      const ringPaint = paintOf(cs, { x, y, width: d * 7, height: d * 7 }, turn, 'cornersSquareOptions');
      if (!isInvisible(ringPaint)) out.fill(ringPaint, (sink) => drawRing(sink, cs.type, x, y, d));
      const eyePaint = paintOf(cd, { x: x + d * 2, y: y + d * 2, width: d * 3, height: d * 3 }, turn, 'cornersDotOptions');
      if (!isInvisible(eyePaint)) out.fill(eyePaint, (sink) => drawEye(sink, cd.type, x, y, d));
    }
  }

  if (logo && layout.logo) out.image(layout.logo, logo);
}

/**
 * Dark modules that are drawn as data: not part of a finder pattern (those are the corners'
 * job) and not under the logo when `hideBackgroundDots` is on. Neighbour tests see exactly this
 * set, as in the library. Returns a zero-bordered (count+2)² grid.
 */
function visibleModules(matrix: QrMatrix, layout: Layout): Uint8Array {
  const n = matrix.count;
  const stride = n + 2;
  const on = new Uint8Array(stride * stride);
  const dark = matrix.dark;
  // The library hides rows with (n − hideY)/2 ≤ row < (n + hideY)/2, likewise columns.
  const rowLo = (n - layout.hideY) / 2;
  const rowHi = (n + layout.hideY) / 2;
  const colLo = (n - layout.hideX) / 2;
  const colHi = (n + layout.hideX) / 2;
  for (let r = 0; r < n; r++) {
    const hideRow = r >= rowLo && r < rowHi;
    const top = r < 7;
    const bottom = r >= n - 7;
    let i = r * n;
    let o = (r + 1) * stride + 1;
    for (let c = 0; c < n; c++, i++, o++) {
      if (!dark[i]) continue;
      if ((top || bottom) && c < 7) continue; // top-left and bottom-left finders
      if (top && c >= n - 7) continue; // top-right finder
      if (hideRow && c >= colLo && c < colHi) continue;
      on[o] = 1;
    }
  }
  return on;
}

/**
 * `shape: 'circle'`: the code is shrunk to fit the inscribed circle and the ring of the square
 * around it is filled with decoy modules copied from the code, inside the circle only, leaving a
 * one-module gap around the real code. As in the library the copy is taken transposed
 * (row ↔ column) and decoys only see decoys as neighbours.
 *
 * The library computes the number of decoy modules per side with `_roundSize` and crashes when
 * that is fractional (`roundSize: false`); we always use whole modules, which for
 * `roundSize: true` is the same number.
 */
function drawDecoys(sink: Sink, matrix: QrMatrix, layout: Layout, type: DotType): void {
  const n = matrix.count;
  const extra = Math.floor(layout.extra);
  if (extra <= 0) return;
  const size = n + extra * 2;
  const stride = size + 2;
  const on = new Uint8Array(stride * stride);
  const center = layout.snap(size / 2);
  const pick = (i: number) => (i - 2 * extra < 0 ? i : i >= n ? i - 2 * extra : i - extra);
  for (let r = 0; r < size; r++) {
    for (let c = 0; c < size; c++) {
      if (r >= extra - 1 && r <= size - extra && c >= extra - 1 && c <= size - extra) continue;
      if (Math.sqrt((r - center) * (r - center) + (c - center) * (c - center)) > center) continue;
      if (matrix.dark[pick(c) * n + pick(r)]) on[(r + 1) * stride + c + 1] = 1;
    }
  }
  const d = layout.dotSize;
  drawModules(sink, on, size, type, d, layout.x0 - extra * d, layout.y0 - extra * d);
}

/** The 7×7 finder ring. square, dot and extra-rounded are the library's corner-square figures. */
function drawRing(sink: Sink, type: ResolvedQrOptions['cornersSquareOptions']['type'], x: number, y: number, d: number): void {
  const s = d * 7;
  switch (type) {
    case 'square':
      sink.rect(x, y, s, s);
      sink.rect(x + d, y + d, s - 2 * d, s - 2 * d, true);
      return;
    case 'dot':
      sink.circle(x + s / 2, y + s / 2, s / 2);
      sink.circle(x + s / 2, y + s / 2, s / 2 - d, true);
      return;
    case 'extra-rounded':
      sink.roundedRect(x, y, s, s, 2.5 * d);
      sink.roundedRect(x + d, y + d, 5 * d, 5 * d, 1.5 * d, true);
      return;
    default:
      drawModules(sink, FINDER_RING, 7, type, d, x, y);
  }
}

/** The 3×3 eye inside the ring, at module (2, 2) of the finder. */
function drawEye(sink: Sink, type: ResolvedQrOptions['cornersDotOptions']['type'], x: number, y: number, d: number): void {
  switch (type) {
    case 'square':
      sink.rect(x + 2 * d, y + 2 * d, 3 * d, 3 * d);
      return;
    case 'dot':
      sink.circle(x + 3.5 * d, y + 3.5 * d, 1.5 * d);
      return;
    default:
      drawModules(sink, FINDER_EYE, 7, type, d, x, y);
  }
}
