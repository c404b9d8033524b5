/**
 * Module shapes: which outline each dark module gets, and that outline as SVG path data or as a
 * polygon for the rasterizer.
 *
 * qr-code-styling draws one element per module (rect, circle or path, then a rotate() transform).
 * We describe the same outlines once per render with the rotation already applied: a 90° turn maps
 * a module's cell onto itself, so each (shape, rotation) pair is one fixed outline for a given
 * module size. The SVG writer caches it as a relative path string (a module then costs one
 * `M x y` plus that string); the rasterizer caches it as a flattened polygon.
 *
 * Shapes (unit cell, rotation 0; rotation is clockwise on screen, as SVG's rotate()):
 * - SQUARE: the whole cell.                 - CIRCLE: the inscribed disc.
 * - SIDE: flat left half, round right half (radius ½).
 * - CORNER: square with the top-right corner rounded (radius ½).
 * - CORNER_EXTRA: quarter disc of radius 1 centred on the bottom-left corner (top-right round).
 * - CORNERS: square with bottom-left and top-right corners rounded (radius ½).
 * Every outline runs clockwise on screen, so any set of non-overlapping outlines fills correctly
 * as one path under the nonzero rule, and holes (the finder rings) run counter-clockwise.
 *
 * Which shape a module gets depends on its four neighbours, per dot type, as in the library:
 * - square → SQUARE; dots → CIRCLE.
 * - rounded / extra-rounded: no neighbour → CIRCLE; three or four, or two opposite → SQUARE; two
 *   adjacent → CORNER / CORNER_EXTRA with the round corner away from them; one → SIDE with the
 *   round side away from it.
 * - classy / classy-rounded: none → CORNERS turned 90°; no left and no top neighbour → CORNER /
 *   CORNER_EXTRA turned −90° (top-left round); no right and no bottom → the same turned 90°
 *   (bottom-right round); otherwise SQUARE.
 */
import type { DOT_TYPES } from '../options.js';

export type DotType = (typeof DOT_TYPES)[number];

export const SQUARE = 0;
export const CIRCLE = 1;
export const SIDE = 2;
export const CORNER = 3;
export const CORNER_EXTRA = 4;
export const CORNERS = 5;

/** Rotation indices: 0°, 90°, 180°, 270° (= −90°), clockwise. */
const R0 = 0;
const R90 = 1;
const R180 = 2;
const R270 = 3;

/** Shape and rotation packed as shape * 4 + rotation. */
export type Variant = number;
export const VARIANTS = 24;

/** Receives geometry; implemented by the SVG writer and the rasterizer. */
export interface Sink {
  /** A module outline with its cell's top-left corner at (x, y). */
  cell(variant: Variant, x: number, y: number): void;
  /** An axis-aligned rectangle; `hole` runs it counter-clockwise. */
  rect(x: number, y: number, w: number, h: number, hole?: boolean): void;
  circle(cx: number, cy: number, r: number, hole?: boolean): void;
  roundedRect(x: number, y: number, w: number, h: number, r: number, hole?: boolean): void;
}

const L = 0;
const A = 1;
/** [L, x, y]: line to (x, y). [A, x, y, cx, cy, r]: clockwise arc to (x, y) around (cx, cy). */
type Seg = readonly [typeof L, number, number] | readonly [typeof A, number, number, number, number, number];
interface Outline {
  start: readonly [number, number];
  segs: readonly Seg[];
}

