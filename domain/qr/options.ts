/**
 * QR styling options as the API accepts and stores them.
 *
 * The shape follows the `Options` type of the qr-code-styling library (read from v1.9.2), so a
 * stored object can be handed to that library unchanged. Members that only make sense in-process
 * (`nodeCanvas`, `jsdom`: a module and a constructor) are left out because they cannot travel
 * through JSON. Every object is strict: a misspelt member is an error, not a silently ignored
 * wish, since the library would ignore it too and the user would never learn why.
 *
 * Defaults are the API contract's, which differ from the library's own (e.g. its margin is 8,
 * dots are classy-rounded, imageSize is 0.5, hideBackgroundDots is false). Members the contract does
 * not list (shape, roundSize, round, saveAsBlob) default to the library's values.
 */
import { z } from 'zod';
import { isCssColor } from './css-color.js';

export const DRAW_TYPES = ['canvas', 'svg'] as const;
export const SHAPE_TYPES = ['square', 'circle'] as const;
export const MODES = ['Numeric', 'Alphanumeric', 'Byte', 'Kanji'] as const;
export const ERROR_CORRECTION_LEVELS = ['L', 'M', 'Q', 'H'] as const;
export const DOT_TYPES = ['square', 'dots', 'rounded', 'extra-rounded', 'classy', 'classy-rounded'] as const;
// The library's CornerSquareType/CornerDotType include every DotType; it paints those with its dot painter.
export const CORNER_SQUARE_TYPES = ['square', 'dot', 'extra-rounded', 'dots', 'rounded', 'classy', 'classy-rounded'] as const;
export const CORNER_DOT_TYPES = ['square', 'dot', 'dots', 'rounded', 'extra-rounded', 'classy', 'classy-rounded'] as const;
export const GRADIENT_TYPES = ['linear', 'radial'] as const;
export const CROSS_ORIGINS = ['anonymous', 'use-credentials'] as const;
/** Frames with a call to action around the code (an addition; domain/qr/print/frames.ts draws them). */
export const FRAME_STYLES = [
  'bottom-banner',
  'top-banner',
  'rounded-badge',
  'speech-bubble',
  'ticket',
  'phone',
  'table-tent',
  'caption',
] as const;
export type FrameStyle = (typeof FRAME_STYLES)[number];
/** A call to action is a few words; 40 characters still fit a banner at a readable size. */
export const FRAME_TEXT_MAX = 40;

/**
 * Our decision, not the library's (it takes any size): a QR image bigger than 4096 px is a
 * mistake, not a wish. 4096 px already prints sharp at ~35 cm and 300 dpi, and every extra pixel
 * costs render time and memory (a 4096² canvas is 64 MB). 16 is only a floor against nonsense
 * like 0 or 1; it is already too small to scan.
 */
export const QR_MIN_SIZE = 16;
export const QR_MAX_SIZE = 4096;
/** Margins past this only shrink the code to nothing; the library clamps at min(width, height) anyway. */
export const QR_MAX_MARGIN = 1000;
/** Logos are inlined in stored options; a bigger data URI belongs in object storage, not in a row. */
export const QR_MAX_IMAGE_CHARS = 2 * 1024 * 1024;
/** The most a QR code can hold at all (numeric mode, version 40, level L); longer data can never render. */
export const QR_MAX_DATA_CHARS = 7089;

const COLOR_MESSAGE = 'Must be a CSS color or hex';
const IMAGE_MESSAGE = 'Must be null, an http(s) URL or a data:image/...;base64, URI';

const oneOf = (values: readonly string[]) => `Must be one of: ${values.join(', ')}`;

function enumOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: oneOf(values) });
}

/**
 * Every failure of a bounded number gets the same message naming the whole rule, and stops at
 * the first failure so `5000.5` is one error, not "not an integer" plus "too big".
 */
function boundedNumber(min: number, max: number, message: string, integer = false) {
  const base = z.number({ error: message });
  const checked = integer ? base.int({ error: message, abort: true }) : base;
  return checked.min(min, { error: message, abort: true }).max(max, { error: message, abort: true });
}

const booleanSchema = z.boolean({ error: 'Must be true or false' });

