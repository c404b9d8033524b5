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
import { f, framedCodeSide, geometry, type Box } from './frame-geometry.js';

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

function fill(c: Rgba): string {
  const hex = (v: number) => v.toString(16).padStart(2, '0');
  const base = `fill="#${hex(c.r)}${hex(c.g)}${hex(c.b)}"`;
  return c.a < 1 ? `${base} fill-opacity="${Math.round(c.a * 1000) / 1000}"` : base;
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