/** Our own outlines of the library's figures (unit cell, rotation 0, clockwise). */
const OUTLINES: readonly Outline[] = [
  // SQUARE
  {
    start: [0, 0],
    segs: [
      [L, 1, 0],
      [L, 1, 1],
      [L, 0, 1],
    ],
  },
  // CIRCLE: over the top, then back under the bottom
  {
    start: [0, 0.5],
    segs: [
      [A, 1, 0.5, 0.5, 0.5, 0.5],
      [A, 0, 0.5, 0.5, 0.5, 0.5],
    ],
  },
  // SIDE: left half flat, right half round
  {
    start: [0, 0],
    segs: [
      [L, 0.5, 0],
      [A, 0.5, 1, 0.5, 0.5, 0.5],
      [L, 0, 1],
    ],
  },
  // CORNER: top-right corner round, radius ½
  {
    start: [0, 0],
    segs: [
      [L, 0.5, 0],
      [A, 1, 0.5, 0.5, 0.5, 0.5],
      [L, 1, 1],
      [L, 0, 1],
    ],
  },
  // CORNER_EXTRA: quarter disc around the bottom-left corner
  {
    start: [0, 0],
    segs: [
      [A, 1, 1, 0, 1, 1],
      [L, 0, 1],
    ],
  },
  // CORNERS: top-right and bottom-left round, radius ½
  {
    start: [0, 0],
    segs: [
      [L, 0.5, 0],
      [A, 1, 0.5, 0.5, 0.5, 0.5],
      [L, 1, 1],
      [L, 0.5, 1],
      [A, 0, 0.5, 0.5, 0.5, 0.5],
    ],
  },
];

/** Rounds to 1/1000 px: invisible, and keeps fractional layouts from printing 17 digits. */
export function fmt(v: number): string {
  const r = Math.round(v * 1000) / 1000;
  return r === 0 ? '0' : String(r);
}

function rotate(x: number, y: number, rot: number): [number, number] {
  const dx = x - 0.5;
  const dy = y - 0.5;
  switch (rot) {
    case R90:
      return [0.5 - dy, 0.5 + dx];
    case R180:
      return [0.5 - dx, 0.5 - dy];
    case R270:
      return [0.5 + dy, 0.5 - dx];
    default:
      return [x, y];
  }
}

/**
 * Points along a clockwise (on screen: increasing angle, y down) arc from (x0, y0) to (x1, y1)
 * around (cx, cy), excluding the start, including the end. `tolerance` is the largest distance in
 * pixels between the arc and its chords.
 */
export function flattenArc(
  out: number[],
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  cx: number,
  cy: number,
  r: number,
  tolerance = 0.05,
): void {
  const a0 = Math.atan2(y0 - cy, x0 - cx);
  let a1 = Math.atan2(y1 - cy, x1 - cx);
  while (a1 <= a0 + 1e-9) a1 += 2 * Math.PI;
  const step = r > tolerance ? 2 * Math.acos(1 - tolerance / r) : Math.PI / 2;
  const n = Math.max(1, Math.ceil((a1 - a0) / step));
  for (let i = 1; i < n; i++) {
    const a = a0 + ((a1 - a0) * i) / n;
    out.push(cx + r * Math.cos(a), cy + r * Math.sin(a));
  }
  out.push(x1, y1);
}

/** Outline pieces for every variant at one module size: path strings and flattened polygons. */
export class ShapeSet {
  /** Offset of the starting point from the cell's top-left corner. */
  readonly ox = new Float64Array(VARIANTS);
  readonly oy = new Float64Array(VARIANTS);
  private readonly tails: Array<string | undefined> = new Array(VARIANTS);
  private readonly polys: Array<Float64Array | undefined> = new Array(VARIANTS);

  constructor(readonly size: number) {
    for (let v = 0; v < VARIANTS; v++) {
      const outline = OUTLINES[v >> 2]!;
      const [px, py] = rotate(outline.start[0], outline.start[1], v & 3);
      this.ox[v] = px * size;
      this.oy[v] = py * size;
    }
  }

  /** Relative path data after `M start`, ending with `z`. */
  tail(v: Variant): string {
    let t = this.tails[v];
    if (t === undefined) {
      const size = this.size;
      const outline = OUTLINES[v >> 2]!;
      let [px, py] = rotate(outline.start[0], outline.start[1], v & 3);
      t = '';
      for (const seg of outline.segs) {
        const [x, y] = rotate(seg[1], seg[2], v & 3);
        const dx = fmt((x - px) * size);
        const dy = fmt((y - py) * size);
        if (seg[0] === L) t += dx === '0' ? `v${dy}` : dy === '0' ? `h${dx}` : `l${dx} ${dy}`;
        else {
          const r = fmt(seg[5] * size);
          // Clockwise on screen = sweep-flag 1; none of our arcs exceeds 180°.
          t += `a${r} ${r} 0 0 1 ${dx} ${dy}`;
        }
        px = x;
        py = y;
      }
      t += 'z';
      this.tails[v] = t;
    }
    return t;
  }

