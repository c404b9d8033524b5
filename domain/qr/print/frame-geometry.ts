/**
 * Where each frame style puts things (decision 0437): the picture's height, the code's square, the
 * text's band and the shapes, as shares of the picture's width. Pure arithmetic and path text,
 * apart from frames.ts (which draws with resvg and a font file), so the console's designer and the
 * scan risks can measure a framed code without either.
 */
import type { FrameStyle } from '../options.js';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A style's geometry at a picture width: the picture's height, the code's square, the text's band, the shapes. */
export interface FrameGeometry {
  height: number;
  code: Box;
  band: Box;
  /** Largest cap height of the text. */
  capHeight: number;
  /** Path data in the frame's colour (even-odd: inner outlines are holes). */
  frame: string;
  /** Path data in the frame's colour drawn over it without holes (a pill over the ring, a fold line). */
  solid: string;
  /** Path data in the background's colour, drawn over the frame (slots, perforations). */
  marks: string;
  /**
   * The narrowest band of the design's background between the code's square and anything else:
   * the frame's shapes, its text, or the picture's edge. It adds to the code's own margin.
   */
  clear: number;
}

export const f = (v: number) => String(Math.round(v * 100) / 100);

function rect(b: Box, r = 0): string {
  if (r <= 0) return `M${f(b.x)} ${f(b.y)}h${f(b.width)}v${f(b.height)}h${f(-b.width)}z`;
  const rr = Math.min(r, b.width / 2, b.height / 2);
  const a = (dx: number, dy: number) => `a${f(rr)} ${f(rr)} 0 0 1 ${f(dx)} ${f(dy)}`;
  return (
    `M${f(b.x + rr)} ${f(b.y)}h${f(b.width - 2 * rr)}${a(rr, rr)}v${f(b.height - 2 * rr)}${a(-rr, rr)}` +
    `h${f(-(b.width - 2 * rr))}${a(-rr, -rr)}v${f(-(b.height - 2 * rr))}${a(rr, -rr)}z`
  );
}

/** A rounded box with a half-circle notch cut into each side at `notchY`: a ticket's outline. */
function ticketOutline(b: Box, r: number, notchY: number, n: number): string {
  const right = b.x + b.width;
  const bottom = b.y + b.height;
  return (
    `M${f(b.x + r)} ${f(b.y)}H${f(right - r)}A${f(r)} ${f(r)} 0 0 1 ${f(right)} ${f(b.y + r)}` +
    `V${f(notchY - n)}A${f(n)} ${f(n)} 0 0 0 ${f(right)} ${f(notchY + n)}` +
    `V${f(bottom - r)}A${f(r)} ${f(r)} 0 0 1 ${f(right - r)} ${f(bottom)}H${f(b.x + r)}A${f(r)} ${f(r)} 0 0 1 ${f(b.x)} ${f(bottom - r)}` +
    `V${f(notchY + n)}A${f(n)} ${f(n)} 0 0 0 ${f(b.x)} ${f(notchY - n)}V${f(b.y + r)}A${f(r)} ${f(r)} 0 0 1 ${f(b.x + r)} ${f(b.y)}z`
  );
}

/** Horizontal dashes from x0 to x1 at y, each `dash` long and `thick` high, as rectangles. */
function dashes(x0: number, x1: number, y: number, dash: number, thick: number): string {
  let d = '';
  for (let x = x0; x + dash <= x1 + 0.01; x += 2 * dash) d += rect({ x, y: y - thick / 2, width: dash, height: thick });
  return d;
}

