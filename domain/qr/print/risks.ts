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
 *   less when the surface around the code is as light as its background, so this is a note. A
 *   frame's band of background counts (frame-geometry.ts), and the frame itself is what is near.
 */
import { parseCssColor } from '../css-color.js';
import { contrastRatio, over, relativeLuminance, type Rgba } from '../../colour-contrast.js';
import type { QrGradient, ResolvedQrOptions } from '../options.js';
import { COVER, type Layout } from '../render/layout.js';
import { geometry } from './frame-geometry.js';

export interface ScanRisk {
  /** What is wrong, as a stable word a client may act on. */
  code: ScanRiskCode;
  /** A warning likely stops some phones from reading the code; a note is good practice. */
  level: 'warning' | 'note';
  text: string;
}

export type ScanRiskCode = 'TRANSPARENT_MODULES' | 'LOW_CONTRAST' | 'INVERTED' | 'LOGO_TOO_BIG' | 'QUIET_ZONE';

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

/** The figures the risks are judged by, for the print report too. */
export interface DesignFigures {
  /** The lowest contrast of any part with the background (WCAG ratio); null when a part is transparent. */
  contrastRatio: number | null;
  /** Each opaque part's lowest contrast with the background. */
  partContrast: Array<{ part: string; ratio: number }>;
  /** Whether any part is lighter than the background. */
  inverted: boolean;
  /** The parts that are transparent or nearly so. */
  transparentParts: string[];
  /** The share of the code the logo covers, and that share against what the level can recover. */
  logo: { coverage: number; capacity: number; shareOfCapacity: number } | null;
  /** Plain space around the code, in modules. */
  quietZoneModules: number;
  /** Whether that space ends at a frame's shapes or text (printed with the code), not at the picture's edge. */
  framed: boolean;
}

export function designFigures(opts: ResolvedQrOptions, layout: Pick<Layout, 'count' | 'dotSize' | 'x0' | 'y0' | 'logo'>): DesignFigures {
  // A transparent background shows the surface beneath; we assume white paper or screen.
  const backgrounds = colorsOf(opts.backgroundOptions).map((c) => over(c, WHITE));
  let inverted = false;
  const transparentParts: string[] = [];
  const partContrast: DesignFigures['partContrast'] = [];
  for (const [name, key] of PARTS) {
    const raw = colorsOf(opts[key]);
    if (raw.some((c) => c.a < 0.5)) {
      transparentParts.push(name);
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
    if (worst !== Infinity) partContrast.push({ part: name, ratio: worst });
  }
  const worst = Math.min(...partContrast.map((p) => p.ratio));
  let logo: DesignFigures['logo'] = null;
  if (layout.logo) {
    const capacity = COVER[opts.qrOptions.errorCorrectionLevel];
    const coverage = (layout.logo.width * layout.logo.height) / (layout.dotSize * layout.dotSize) / (layout.count * layout.count);
    logo = { coverage, capacity, shareOfCapacity: coverage / capacity };
  }
  const band = frameBandPx(opts);
  return {
    contrastRatio: transparentParts.length || worst === Infinity ? null : worst,
    partContrast,
    inverted,
    transparentParts,
    logo,
    quietZoneModules: (Math.min(layout.x0, layout.y0) + band) / layout.dotSize,
    framed: band > 0,
  };
}

/**
 * The band of background a frame keeps between the code's square and itself, in the code's own
 * pixels (the layout's: the code drawn `opts.width` wide, before the frame shrinks it into place).
 * 0 without a frame, and for a caption, which has no shape around the code, only words under it.
 */
function frameBandPx(opts: ResolvedQrOptions): number {
  if (!opts.frameOptions) return 0;
  const frame = geometry(opts.frameOptions.style, opts.width);
  return (frame.clear * opts.width) / frame.code.width;
}

export function scanRisks(opts: ResolvedQrOptions, layout: Pick<Layout, 'count' | 'dotSize' | 'x0' | 'y0' | 'logo'>): ScanRisk[] {
  const figures = designFigures(opts, layout);
  const risks: ScanRisk[] = [];
  for (const name of figures.transparentParts) {
    risks.push({
      code: 'TRANSPARENT_MODULES',
      level: 'warning',
      text: `The ${name} are transparent or nearly so and may not show at all: give them an opaque dark colour.`,
    });
  }
  for (const { part, ratio: worst } of figures.partContrast) {
    if (worst >= MIN_CONTRAST) continue;
    risks.push({
      code: 'LOW_CONTRAST',
      level: 'warning',
      text: `The ${part} contrast ${ratio(worst)} with the background (at least ${MIN_CONTRAST}:1 is safe): make the ${part} darker or the background lighter.`,
    });
  }
  if (figures.inverted) {
    risks.push({
      code: 'INVERTED',
      level: 'warning',
      text: 'The code is lighter than its background: many phone scanners cannot read inverted codes. Use dark dots on a light background.',
    });
  }
  if (figures.logo && figures.logo.shareOfCapacity > MAX_LOGO_SHARE_OF_RECOVERY) {
    const { coverage, capacity, shareOfCapacity } = figures.logo;
    const level = opts.qrOptions.errorCorrectionLevel;
    const percent = (v: number) => `${Math.round(v * 100)} %`;
    const stronger = level === 'H' ? '' : ' or raise the error correction level';
    risks.push({
      code: 'LOGO_TOO_BIG',
      level: 'warning',
      text: `The logo covers ${percent(coverage)} of the code, ${percent(shareOfCapacity)} of what error correction ${level} can recover (${percent(capacity)}); keep it under half: make the logo smaller${stronger}.`,
    });
  }
  const quietZone = figures.quietZoneModules;
  if (quietZone < QUIET_ZONE_MODULES) {
    const modules = Math.floor(quietZone * 10) / 10;
    risks.push({
      code: 'QUIET_ZONE',
      level: 'note',
      // A frame is printed with the code: only a wider margin moves it away.
      text: figures.framed
        ? `The frame comes within ${modules} modules of the code; the QR standard asks for ${QUIET_ZONE_MODULES}. Raise the margin to keep it farther away.`
        : `The space around the code is ${modules} modules wide; the QR standard asks for ${QUIET_ZONE_MODULES}. Print it with room of the background colour around it, or raise the margin.`,
    });
  }
  return risks;
}
