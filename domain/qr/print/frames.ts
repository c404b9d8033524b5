/**
 * Frames with a call to action (decision 0437): eight styles drawn around a rendered code, in
 * SVG, by our own code. The frame takes its colours from the design (the dots' colour, the
 * background), its text is outlined with a bundled font (frame-text.ts), and the picture keeps
 * the design's width: the code shrinks inside the frame, the height follows the style.
 *
 * Every style keeps the code on the design's background with room around it (the code's own
 * margin plus a band of background inside the frame), so a dark frame never touches the modules:
 * the quiet zone the code had is the quiet zone it keeps. All sizes are shares of the picture's
 * width, so a frame looks the same at 200 px and at 4000 px.
 */
import { AA_CONTRAST, contrastRatio, over, textColorOn, type Rgb, type Rgba } from '../../colour-contrast.js';
import { parseCssColor } from '../css-color.js';
import type { FrameOptions, FrameStyle, ResolvedQrOptions } from '../options.js';
import { Resvg } from '@resvg/resvg-js';
import { encodePng } from '../render/png.js';
import { makeSurface, RESVG_OPTIONS } from '../render/raster.js';
import { renderSvg, type QrImage } from '../render/index.js';
import { fitText } from './frame-text.js';

import { defaultFrameText } from './frame-texts.js';
export { FRAME_LANGUAGES, defaultFrameText, frameLanguageOf, type FrameLanguage } from './frame-texts.js';

/** A frame ready to draw: every colour decided. */
export interface ResolvedFrame {
  style: FrameStyle;
  text: string;
  /** The frame's shapes. */
  color: Rgba;
  /** The call to action. */
  textColor: Rgba;
  /** What the frame's open areas are filled with: the design's background. */
  background: Rgba;
}

const WHITE: Rgb = { r: 255, g: 255, b: 255 };
const BLACK: Rgba = { r: 0, g: 0, b: 0, a: 1 };

const blackOrWhiteOn = (c: Rgb): Rgba => (textColorOn(c) === '#fff' ? { ...WHITE, a: 1 } : BLACK);

/** A colour of the design, a gradient read as its first stop; black or white if it does not parse (validated input always does). */
function colourOf(spec: { color: string; gradient?: { colorStops: Array<{ color: string }> } }, fallback: Rgba): Rgba {
  const text = spec.gradient?.colorStops[0]?.color ?? spec.color;
  return parseCssColor(text) ?? fallback;
}

/** Whether the call to action is drawn on the frame's colour (a banner) or on the background (a caption). */
const TEXT_ON_FRAME: Record<FrameStyle, boolean> = {
  'bottom-banner': true,
  'top-banner': true,
  'rounded-badge': true,
  'speech-bubble': true,
  ticket: true,
  phone: false,
  'table-tent': true,
  caption: false,
};

/**
 * The frame of `frame` on `design`: colour from `color` or the dots' colour; text colour from
 * `textColor` or chosen for contrast (black or white on the frame's colour; on the background,
 * the frame's colour when it reads at WCAG AA, else black or white). A transparent background is
 * judged as white paper.
 */
export function resolveFrame(frame: FrameOptions, design: ResolvedQrOptions, fallbackText: string): ResolvedFrame {
  const background = colourOf(design.backgroundOptions, { r: 255, g: 255, b: 255, a: 1 });
  const paper = over(background, WHITE);
  const color = frame.color ? (parseCssColor(frame.color) ?? BLACK) : colourOf(design.dotsOptions, BLACK);
  const onFrame = TEXT_ON_FRAME[frame.style];
  let textColor: Rgba;
  if (frame.textColor) textColor = parseCssColor(frame.textColor) ?? BLACK;
  else if (onFrame) textColor = blackOrWhiteOn(over(color, paper));
  else textColor = contrastRatio(over(color, paper), paper) >= AA_CONTRAST ? color : blackOrWhiteOn(paper);
  return { style: frame.style, text: frame.text ?? fallbackText, color, textColor, background };
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A style's geometry at a picture width: the picture's height, the code's square, the text's band, the shapes. */
interface FrameGeometry {
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
}

const f = (v: number) => String(Math.round(v * 100) / 100);

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
function geometry(style: FrameStyle, w: number): FrameGeometry {
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
      };
    }
  }
}

