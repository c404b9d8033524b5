/**
 * The designer's ready-made choices: named looks applied in one click, the design a new code
 * starts from, the colour swatches, and the small drawn samples of each dot and corner style.
 * Every look and the default pass every check in risks.ts (test/unit/console/console-qr.unit.test.ts holds
 * them to it for codes of every size), so a person who only clicks gets a code that scans.
 */
import { CORNER_DOT_TYPES, CORNER_SQUARE_TYPES, DOT_TYPES, withQrDefaults, type QrOptions } from '#domain/qr/options.js';
import { marginFor } from '#domain/qr/print/quiet-zone.js';
import { computeLayout } from '#domain/qr/render/layout.js';
import { makeMatrix } from '#domain/qr/render/matrix.js';
import { svgFromMatrix } from '#domain/qr/render/svg-write.js';
import { hexColor, storedOptions } from './design.js';

type Part = 'dotsOptions' | 'cornersSquareOptions' | 'cornersDotOptions';
type Styled<T extends readonly string[]> = { type: T[number]; color: string };

export interface Look {
  name: string;
  /** What it is for, in a few words (shown under its name). */
  purpose: string;
  dotsOptions: Styled<typeof DOT_TYPES>;
  cornersSquareOptions: Styled<typeof CORNER_SQUARE_TYPES>;
  cornersDotOptions: Styled<typeof CORNER_DOT_TYPES>;
  background: string;
  /** Modules of plain space around the code. */
  quietZone: number;
  /** The error correction level the look asks for; absent: the design's own is kept. */
  errorCorrectionLevel?: 'H';
}

export const LOOKS: readonly Look[] = [
  {
    name: 'Classic',
    purpose: 'Square modules, black on white',
    dotsOptions: { type: 'square', color: '#000000' },
    cornersSquareOptions: { type: 'square', color: '#000000' },
    cornersDotOptions: { type: 'square', color: '#000000' },
    background: '#ffffff',
    quietZone: 4,
  },
  {
    name: 'Rounded',
    purpose: 'Soft corners, friendly',
    dotsOptions: { type: 'rounded', color: '#111827' },
    cornersSquareOptions: { type: 'extra-rounded', color: '#111827' },
    cornersDotOptions: { type: 'dot', color: '#111827' },
    background: '#ffffff',
    quietZone: 4,
  },
  {
    name: 'Dots',
    purpose: 'Round dots and eyes',
    dotsOptions: { type: 'dots', color: '#111827' },
    cornersSquareOptions: { type: 'extra-rounded', color: '#111827' },
    cornersDotOptions: { type: 'dot', color: '#111827' },
    background: '#ffffff',
    quietZone: 4,
  },
  {
    name: 'Brand colour',
    purpose: 'A deep colour on cream',
    dotsOptions: { type: 'classy-rounded', color: '#1e3a8a' },
    cornersSquareOptions: { type: 'extra-rounded', color: '#1e3a8a' },
    cornersDotOptions: { type: 'dot', color: '#1e3a8a' },
    background: '#fdf6e3',
    quietZone: 4,
  },
  {
    name: 'High contrast for print',
    purpose: 'Pure black on white, most damage-proof',
    dotsOptions: { type: 'square', color: '#000000' },
    cornersSquareOptions: { type: 'square', color: '#000000' },
    cornersDotOptions: { type: 'square', color: '#000000' },
    background: '#ffffff',
    quietZone: 6,
    errorCorrectionLevel: 'H',
  },
];

/**
 * The design with `look` applied: its styles, colours (solid: a gradient is dropped), background
 * and margin. What a look does not decide stays: the logo and its options, the size, the version
 * and encoding, and the error correction level (raised to H by the print look).
 */
export function withLook(options: QrOptions, look: Look): QrOptions {
  const next: QrOptions = {
    ...options,
    margin: marginFor(options, look.quietZone),
    dotsOptions: { ...look.dotsOptions },
    cornersSquareOptions: { ...look.cornersSquareOptions },
    cornersDotOptions: { ...look.cornersDotOptions },
    backgroundOptions: { color: look.background },
  };
  if (options.dotsOptions?.roundSize !== undefined) next.dotsOptions!.roundSize = options.dotsOptions.roundSize;
  if (options.backgroundOptions?.round !== undefined) next.backgroundOptions!.round = options.backgroundOptions.round;
  if (look.errorCorrectionLevel) next.qrOptions = { ...options.qrOptions, errorCorrectionLevel: look.errorCorrectionLevel };
  return next;
}

/** Whether the design is the look as applied (and not changed since in anything the look sets). */
export function hasLook(options: QrOptions, look: Look): boolean {
  const o = withQrDefaults(options, '');
  const same = (part: Part) =>
    !o[part].gradient && o[part].type === look[part].type && hexColor(o[part].color) === hexColor(look[part].color);
  return (
    same('dotsOptions') &&
    same('cornersSquareOptions') &&
    same('cornersDotOptions') &&
    !o.backgroundOptions.gradient &&
    hexColor(o.backgroundOptions.color) === hexColor(look.background) &&
    o.margin === marginFor(options, look.quietZone) &&
    (!look.errorCorrectionLevel || o.qrOptions.errorCorrectionLevel === look.errorCorrectionLevel)
  );
}