  /** Closed polygon (x, y pairs relative to the cell's top-left corner), arcs flattened. */
  polygon(v: Variant): Float64Array {
    let p = this.polys[v];
    if (p === undefined) {
      const size = this.size;
      const outline = OUTLINES[v >> 2]!;
      const rot = v & 3;
      let [px, py] = rotate(outline.start[0], outline.start[1], rot);
      const pts: number[] = [px * size, py * size];
      for (const seg of outline.segs) {
        const [x, y] = rotate(seg[1], seg[2], rot);
        if (seg[0] === L) pts.push(x * size, y * size);
        else {
          const [cx, cy] = rotate(seg[3], seg[4], rot);
          flattenArc(pts, px * size, py * size, x * size, y * size, cx * size, cy * size, seg[5] * size);
        }
        px = x;
        py = y;
      }
      p = Float64Array.from(pts);
      this.polys[v] = p;
    }
    return p;
  }
}

/**
 * The variant for a dark module of `type` with the given neighbours (1 = drawn dark neighbour).
 * Pure function of five small integers; no allocation.
 */
export function variantOf(type: DotType, left: number, right: number, top: number, bottom: number): Variant {
  switch (type) {
    case 'square':
      return SQUARE * 4;
    case 'dots':
      return CIRCLE * 4;
    case 'rounded':
    case 'extra-rounded': {
      const n = left + right + top + bottom;
      if (n === 0) return CIRCLE * 4;
      if (n > 2 || (left && right) || (top && bottom)) return SQUARE * 4;
      if (n === 2) {
        const shape = type === 'rounded' ? CORNER : CORNER_EXTRA;
        // Rotation 0 rounds the top-right corner, i.e. the neighbours are below and left.
        const rot = left && top ? R90 : top && right ? R180 : right && bottom ? R270 : R0;
        return shape * 4 + rot;
      }
      // One neighbour; rotation 0 rounds the right side, i.e. the neighbour is on the left.
      return SIDE * 4 + (top ? R90 : right ? R180 : bottom ? R270 : R0);
    }
    case 'classy':
    case 'classy-rounded': {
      const shape = type === 'classy' ? CORNER : CORNER_EXTRA;
      if (left + right + top + bottom === 0) return CORNERS * 4 + R90;
      if (!left && !top) return shape * 4 + R270;
      if (!right && !bottom) return shape * 4 + R90;
      return SQUARE * 4;
    }
  }
}

/**
 * Sends the modules of `on` (an (n+2)×(n+2) grid with a zero border, 1 = draw) to `sink`. Cell
 * (r, c) of the n×n grid sits at (x0 + c·size, y0 + r·size). Horizontal runs of SQUAREs become one
 * rectangle: the same pixels, fewer segments.
 */
export function drawModules(sink: Sink, on: Uint8Array, n: number, type: DotType, size: number, x0: number, y0: number): void {
  const stride = n + 2;
  for (let r = 0; r < n; r++) {
    const y = y0 + r * size;
    let run = 0; // squares waiting to be emitted, ending at the previous column
    let i = (r + 1) * stride + 1;
    for (let c = 0; c < n; c++, i++) {
      if (!on[i]) {
        if (run) {
          sink.rect(x0 + (c - run) * size, y, run * size, size);
          run = 0;
        }
        continue;
      }
      const v = variantOf(type, on[i - 1]!, on[i + 1]!, on[i - stride]!, on[i + stride]!);
      if (v === SQUARE * 4) {
        run++;
        continue;
      }
      if (run) {
        sink.rect(x0 + (c - run) * size, y, run * size, size);
        run = 0;
      }
      sink.cell(v, x0 + c * size, y);
    }
    if (run) sink.rect(x0 + (n - run) * size, y, run * size, size);
  }
}
