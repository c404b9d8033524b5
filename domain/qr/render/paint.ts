/**
 * Fills: solid colors and gradients, resolved once from the options into numbers both backends
 * (SVG writer, rasterizer) use.
 *
 * Colors are parsed with the same `parseCssColor` that validated them; the SVG writer emits them
 * as `#rrggbb` plus `fill-opacity` / `stop-opacity` when not opaque, so every CSS form the API
 * accepts (hsl(), modern rgb() syntax, 8-digit hex, `transparent`) paints identically in resvg
 * and browsers.
 *
 * Gradients follow qr-code-styling 1.9.2's `_createColor`: userSpaceOnUse over the painted box
 * (the whole image for dots and background, each 7- or 3-module finder box for corners).
 * - radial: centre of the box, focus at the centre, r = max(width, height) / 2.
 * - linear: the angle is `rotation` (radians, clockwise on screen) plus the corner's own turn
 *   (0; +90° top-right; −90° bottom-left); the line runs through the box centre to the box edges
 *   it meets — left/right for angles within 45° of horizontal, top/bottom otherwise — using
 *   `tan`, and the end points are rounded to whole pixels, as the library does.
 * Stops keep their order; as in SVG, an offset smaller than the one before it counts as equal to
 * it, and the area beyond the ends takes the end colors (spread "pad").
 */
import { parseCssColor, type Rgba } from '../css-color.js';
import type { QrGradient } from '../options.js';
import { QrRenderError } from './errors.js';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Stop {
  offset: number;
  color: Rgba;
}

export type Paint =
  | { kind: 'solid'; color: Rgba }
  | { kind: 'linear'; x1: number; y1: number; x2: number; y2: number; stops: Stop[] }
  | { kind: 'radial'; cx: number; cy: number; r: number; stops: Stop[] };

export function color(value: string, path: string): Rgba {
  const c = parseCssColor(value);
  if (!c) throw new QrRenderError(path, 'Must be a CSS color or hex');
  return c;
}

/** The paint of a layer: its gradient if it has one (the library ignores the color then), else its color. */
export function paintOf(fill: { color: string; gradient?: QrGradient }, box: Box, extraRotation: number, path: string): Paint {
  const g = fill.gradient;
  if (!g) return { kind: 'solid', color: color(fill.color, `${path}.color`) };
  let last = 0;
  const stops = g.colorStops.map((s, i) => {
    last = Math.max(last, Math.min(1, Math.max(0, s.offset)));
    return { offset: last, color: color(s.color, `${path}.gradient.colorStops[${i}].color`) };
  });
  if (g.type === 'radial') {
    return { kind: 'radial', cx: box.x + box.width / 2, cy: box.y + box.height / 2, r: Math.max(box.width, box.height) / 2, stops };
  }
  const [x1, y1, x2, y2] = linearEnds(g.rotation ?? 0, extraRotation, box);
  return { kind: 'linear', x1, y1, x2, y2, stops };
}

/** True when the paint can leave no mark (fully transparent solid color). */
export function isInvisible(p: Paint): boolean {
  return p.kind === 'solid' && p.color.a <= 0;
}

/** The library's end points for a linear gradient (see the header), rounded to whole pixels. */
export function linearEnds(rotation: number, extraRotation: number, box: Box): [number, number, number, number] {
  const TWO_PI = 2 * Math.PI;
  const angle = (rotation + extraRotation) % TWO_PI;
  const turn = (angle + TWO_PI) % TWO_PI;
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  const hw = box.width / 2;
  const hh = box.height / 2;
  let x1 = cx;
  let y1 = cy;
  let x2 = cx;
  let y2 = cy;
  // The library's boundaries, written as it computes them (0.75 * π is not always 3 * (π / 4)).
  if (turn <= 0.25 * Math.PI || (turn > 1.75 * Math.PI && turn <= TWO_PI)) {
    const t = hh * Math.tan(angle);
    x1 -= hw;
    y1 -= t;
    x2 += hw;
    y2 += t;
  } else if (turn <= 0.75 * Math.PI) {
    const t = hw / Math.tan(angle);
    x1 -= t;
    y1 -= hh;
    x2 += t;
    y2 += hh;
  } else if (turn <= 1.25 * Math.PI) {
    const t = hh * Math.tan(angle);
    x1 += hw;
    y1 += t;
    x2 -= hw;
    y2 -= t;
  } else if (turn <= 1.75 * Math.PI) {
    const t = hw / Math.tan(angle);
    x1 += t;
    y1 += hh;
    x2 -= t;
    y2 -= hh;
  }
  return [Math.round(x1), Math.round(y1), Math.round(x2), Math.round(y2)];
}