/** The design a new link or template starts from: the Classic look, which raises no scan risk. */
export const DEFAULT_DESIGN: QrOptions = withLook({}, LOOKS[0]!);

/**
 * The designer's value for what holds a design (a link, a template): its stored options, the API's
 * defaults when they no longer validate, and for a code not made yet (null) the default design.
 */
export const designOf = (holder: { qr_options: unknown } | null): QrOptions =>
  holder ? (storedOptions(holder.qr_options) ?? {}) : DEFAULT_DESIGN;

/** Swatches for the code (dots and corners together): at least 4.5:1 on every background swatch, half as much again as the check asks. */
export const CODE_COLOURS: ReadonlyArray<readonly [name: string, hex: string]> = [
  ['Black', '#000000'],
  ['Charcoal', '#1f2937'],
  ['Navy', '#1e3a8a'],
  ['Royal blue', '#1d4ed8'],
  ['Forest green', '#14532d'],
  ['Teal', '#134e4a'],
  ['Burgundy', '#7f1d1d'],
  ['Plum', '#581c87'],
  ['Coffee', '#422006'],
];

/** Swatches for the background: light enough under every code swatch. */
export const BACKGROUND_COLOURS: ReadonlyArray<readonly [name: string, hex: string]> = [
  ['White', '#ffffff'],
  ['Cream', '#fdf6e3'],
  ['Light grey', '#f3f4f6'],
  ['Mint', '#ecfdf5'],
  ['Sky', '#eff6ff'],
  ['Blush', '#fff1f2'],
];

/** The code's one colour when dots and both corners share a solid colour (as #rrggbb), else null. */
export function codeColour(options: QrOptions): string | null {
  const o = withQrDefaults(options, '');
  const parts = [o.dotsOptions, o.cornersSquareOptions, o.cornersDotOptions];
  if (parts.some((p) => p.gradient)) return null;
  const colours = new Set(parts.map((p) => hexColor(p.color)));
  return colours.size === 1 ? [...colours][0]! : null;
}

/** The design with dots and both corners in one solid colour. */
export function withCodeColour(options: QrOptions, color: string): QrOptions {
  const solid = <T extends { color?: string; gradient?: unknown }>(part: T | undefined): T => {
    const { gradient: _, ...rest } = part ?? ({} as T);
    return { ...rest, color } as T;
  };
  return {
    ...options,
    dotsOptions: solid(options.dotsOptions),
    cornersSquareOptions: solid(options.cornersSquareOptions),
    cornersDotOptions: solid(options.cornersDotOptions),
  };
}

/** The background's solid colour (as #rrggbb), or null for a gradient. */
export function backgroundColour(options: QrOptions): string | null {
  const bg = withQrDefaults(options, '').backgroundOptions;
  return bg.gradient ? null : hexColor(bg.color);
}

export function withBackgroundColour(options: QrOptions, color: string): QrOptions {
  const { gradient: _, ...rest } = options.backgroundOptions ?? {};
  return { ...options, backgroundOptions: { ...rest, color } };
}

/** Names people read for the option values (`extra-rounded` → Extra rounded). */
export const styleName = (type: string) => type[0]!.toUpperCase() + type.slice(1).replace(/-/g, ' ');

/** The part a style sample shows; the rest of it is drawn faint. */
export type SamplePart = Part;

const SAMPLE_DATA = 'qrlinks';
const SUBJECT = '#000000';
const CONTEXT = '#808080';

/**
 * A small SVG of what one style looks like, drawn by the renderer itself and cropped: a patch of
 * modules for a dot style, the top-left finder for a corner style (the other corner part faint).
 * Drawn in `currentColor`, so it follows the console's theme; the caller inlines it.
 */
export function styleSample(part: SamplePart, type: string): string {
  const options: QrOptions = {
    width: 210,
    height: 210,
    margin: 0,
    qrOptions: { errorCorrectionLevel: 'L' },
    dotsOptions: { type: 'square', color: CONTEXT },
    cornersSquareOptions: { type: 'square', color: CONTEXT },
    cornersDotOptions: { type: 'square', color: CONTEXT },
    backgroundOptions: { color: 'transparent' },
    [part]: { type, color: SUBJECT },
  };
  const opts = withQrDefaults(options, SAMPLE_DATA);
  const matrix = makeMatrix(opts);
  const { dotSize, x0, y0 } = computeLayout(opts, matrix.count, null);
  // Modules 8 to 15 hold data in every version; the finder is modules 0 to 6.
  const [first, span] = part === 'dotsOptions' ? [8, 6] : [0, 7];
  const pad = dotSize / 2;
  const box = `${x0 + first * dotSize - pad} ${y0 + first * dotSize - pad} ${span * dotSize + 2 * pad} ${span * dotSize + 2 * pad}`;
  return svgFromMatrix(opts, matrix, null)
    .replace(/ width="\d+" height="\d+" viewBox="[^"]*"/, ` viewBox="${box}" aria-hidden="true" focusable="false"`)
    .replaceAll(`fill="${SUBJECT}"`, 'fill="currentColor"')
    .replaceAll(`fill="${CONTEXT}"`, 'fill="currentColor" fill-opacity="0.3"');
}
