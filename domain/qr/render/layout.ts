/**
 * Where everything goes: the same arithmetic as qr-code-styling 1.9.2's QRSVG (read, not
 * copied), so a code drawn here lines up pixel for pixel with the library's.
 *
 * - The drawing area is min(width, height) − 2·margin (the library first clamps margin to
 *   min(width, height)); for `shape: 'circle'` the code itself gets that ÷ √2 so it fits in the
 *   circle, and the corners of the square around it are filled with decoy modules.
 * - The module size is area ÷ modules, rounded down to whole pixels when `dotsOptions.roundSize`
 *   is true (the library's `_roundSize` is `Math.floor`, applied to the module size and to every
 *   offset below); with `roundSize: false` everything stays fractional and the library adds
 *   `shape-rendering="crispEdges"`.
 * - The code is centred: x0 = roundSize((width − count·dot) / 2), y0 likewise.
 * - The logo: `imageSize × errorCorrectionPercent × count²` modules may be covered
 *   (percent: L 7, M 15, Q 25, H 30); the footprint is an odd number of modules per axis, at most
 *   count − 14, with the logo's aspect ratio; see `logoFootprint`.
 */
import type { ResolvedQrOptions } from '../options.js';
import { QrRenderError } from './errors.js';

/** The share of modules each error correction level may lose (the library's table). */
export const COVER: Record<ResolvedQrOptions['qrOptions']['errorCorrectionLevel'], number> = { L: 0.07, M: 0.15, Q: 0.25, H: 0.3 };

export interface LogoBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Layout {
  width: number;
  height: number;
  count: number;
  dotSize: number;
  /** Top-left corner of module (0, 0). */
  x0: number;
  y0: number;
  /** `Math.floor` when roundSize, else identity. */
  snap: (v: number) => number;
  /** Modules hidden behind the logo (rows and columns, centred); 0 when nothing is hidden. */
  hideX: number;
  hideY: number;
  /** Where the logo is drawn, or null when it would have no area. */
  logo: LogoBox | null;
  /** For shape 'circle': decoy modules added on each side of the code. */
  extra: number;
}

export interface NaturalSize {
  width: number;
  height: number;
}

export function computeLayout(opts: ResolvedQrOptions, count: number, logo: NaturalSize | null): Layout {
  const { width, height } = opts;
  const snap = opts.dotsOptions.roundSize ? Math.floor : (v: number) => v;
  const side = Math.min(width, height);
  const margin = Math.min(opts.margin, side);
  const area = side - margin * 2;
  const codeSize = opts.shape === 'circle' ? area / Math.sqrt(2) : area;
  if (count > side) {
    throw new QrRenderError(width <= height ? 'width' : 'height', `Too small for a code of ${count} modules per side`);
  }
  const dotSize = snap(codeSize / count);
  if (!(dotSize > 0)) {
    // The library would draw an empty picture here; nobody wants that printed.
    throw new QrRenderError(
      margin > 0 ? 'margin' : width <= height ? 'width' : 'height',
      `Leaves less than one pixel per module for a code of ${count} modules per side`,
    );
  }
  const x0 = snap((width - count * dotSize) / 2);
  const y0 = snap((height - count * dotSize) / 2);
  const extra = opts.shape === 'circle' ? snap((area / dotSize - count) / 2) : 0;

  let hideX = 0;
  let hideY = 0;
  let box: LogoBox | null = null;
  if (logo) {
    const maxHidden = Math.floor(opts.imageOptions.imageSize * COVER[opts.qrOptions.errorCorrectionLevel] * count * count);
    const fp = logoFootprint(logo.width, logo.height, maxHidden, count - 14, dotSize);
    if (opts.imageOptions.hideBackgroundDots) {
      hideX = fp.hideX;
      hideY = fp.hideY;
    }
    const m = opts.imageOptions.margin;
    const w = fp.width - m * 2;
    const h = fp.height - m * 2;
    if (w > 0 && h > 0) {
      box = {
        x: x0 + snap(m + (count * dotSize - fp.width) / 2),
        y: y0 + snap(m + (count * dotSize - fp.height) / 2),
        width: w,
        height: h,
      };
    }
  }
  return { width, height, count, dotSize, x0, y0, snap, hideX, hideY, logo: box, extra };
}

export interface Footprint {
  width: number;
  height: number;
  hideX: number;
  hideY: number;
}

/**
 * The logo's size in pixels and in hidden modules, with the library's rules: start from the widest
 * odd module count whose area at the logo's aspect ratio stays within `maxHidden`, capped at
 * `maxAxis`; derive the other axis (rounded up to odd); if that overshoots, shrink the other axis
 * by two modules (or cap it) and derive the first axis back from it. One quirk is kept on
 * purpose: when the height hits the cap with an even count, the library decrements the width
 * count, not the height.
 */
export function logoFootprint(naturalWidth: number, naturalHeight: number, maxHidden: number, maxAxis: number, dotSize: number): Footprint {
  if (naturalHeight <= 0 || naturalWidth <= 0 || maxHidden <= 0 || dotSize <= 0) return { width: 0, height: 0, hideX: 0, hideY: 0 };
  const ratio = naturalHeight / naturalWidth;
  let hideX = Math.max(1, Math.floor(Math.sqrt(maxHidden / ratio)));
  if (maxAxis > 0 && hideX > maxAxis) hideX = maxAxis;
  if (hideX % 2 === 0) hideX -= 1;
  let width = hideX * dotSize;
  let hideY = 1 + 2 * Math.ceil((hideX * ratio - 1) / 2);
  let height = Math.round(width * ratio);
  const overAxis = () => maxAxis > 0 && hideY > maxAxis;
  if (hideY * hideX > maxHidden || overAxis()) {
    if (overAxis()) {
      hideY = maxAxis;
      if (hideY % 2 === 0) hideX -= 1;
    } else {
      hideY -= 2;
    }
    height = hideY * dotSize;
    hideX = 1 + 2 * Math.ceil((hideY / ratio - 1) / 2);
    width = Math.round(height / ratio);
  }
  return { width, height, hideX, hideY };
}