const colorSchema = z.string({ error: COLOR_MESSAGE }).refine(isCssColor, { error: COLOR_MESSAGE });

/** Only the type mismatch gets our wording; unknown keys keep zod's, which names the keys. */
function strict<T extends z.core.$ZodLooseShape>(shape: T) {
  return z.strictObject(shape, {
    error: (issue) => (issue.code === 'invalid_type' ? 'Must be an object' : undefined),
  });
}

/** The most color stops one gradient may have. */
export const QR_MAX_COLOR_STOPS = 10;

export const gradientSchema = strict({
  type: enumOf(GRADIENT_TYPES),
  /** Radians, as the library uses it (it adds π/2 steps to it for the corners). */
  rotation: z.number({ error: 'Must be a number (angle in radians)' }).optional(),
  // The library throws "Field 'colorStops' is required in gradient" on an empty list.
  colorStops: z
    .array(
      strict({
        offset: boundedNumber(0, 1, 'Must be a number between 0 and 1'),
        color: colorSchema,
      }),
      { error: 'Must be a list of color stops' },
    )
    .min(1, { error: 'Must have at least one color stop' })
    // Each stop costs every render (6,000 stops took 1.8 s); a design needs a handful.
    .max(QR_MAX_COLOR_STOPS, { error: `Must have at most ${QR_MAX_COLOR_STOPS} color stops` }),
});