function fill(c: Rgba): string {
  const hex = (v: number) => v.toString(16).padStart(2, '0');
  const base = `fill="#${hex(c.r)}${hex(c.g)}${hex(c.b)}"`;
  return c.a < 1 ? `${base} fill-opacity="${Math.round(c.a * 1000) / 1000}"` : base;
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

/** `codeSvg`'s root element made a nested <svg> at `box` (its own size and position removed). */
function nest(codeSvg: string, codeWidth: number, codeHeight: number, box: Box): string {
  const body = codeSvg.replace(/^\s*(<\?xml[^>]*\?>\s*)?/, '');
  const root = /^<svg\b([^>]*)>/.exec(body);
  if (!root) throw new Error('The code is not an SVG document');
  let attrs = root[1]!.replace(/\s(width|height|x|y|preserveAspectRatio)="[^"]*"/g, '');
  if (!/\sviewBox=/.test(attrs)) attrs += ` viewBox="0 0 ${codeWidth} ${codeHeight}"`;
  const nested = `<svg x="${f(box.x)}" y="${f(box.y)}" width="${f(box.width)}" height="${f(box.height)}"${attrs}>`;
  return nested + body.slice(root[0].length);
}

/**
 * The code `codeSvg` (its own size `codeWidth` × `codeHeight`) inside `frame`, as one SVG document
 * `design.width` wide. `code` is where the code sits in the framed picture (the print report and
 * the PDF sheets need it). A code that is not square is fitted into the frame's square, centred.
 */
export function framedSvg(
  codeSvg: string,
  codeWidth: number,
  codeHeight: number,
  frame: ResolvedFrame,
  design: ResolvedQrOptions,
): { svg: string; width: number; height: number; code: { x: number; y: number; width: number; height: number } } {
  const width = design.width;
  const g = geometry(frame.style, width);
  const height = Math.round(g.height);
  const scale = Math.min(g.code.width / codeWidth, g.code.height / codeHeight);
  const code = {
    x: g.code.x + (g.code.width - codeWidth * scale) / 2,
    y: g.code.y + (g.code.height - codeHeight * scale) / 2,
    width: codeWidth * scale,
    height: codeHeight * scale,
  };
  const text = fitText(frame.text, g.band, g.capHeight);
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    `<rect width="${width}" height="${height}" ${fill(frame.background)}/>`,
    g.frame && `<path fill-rule="evenodd" d="${g.frame}" ${fill(frame.color)}/>`,
    g.solid && `<path d="${g.solid}" ${fill(frame.color)}/>`,
    g.marks && `<path d="${g.marks}" ${fill(frame.background.a === 0 ? { r: 255, g: 255, b: 255, a: 1 } : frame.background)}/>`,
    nest(codeSvg, codeWidth, codeHeight, code),
    text.d &&
      `<path transform="translate(${f(text.x)} ${f(text.y)}) scale(${Math.round(text.size * 1e4) / 1e6})" d="${text.d}" ${fill(frame.textColor)}/>`,
    '</svg>',
  ];
  return { svg: parts.filter(Boolean).join(''), width, height, code };
}

/**
 * A framed design as the api serves it: the code drawn by our renderer at the size of its place
 * in the frame (whole pixels, so modules stay sharp), inside the frame, `design.width` wide. PNG
 * through resvg: the frame's text is Bézier outlines, which our rasterizer (made for modules)
 * does not draw; unframed PNGs keep the direct path (render/png.ts). `design.frameOptions.text`
 * must already be filled in (qr-images.ts puts the page language's default there).
 */
export function renderFramed(format: 'png' | 'svg', design: ResolvedQrOptions, image: QrImage | null): Buffer {
  const options = design.frameOptions;
  if (!options) throw new Error('renderFramed needs a design with frameOptions');
  const frame = resolveFrame(options, design, defaultFrameText(options.style, 'en'));
  const side = framedCodeSide(options.style, design.width);
  const { frameOptions: _frame, ...codeDesign } = design;
  const codeSvg = renderSvg({ ...codeDesign, width: side, height: side }, image);
  const { svg } = framedSvg(codeSvg, side, side, frame, design);
  if (format === 'svg') return Buffer.from(svg);
  const drawn = new Resvg(svg, { ...RESVG_OPTIONS, fitTo: { mode: 'width', value: design.width } }).render();
  return pngOf(drawn.width, drawn.height, drawn.pixels);
}

/**
 * resvg's pixels (premultiplied RGBA) as a PNG by our encoder (render/png.ts: zlib level 2), RGB
 * when every pixel is opaque. resvg's own `asPng()` took as long as the drawing itself (~21 ms at
 * 1000 px, `npm run bench -- qr-frames`).
 */
function pngOf(width: number, height: number, pixels: Uint8Array): Buffer {
  let opaque = true;
  for (let i = 3; i < pixels.length; i += 4) {
    if (pixels[i] !== 255) {
      opaque = false;
      break;
    }
  }
  const channels = opaque ? 3 : 4;
  const surface = makeSurface(width, height, channels, 1);
  const out = surface.data;
  for (let y = 0, src = 0; y < height; y++) {
    let o = y * surface.rowBytes + 1;
    if (opaque) {
      for (let x = 0; x < width; x++, src += 4, o += 3) {
        out[o] = pixels[src]!;
        out[o + 1] = pixels[src + 1]!;
        out[o + 2] = pixels[src + 2]!;
      }
    } else {
      out.set(pixels.subarray(src, src + width * 4), o);
      src += width * 4;
    }
  }
  return encodePng(surface);
}
