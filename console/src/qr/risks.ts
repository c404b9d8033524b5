/**
 * Designs that risk not scanning, found before anyone prints them. Pure functions over the
 * resolved options and the render's layout, so the designer's warnings and their unit tests read
 * the same numbers the renderer drew with.
 *
 * Thresholds, measured with the project's renderer and its test decoder (jsQR; zbar too where
 * installed) in test/integration/qr/qr-scan-risks.test.ts:
 * - Contrast: grey dots on white stop decoding at about 2:1 (#bbbbbb, 1.9:1, fails; #aaaaaa,
 *   2.3:1, reads) on a perfect digital image. Print, glare and a phone camera lose contrast, so we
 *   warn below 3:1, WCAG's minimum for non-text graphics, about 1.5× above that edge.
 * - Logo: the error-correction percentages (L 7 %, M 15 %, Q 25 %, H 30 %) are of codewords, and a
 *   logo's edge cuts through codewords it only partly covers. At M and Q a logo at half the level's
 *   capacity reads and one at 60 % does not, so we warn above half.
 * - Light on dark: the decoder fails on an inverted code, as many phone scanners do.
 * - Quiet zone: the standard asks for 4 modules of background around the code. Scanners read with
 *   less when the surface around the code is as light as its background, so this is a note.
 */
import { parseCssColor } from '#domain/qr/css-color.js';
import { contrastRatio, over, relativeLuminance, type Rgba } from '#domain/colour-contrast.js';
import type { QrGradient, ResolvedQrOptions } from '#domain/qr/options.js';
import { COVER, type Layout } from '#domain/qr/render/layout.js';

export interface ScanRisk {
  /** A warning likely stops some phones from reading the code; a note is good practice. */
  level: 'warning' | 'note';
  text: string;
}

export const MIN_CONTRAST = 3;
export const MAX_LOGO_SHARE_OF_RECOVERY = 0.5;
export const QUIET_ZONE_MODULES = 4;

/** What a layer paints with: its gradient's stops, else its colour. */
function colorsOf(fill: { color: string; gradient?: QrGradient }): Rgba[] {
  const values = fill.gradient ? fill.gradient.colorStops.map((s) => s.color) : [fill.color];
  return values.map((v) => parseCssColor(v)).filter((c): c is Rgba => c !== null);
}

const WHITE: Rgba = { r: 255, g: 255, b: 255, a: 1 };

const PARTS = [
  ['dots', 'dotsOptions'],
  ['corner squares', 'cornersSquareOptions'],
  ['corner dots', 'cornersDotOptions'],
] as const;

const ratio = (v: number) => `${Math.floor(v * 10) / 10}:1`;

export function scanRisks(opts: ResolvedQrOptions, layout: Pick<Layout, 'count' | 'dotSize' | 'x0' | 'y0' | 'logo'>): ScanRisk[] {
  const risks: ScanRisk[] = [];
  // A transparent background shows the surface beneath; we assume white paper or screen.
  const backgrounds = colorsOf(opts.backgroundOptions).map((c) => over(c, WHITE));
  let inverted = false;
  for (const [name, key] of PARTS) {
    const raw = colorsOf(opts[key]);
    if (raw.some((c) => c.a < 0.5)) {
      risks.push({
        level: 'warning',
        text: `The ${name} are transparent or nearly so and may not show at all: give them an opaque dark colour.`,
      });
      continue;
    }
    let worst = Infinity;
    for (const fg of raw) {
      for (const bg of backgrounds) {
        const painted = over(fg, bg);
        worst = Math.min(worst, contrastRatio(painted, bg));
        if (relativeLuminance(painted) > relativeLuminance(bg)) inverted = true;
      }
    }
    if (worst < MIN_CONTRAST) {
      risks.push({
        level: 'warning',
        text: `The ${name} contrast ${ratio(worst)} with the background (at least ${MIN_CONTRAST}:1 is safe): make the ${name} darker or the background lighter.`,
      });
    }
  }
  if (inverted) {
    risks.push({
      level: 'warning',
      text: 'The code is lighter than its background: many phone scanners cannot read inverted codes. Use dark dots on a light background.',
    });
  }

  if (layout.logo) {
    const level = opts.qrOptions.errorCorrectionLevel;
    const covered = (layout.logo.width * layout.logo.height) / (layout.dotSize * layout.dotSize) / (layout.count * layout.count);
    const share = covered / COVER[level];
    if (share > MAX_LOGO_SHARE_OF_RECOVERY) {
      const percent = (v: number) => `${Math.round(v * 100)} %`;
      const stronger = level === 'H' ? '' : ' or raise the error correction level';
      risks.push({
        level: 'warning',
        text: `The logo covers ${percent(covered)} of the code, ${percent(share)} of what error correction ${level} can recover (${percent(COVER[level])}); keep it under half: make the logo smaller${stronger}.`,
      });
    }
  }

  const quietZone = Math.min(layout.x0, layout.y0) / layout.dotSize;
  if (quietZone < QUIET_ZONE_MODULES) {
    risks.push({
      level: 'note',
      text: `The space around the code is ${Math.floor(quietZone * 10) / 10} modules wide; the QR standard asks for ${QUIET_ZONE_MODULES}. Print it with room of the background colour around it, or raise the margin.`,
    });
  }
  return risks;
}
