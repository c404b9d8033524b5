/** The margin that gives a design the quiet zone the QR standard asks for. */
import { withQrDefaults, type QrOptions } from '../options.js';
import { computeLayout } from '../render/layout.js';

/**
 * The smallest margin (px) that leaves `modules` modules of plain space around a code of every
 * size (version 1's 21 modules to version 40's 177) at the design's own width, shape and pixel
 * rounding: the renderer's layout is asked, not an estimate. The QR standard asks for 4 modules;
 * the API's default margin, 8 px on 300, leaves 1 to 2.
 */
export function marginFor(options: QrOptions, modules: number): number {
  const resolved = withQrDefaults(options, '');
  const side = Math.min(resolved.width, resolved.height);
  const enough = (margin: number) => {
    for (let count = 21; count <= 177; count += 4) {
      if (count > side) break;
      let layout;
      try {
        layout = computeLayout({ ...resolved, margin }, count, null);
      } catch {
        // A code this big does not fit at this margin whatever the look; the smallest must.
        if (count === 21) return false;
        continue;
      }
      if (Math.min(layout.x0, layout.y0) < modules * layout.dotSize) return false;
    }
    return true;
  };
  for (let margin = 0; margin < side / 2; margin++) if (enough(margin)) return margin;
  return resolved.margin;
}