function isImageRef(value: string): boolean {
  if (/^data:/i.test(value)) {
    const m = /^data:image\/[a-z0-9][a-z0-9.+-]*;base64,([A-Za-z0-9+/]+)(={0,2})$/i.exec(value);
    if (!m) return false;
    // WHATWG forgiving-base64: padded input must be whole quads; unpadded may not leave 1 char.
    const total = m[1]!.length + m[2]!.length;
    return m[2] ? total % 4 === 0 : total % 4 !== 1;
  }
  // `new URL` silently strips surrounding spaces, tabs and newlines; we store what we validated.
  if (!/^https?:\/\/[^\s\x00-\x1f\x7f]+$/i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const imageSchema = z
  .string({ error: IMAGE_MESSAGE })
  .max(QR_MAX_IMAGE_CHARS, { error: `Must be at most ${QR_MAX_IMAGE_CHARS} characters (2 MiB)`, abort: true })
  .refine(isImageRef, { error: IMAGE_MESSAGE })
  .nullable();

const FRAME_TEXT_MESSAGE = `Must be 1 to ${FRAME_TEXT_MAX} characters, not blank, without control characters`;

/**
 * A frame's call to action. Counted in characters as people see them (code points), so an
 * accented word is not cut short; control characters (line breaks, tabs, NUL, C1) are refused:
 * the frame has one line. Whether the bundled font can draw every character is checked where
 * the text meets the font (frame-text.ts), when a design is stored and when one is drawn.
 */
export const frameTextSchema = z
  .string({ error: FRAME_TEXT_MESSAGE })
  .refine((t) => [...t].length <= FRAME_TEXT_MAX && t.trim() !== '' && !/\p{Cc}/u.test(t), { error: FRAME_TEXT_MESSAGE });

export const frameOptionsSchema = strict({
  style: enumOf(FRAME_STYLES),
  text: frameTextSchema.optional(),
  /** Default: the dots' colour (their gradient's first stop). */
  color: colorSchema.optional(),
  /** Default: black or white, whichever reads better on what the text is drawn on. */
  textColor: colorSchema.optional(),
});

export type FrameOptions = z.infer<typeof frameOptionsSchema>;

const marginSchema = boundedNumber(0, QR_MAX_MARGIN, `Must be a number between 0 and ${QR_MAX_MARGIN}`);
const sizeSchema = boundedNumber(QR_MIN_SIZE, QR_MAX_SIZE, `Must be an integer between ${QR_MIN_SIZE} and ${QR_MAX_SIZE}`, true);

export const qrOptionsSchema = strict({
  width: sizeSchema.optional(),
  height: sizeSchema.optional(),
  type: enumOf(DRAW_TYPES).optional(),
  shape: enumOf(SHAPE_TYPES).optional(),
  data: z
    .string({ error: 'Must be a string' })
    .max(QR_MAX_DATA_CHARS, { error: `Must be at most ${QR_MAX_DATA_CHARS} characters` })
    .optional(),
  image: imageSchema.optional(),
  margin: marginSchema.optional(),
  qrOptions: strict({
    typeNumber: boundedNumber(0, 40, 'Must be an integer between 0 and 40 (0 = auto-size)', true).optional(),
    mode: enumOf(MODES).optional(),
    errorCorrectionLevel: enumOf(ERROR_CORRECTION_LEVELS).optional(),
  }).optional(),
  dotsOptions: strict({
    type: enumOf(DOT_TYPES).optional(),
    color: colorSchema.optional(),
    gradient: gradientSchema.optional(),
    roundSize: booleanSchema.optional(),
  }).optional(),
  cornersSquareOptions: strict({
    type: enumOf(CORNER_SQUARE_TYPES).optional(),
    color: colorSchema.optional(),
    gradient: gradientSchema.optional(),
  }).optional(),
  cornersDotOptions: strict({
    type: enumOf(CORNER_DOT_TYPES).optional(),
    color: colorSchema.optional(),
    gradient: gradientSchema.optional(),
  }).optional(),
  backgroundOptions: strict({
    color: colorSchema.optional(),
    gradient: gradientSchema.optional(),
    // The library sets the background's rx to round × height/2, so 1 is already a full pill/circle.
    round: boundedNumber(0, 1, 'Must be a number between 0 and 1').optional(),
  }).optional(),
  imageOptions: strict({
    hideBackgroundDots: booleanSchema.optional(),
    // 0 is allowed: the library then simply draws no logo.
    imageSize: boundedNumber(0, 1, 'Must be a number between 0 and 1').optional(),
    margin: marginSchema.optional(),
    crossOrigin: enumOf(CROSS_ORIGINS).optional(),
    saveAsBlob: booleanSchema.optional(),
  }).optional(),
  /** An addition to the library's shape: a frame with a call to action around the code. Absent: no frame. */
  frameOptions: frameOptionsSchema.optional(),
});

export type QrOptions = z.infer<typeof qrOptionsSchema>;
export type QrGradient = z.infer<typeof gradientSchema>;

/** Every member present, ready for a renderer; gradients stay optional because they have no default. */
export interface ResolvedQrOptions {
  width: number;
  height: number;
  type: (typeof DRAW_TYPES)[number];
  shape: (typeof SHAPE_TYPES)[number];
  data: string;
  image: string | null;
  margin: number;
  qrOptions: {
    typeNumber: number;
    mode: (typeof MODES)[number];
    errorCorrectionLevel: (typeof ERROR_CORRECTION_LEVELS)[number];
  };
  dotsOptions: { type: (typeof DOT_TYPES)[number]; color: string; roundSize: boolean; gradient?: QrGradient };
  cornersSquareOptions: { type: (typeof CORNER_SQUARE_TYPES)[number]; color: string; gradient?: QrGradient };
  cornersDotOptions: { type: (typeof CORNER_DOT_TYPES)[number]; color: string; gradient?: QrGradient };
  backgroundOptions: { color: string; round: number; gradient?: QrGradient };
  imageOptions: {
    hideBackgroundDots: boolean;
    imageSize: number;
    margin: number;
    crossOrigin: (typeof CROSS_ORIGINS)[number];
    saveAsBlob: boolean;
  };
  /** Absent: no frame. `text` absent: the style's default call to action in English (qr-images.ts fills it in the page's language). */
  frameOptions?: FrameOptions;
}

type DeepReadonly<T> = { readonly [K in keyof T]: T[K] extends object ? DeepReadonly<T[K]> : T[K] };

export type QrDefaults = DeepReadonly<Omit<ResolvedQrOptions, 'data' | 'image'>>;

export const QR_DEFAULTS: QrDefaults = deepFreeze({
  width: 300,
  height: 300,
  type: 'canvas',
  shape: 'square', // not in the contract's table; the library's default
  margin: 8,
  qrOptions: { typeNumber: 0, mode: 'Byte', errorCorrectionLevel: 'Q' },
  dotsOptions: { type: 'classy-rounded', color: 'black', roundSize: true }, // roundSize: library default
  cornersSquareOptions: { type: 'square', color: 'black' },
  cornersDotOptions: { type: 'square', color: 'black' },
  backgroundOptions: { color: 'white', round: 0 }, // round: library default
  imageOptions: {
    hideBackgroundDots: false,
    imageSize: 0.5,
    margin: 0,
    crossOrigin: 'anonymous',
    saveAsBlob: true, // library default
  },
} satisfies Omit<ResolvedQrOptions, 'data' | 'image'>);

/**
 * Fills every member the caller left out with `QR_DEFAULTS` and sets `data` (normally the short
 * URL, which is why a stored `data` is overridden). Returns fresh objects throughout, so the
 * result may be mutated without touching the defaults or `opts`.
 */
export function withQrDefaults(opts: QrOptions, data: string): ResolvedQrOptions {
  const d = QR_DEFAULTS;
  const q = opts.qrOptions ?? {};
  const dots = opts.dotsOptions ?? {};
  const cs = opts.cornersSquareOptions ?? {};
  const cd = opts.cornersDotOptions ?? {};
  const bg = opts.backgroundOptions ?? {};
  const img = opts.imageOptions ?? {};
  // `??` rather than spreads: a parsed `{width: undefined}` must still get the default.
  return {
    width: opts.width ?? d.width,
    height: opts.height ?? d.height,
    type: opts.type ?? d.type,
    shape: opts.shape ?? d.shape,
    data,
    image: opts.image ?? null,
    margin: opts.margin ?? d.margin,
    qrOptions: {
      typeNumber: q.typeNumber ?? d.qrOptions.typeNumber,
      mode: q.mode ?? d.qrOptions.mode,
      errorCorrectionLevel: q.errorCorrectionLevel ?? d.qrOptions.errorCorrectionLevel,
    },
    dotsOptions: {
      type: dots.type ?? d.dotsOptions.type,
      color: dots.color ?? d.dotsOptions.color,
      roundSize: dots.roundSize ?? d.dotsOptions.roundSize,
      ...gradientOf(dots.gradient),
    },
    cornersSquareOptions: {
      type: cs.type ?? d.cornersSquareOptions.type,
      color: cs.color ?? d.cornersSquareOptions.color,
      ...gradientOf(cs.gradient),
    },
    cornersDotOptions: {
      type: cd.type ?? d.cornersDotOptions.type,
      color: cd.color ?? d.cornersDotOptions.color,
      ...gradientOf(cd.gradient),
    },
    backgroundOptions: {
      color: bg.color ?? d.backgroundOptions.color,
      round: bg.round ?? d.backgroundOptions.round,
      ...gradientOf(bg.gradient),
    },
    imageOptions: {
      hideBackgroundDots: img.hideBackgroundDots ?? d.imageOptions.hideBackgroundDots,
      imageSize: img.imageSize ?? d.imageOptions.imageSize,
      margin: img.margin ?? d.imageOptions.margin,
      crossOrigin: img.crossOrigin ?? d.imageOptions.crossOrigin,
      saveAsBlob: img.saveAsBlob ?? d.imageOptions.saveAsBlob,
    },
    ...frameOf(opts.frameOptions),
  };
}

/** No `frameOptions` key at all without a frame, so unframed options hash (ETag) as they always did. */
function frameOf(f: FrameOptions | undefined): { frameOptions?: FrameOptions } {
  if (!f) return {};
  return {
    frameOptions: {
      style: f.style,
      ...(f.text === undefined ? {} : { text: f.text }),
      ...(f.color === undefined ? {} : { color: f.color }),
      ...(f.textColor === undefined ? {} : { textColor: f.textColor }),
    },
  };
}

/** No `gradient` key at all when none was given, so renderers can test `'gradient' in x`. */
function gradientOf(g: QrGradient | undefined): { gradient?: QrGradient } {
  if (!g) return {};
  return {
    gradient: {
      type: g.type,
      ...(g.rotation === undefined ? {} : { rotation: g.rotation }),
      colorStops: g.colorStops.map((s) => ({ offset: s.offset, color: s.color })),
    },
  };
}

function deepFreeze<T extends object>(obj: T): T {
  for (const v of Object.values(obj)) if (v && typeof v === 'object') deepFreeze(v);
  return Object.freeze(obj);
}