/** Every style at picture width `w` (u is a hundredth of it). */
export function geometry(style: FrameStyle, w: number): FrameGeometry {
  const u = w / 100;
  const border = 4 * u; // a banner frame's edge
  const pad = 3 * u; // background between the frame and the code's own margin
  const inner = w - 2 * border; // the background square the code sits in
  const c = inner - 2 * pad;
  switch (style) {
    case 'bottom-banner': {
      const band = 20 * u;
      const height = border + inner + band;
      return {
        height,
        code: { x: border + pad, y: border + pad, width: c, height: c },
        band: { x: border + 2 * u, y: border + inner, width: w - 2 * border - 4 * u, height: band },
        capHeight: 7 * u,
        frame: rect({ x: 0, y: 0, width: w, height }, 5 * u) + rect({ x: border, y: border, width: inner, height: inner }, 2 * u),
        solid: '',
        marks: '',
        clear: pad,
      };
    }
    case 'top-banner': {
      const band = 20 * u;
      const height = band + inner + border;
      return {
        height,
        code: { x: border + pad, y: band + pad, width: c, height: c },
        band: { x: border + 2 * u, y: 0, width: w - 2 * border - 4 * u, height: band },
        capHeight: 7 * u,
        frame: rect({ x: 0, y: 0, width: w, height }, 5 * u) + rect({ x: border, y: band, width: inner, height: inner }, 2 * u),
        solid: '',
        marks: '',
        clear: pad,
      };
    }
    case 'rounded-badge': {
      // A ring with big round corners, and a pill on its bottom edge that carries the text. The
      // code stays inside the ring's round corners (checked: its corners lie within the arcs).
      const ring = 3 * u;
      const pillH = 16 * u;
      const code = 74 * u;
      const pill = { x: 10 * u, y: w - ring / 2 - pillH / 2, width: 80 * u, height: pillH };
      return {
        height: w - ring / 2 + pillH / 2,
        code: { x: (w - code) / 2, y: 8 * u, width: code, height: code },
        band: { x: pill.x + 5 * u, y: pill.y, width: pill.width - 10 * u, height: pillH },
        capHeight: 6 * u,
        frame:
          rect({ x: 0, y: 0, width: w, height: w }, 18 * u) + rect({ x: ring, y: ring, width: w - 2 * ring, height: w - 2 * ring }, 15 * u),
        solid: rect(pill, pillH / 2),
        marks: '',
        // 5u above the code (the ring's inner edge at 3u, the code at 8u); nearer at the code's top
        // corners, inside the ring's inner arc (centre 18u, 18u; radius 15u).
        clear: Math.min(5 * u, 15 * u - Math.hypot(18 * u - 13 * u, 18 * u - 8 * u)),
      };
    }
    case 'speech-bubble': {
      const bubble = 18 * u;
      const tail = 5 * u;
      const gap = 2 * u;
      const code = w - 2 * pad;
      const top = bubble + tail + gap;
      return {
        height: top + code + pad,
        code: { x: pad, y: top, width: code, height: code },
        band: { x: 6 * u, y: 0, width: w - 12 * u, height: bubble },
        capHeight: 6.5 * u,
        frame:
          rect({ x: 0, y: 0, width: w, height: bubble }, 5 * u) +
          `M${f(w / 2 - 5 * u)} ${f(bubble - 0.5 * u)}L${f(w / 2)} ${f(bubble + tail)}L${f(w / 2 + 5 * u)} ${f(bubble - 0.5 * u)}z`,
        solid: '',
        marks: '',
        clear: gap,
      };
    }
    case 'ticket': {
      const stub = 22 * u;
      const height = border + inner + stub;
      const notchY = border + inner + 1.5 * u;
      return {
        height,
        code: { x: border + pad, y: border + pad, width: c, height: c },
        band: { x: border + 4 * u, y: notchY, width: w - 2 * border - 8 * u, height: height - notchY },
        capHeight: 7 * u,
        frame:
          ticketOutline({ x: 0, y: 0, width: w, height }, 4 * u, notchY, 4 * u) +
          rect({ x: border, y: border, width: inner, height: inner }, 1 * u),
        solid: '',
        marks: dashes(6 * u, w - 6 * u, notchY, 2.5 * u, 0.8 * u),
        clear: pad,
      };
    }
    case 'phone': {
      const side = 5 * u;
      const topBezel = 12 * u;
      const bottomBezel = 11 * u;
      const screenW = w - 2 * side;
      const code = screenW - 2 * pad;
      const band = 16 * u;
      const screenH = pad + code + band;
      const height = topBezel + screenH + bottomBezel;
      return {
        height,
        code: { x: side + pad, y: topBezel + pad, width: code, height: code },
        band: { x: side + 3 * u, y: topBezel + pad + code, width: screenW - 6 * u, height: band },
        capHeight: 6 * u,
        frame: rect({ x: 0, y: 0, width: w, height }, 12 * u) + rect({ x: side, y: topBezel, width: screenW, height: screenH }, 3 * u),
        solid: '',
        // The speaker slot and the home indicator.
        marks:
          rect({ x: w / 2 - 9 * u, y: 5 * u, width: 18 * u, height: 2.4 * u }, 1.2 * u) +
          rect({ x: w / 2 - 14 * u, y: height - bottomBezel / 2 - 1.2 * u, width: 28 * u, height: 2.4 * u }, 1.2 * u),
        clear: pad,
      };
    }
    case 'table-tent': {
      // Printed flat: a fold strip at the top (the dashed line is where the card folds), the
      // heading under it, the code below; a thin outline shows the card's edge.
      const line = 1.2 * u;
      const fold = 9 * u;
      const band = 18 * u;
      const code = w - 2 * line - 2 * pad - 2 * u;
      const top = fold + band;
      const height = top + pad + code + pad + line;
      return {
        height,
        code: { x: (w - code) / 2, y: top + pad, width: code, height: code },
        band: { x: 5 * u, y: fold, width: w - 10 * u, height: band },
        capHeight: 6.5 * u,
        frame:
          rect({ x: 0, y: 0, width: w, height }, 2 * u) +
          rect({ x: line, y: line, width: w - 2 * line, height: fold - line }, 1 * u) +
          rect({ x: line, y: top, width: w - 2 * line, height: height - top - line }, 1 * u),
        solid: dashes(3 * u, w - 3 * u, fold / 2, 2.5 * u, 0.6 * u),
        marks: '',
        clear: pad,
      };
    }
    case 'caption': {
      const band = 16 * u;
      return {
        height: w + band,
        code: { x: 0, y: 0, width: w, height: w },
        band: { x: 4 * u, y: w - 2 * u, width: w - 8 * u, height: band },
        capHeight: 6 * u,
        frame: '',
        solid: '',
        marks: '',
        clear: 0,
      };
    }
  }
}

/**
 * The square, in the framed picture of width `width`, that the code is drawn into: render the
 * code at this size (rounded down) for the sharpest result.
 */
export function frameCodeBox(style: FrameStyle, width: number): Box {
  return geometry(style, width).code;
}

/** The code's side in whole pixels at its place in a frame `width` wide: what it is drawn at. */
export function framedCodeSide(style: FrameStyle, width: number): number {
  return Math.max(1, Math.floor(frameCodeBox(style, width).width));
}

/** A framed picture's height at `width` (it is taller than wide where the frame has a band). */
export function framedHeight(style: FrameStyle, width: number): number {
  return Math.round(geometry(style, width).height);
}
