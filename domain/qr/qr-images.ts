/**
 * QR images as the api serves them: rendered off the event loop and cached in object storage
 * under a hash of everything that decides the picture (options with their data, format, size).
 * A change to any of them is a new key, so the cache is invalidated by content, never by time.
 */
import { createHash } from 'node:crypto';
import type { DomainContext } from '../context.js';
import { z } from 'zod';
import {
  DEFAULT_PRINT_SIZE_MM,
  PRINT_DISTANCE_MAX_MM,
  PRINT_PNG_DPI,
  PRINT_PNG_MAX_MM,
  PRINT_SIZE_MAX_MM,
  PRINT_SIZE_MIN_MM,
} from './print/print-sizes.js';
import { BLEED_MAX_MM, PDF_COLOR_SPACES, type PdfPrint } from './print/pdf.js';
import type { PdfColorSpace } from '#platform/pdf/pdf-document.js';
import {
  FRAME_STYLES,
  frameTextSchema,
  QR_MAX_SIZE,
  QR_MIN_SIZE,
  withQrDefaults,
  type FrameStyle,
  type QrOptions,
  type ResolvedQrOptions,
} from './options.js';
import { assertDrawableFrameText } from './print/frame-text.js';
import { defaultFrameText, frameLanguageOf } from './print/frames.js';
import { loadQrImage } from './image-source.js';
import type { AutoFixRequest, QrFormat } from './render-task.js';
import type { PrintReport, PrintRequest } from './print/print-report.js';
import { makeMatrix } from './render/matrix.js';
import { QrRenderError } from './render/errors.js';
import { ValidationError } from '../errors.js';
import { throttledWarning } from '#platform/logger.js';

/** The picture formats of a code in a ZIP (bulk generation, qr-render jobs). */
export const QR_FORMATS = ['png', 'svg'] as const satisfies readonly QrFormat[];
/** What GET …/qr answers: the ZIP's formats and a print PDF (an addition). */
export const QR_DOWNLOAD_FORMATS = ['png', 'svg', 'pdf'] as const satisfies readonly QrFormat[];
export const CONTENT_TYPES: Record<QrFormat, string> = { png: 'image/png', svg: 'image/svg+xml', pdf: 'application/pdf' };

const cacheReadFailed = throttledWarning('QR image cache read failed; the image is rendered afresh');
const cacheWriteFailed = throttledWarning('QR image cache write failed; the image is served, and rendered again next time');

export type QrImagesContext = Pick<DomainContext, 'db' | 'config' | 'storage' | 'qr' | 'logger'>;

export interface RenderedQr {
  body: Buffer;
  contentType: string;
  /** The cache key's hash; a strong ETag for the picture. */
  etag: string;
  cached: boolean;
}

/** JSON with keys sorted at every level, so equal options always hash alike. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Where a link's (or template's) cached pictures live; deleting the owner deletes this prefix. */
export function qrCachePrefix(accountId: string, owner: string): string {
  return `qr-cache/${accountId}/${owner}/`;
}

export interface QrImageInput {
  accountId: string;
  /** `link-<id>` or `template-<id>`: groups the cache entries for deletion with their owner. */
  owner: string;
  options: QrOptions | Record<string, unknown>;
  data: string;
  format: QrFormat;
  size?: number;
  /** Where option errors are reported, e.g. `qrOptions` → `qrOptions.image`. */
  pathPrefix?: string;
  /** Judge the design at this print size first and draw the smallest change that scans well, if it does not. */
  autoFix?: AutoFixRequest;
  /** The `frame` query: a style overriding the stored frame's, or `none` for no frame. */
  frame?: FrameStyle | 'none';
  /** The `frameText` query: the call to action overriding the stored one. */
  frameText?: string;
  /** The owner's page language (a BCP 47 tag): the default call to action speaks it (English otherwise). */
  language?: string | null;
  /**
   * The printed size (an addition): a PDF at exactly this width, a PNG of it at PRINT_PNG_DPI, an
   * SVG with its width and height in mm. `colorSpace`, `bleedMm` and `cropMarks` are a PDF's only.
   */
  print?: QrPrintInput;
}

export interface QrPrintInput {
  sizeMm: number;
  colorSpace?: PdfColorSpace;
  bleedMm?: number;
  cropMarks?: boolean;
  /** The PDF's title (the link's or template's name). */
  title?: string;
}

export interface QrPlan {
  input: QrImageInput;
  options: ResolvedQrOptions;
  etag: string;
  key: string;
  contentType: string;
  /** What the render thread is given of `input.print`, complete; absent without one. */
  print?: PdfPrint;
}

/** Decides the picture and its cache key without any I/O, so a matching If-None-Match is answered at once. */
export function planQr(input: QrImageInput): QrPlan {
  const options: ResolvedQrOptions = withQrDefaults(input.options, input.data);
  if (input.size) {
    options.width = input.size;
    options.height = input.size;
  }
  applyFrameQuery(options, input);
  const print = printOf(input, options);
  const etag = createHash('sha256')
    .update(canonical({ options, format: input.format, autoFix: input.autoFix, print, v: RENDERER_VERSION }))
    .digest('hex');
  const key = `${qrCachePrefix(input.accountId, input.owner)}${etag}.${input.format}`;
  return { input, options, etag, key, contentType: CONTENT_TYPES[input.format], ...(print && { print }) };
}

/**
 * The print size and options of a render, checked, with defaults: a PDF always has one (its
 * size defaults to DEFAULT_PRINT_SIZE_MM); a PNG at a print size is drawn that many pixels wide
 * (`options` are changed to it) and says its density. Print options asked of a PNG or SVG are
 * refused, not ignored.
 */
function printOf(input: QrImageInput, options: ResolvedQrOptions): PdfPrint | undefined {
  const asked = input.print;
  if (input.format !== 'pdf') {
    const pdfOnly = (['colorSpace', 'bleedMm', 'cropMarks'] as const).find((name) => asked?.[name] !== undefined);
    if (pdfOnly) throw new ValidationError([{ path: pdfOnly, message: 'Only with format=pdf' }]);
  }
  if (!asked && input.format !== 'pdf') return undefined;
  const sizeMm = asked?.sizeMm ?? DEFAULT_PRINT_SIZE_MM;
  if (input.format === 'png') {
    if (sizeMm > PRINT_PNG_MAX_MM) {
      throw new ValidationError([
        { path: 'sizeMm', message: `A PNG at ${PRINT_PNG_DPI} dpi is at most ${PRINT_PNG_MAX_MM} mm wide; ask for format=pdf or svg` },
      ]);
    }
    const width = Math.max(QR_MIN_SIZE, Math.round((sizeMm / 25.4) * PRINT_PNG_DPI));
    options.height = Math.max(QR_MIN_SIZE, Math.min(QR_MAX_SIZE, Math.round((width * options.height) / options.width)));
    options.width = width;
  }
  return {
    sizeMm,
    colorSpace: asked?.colorSpace ?? 'rgb',
    bleedMm: asked?.bleedMm ?? 0,
    cropMarks: asked?.cropMarks ?? false,
    title: asked?.title ?? 'QR code',
  };
}

/**
 * The frame the picture gets: the stored one, overridden by the `frame` and `frameText` queries
 * (a `frameText` alone frames an unframed design with a bottom banner: asking for words means
 * asking for a frame), its text filled with the default in the owner's language. The text is in
 * the options, so the ETag and the cache key cover it; a text the font cannot draw is a 400 here,
 * before any render.
 */
function applyFrameQuery(options: ResolvedQrOptions, input: QrImageInput): void {
  const stored = options.frameOptions;
  delete options.frameOptions;
  if (input.frame === 'none') return;
  const style = input.frame ?? stored?.style ?? (input.frameText === undefined ? undefined : 'bottom-banner');
  if (!style) return;
  const text = input.frameText ?? stored?.text ?? defaultFrameText(style, frameLanguageOf(input.language));
  const prefix = input.pathPrefix ? `${input.pathPrefix}.` : '';
  try {
    assertDrawableFrameText(text, input.frameText === undefined ? `${prefix}frameOptions.text` : 'frameText');
  } catch (err) {
    if (err instanceof QrRenderError) throw new ValidationError([{ path: err.path, message: err.message }]);
    throw err;
  }
  options.frameOptions = { ...stored, style, text };
}

/**
 * The cached picture, or a fresh render (then cached). `maxWaiting` bounds the account's renders
 * waiting for a thread (a 429 past it: the api's requests); bulk jobs leave it out and wait.
 */
export async function renderQrCached(ctx: QrImagesContext, plan: QrPlan, opts: { maxWaiting?: number } = {}): Promise<RenderedQr> {
  const { etag, key, contentType } = plan;
  // A cache that cannot be read costs a render, not the request.
  const hit = await ctx.storage.get(key).catch((err: unknown) => {
    cacheReadFailed(ctx.logger, err, { key });
    return null;
  });
  if (hit) {
    const chunks: Buffer[] = [];
    for await (const chunk of hit.body) chunks.push(chunk as Buffer);
    return { body: Buffer.concat(chunks), contentType, etag, cached: true };
  }
  const rendered = await renderQr(ctx, plan, opts);
  // A failed cache write costs a re-render next time, nothing more; it is logged, not thrown.
  await ctx.storage
    .put(key, rendered.body, { contentType, size: rendered.body.length })
    .catch((err: unknown) => cacheWriteFailed(ctx.logger, err, { key }));
  return rendered;
}

/**
 * A fresh render, not cached. A new bulk batch's codes are rendered so: a cache object costs the fs
 * driver ~7 ms (two files, an fsync, two renames) against ~1 ms for the render itself, so writing
 * 2400 of them tripled a 1200-link ZIP's time, for codes a later GET renders in a millisecond.
 */
export async function renderQr(ctx: QrImagesContext, plan: QrPlan, opts: { maxWaiting?: number } = {}): Promise<RenderedQr> {
  const { input, options, etag, contentType } = plan;
  const prefix = input.pathPrefix ? `${input.pathPrefix}.` : '';
  const image = await loadQrImage(ctx, input.accountId, options.image, { path: `${prefix}image` });
  const call = { accountId: input.accountId, pathPrefix: input.pathPrefix, maxWaiting: opts.maxWaiting };
  const body = (await ctx.qr.renderFixed(input.format, options, image, input.autoFix, call, plan.print)).body;
  return { body, contentType, etag, cached: false };
}

/**
 * The print report of the picture `input` describes (its format and size aside): the gate's
 * verdict at `print.sizeMm`, the figures, and the smallest fix when it does not scan well. Not
 * cached: it is asked while designing, a few times a design, and costs a render thread ~0.1–0.5 s.
 */
export async function reportQr(
  ctx: QrImagesContext,
  input: Omit<QrImageInput, 'format' | 'autoFix' | 'owner'>,
  print: PrintRequest,
  opts: { maxWaiting?: number } = {},
): Promise<PrintReport> {
  const options = withQrDefaults(input.options, input.data);
  if (input.size) options.width = options.height = input.size;
  const prefix = input.pathPrefix ? `${input.pathPrefix}.` : '';
  const image = await loadQrImage(ctx, input.accountId, options.image, { path: `${prefix}image` });
  return ctx.qr.report(options, image, print, { accountId: input.accountId, pathPrefix: input.pathPrefix, maxWaiting: opts.maxWaiting });
}

const PRINT_SIZE_MESSAGE = `Must be a number of millimetres from ${PRINT_SIZE_MIN_MM} to ${PRINT_SIZE_MAX_MM}`;
const DISTANCE_MESSAGE = `Must be a number of millimetres from ${PRINT_SIZE_MIN_MM} to ${PRINT_DISTANCE_MAX_MM}`;

/** A print size in millimetres, from a query string. */
export const sizeMmQuery = z.coerce
  .number({ error: PRINT_SIZE_MESSAGE })
  .min(PRINT_SIZE_MIN_MM, PRINT_SIZE_MESSAGE)
  .max(PRINT_SIZE_MAX_MM, PRINT_SIZE_MESSAGE);
/** A reading distance in millimetres, from a query string. */
export const distanceMmQuery = z.coerce
  .number({ error: DISTANCE_MESSAGE })
  .min(PRINT_SIZE_MIN_MM, DISTANCE_MESSAGE)
  .max(PRINT_DISTANCE_MAX_MM, DISTANCE_MESSAGE);

export const qrImageQuery = z.strictObject({
  format: z.enum(QR_DOWNLOAD_FORMATS, { error: 'Must be png, svg or pdf' }).default('png'),
  size: z.coerce
    .number({ error: `Must be a whole number from ${QR_MIN_SIZE} to ${QR_MAX_SIZE}` })
    .int(`Must be a whole number from ${QR_MIN_SIZE} to ${QR_MAX_SIZE}`)
    .min(QR_MIN_SIZE, `Must be a whole number from ${QR_MIN_SIZE} to ${QR_MAX_SIZE}`)
    .max(QR_MAX_SIZE, `Must be a whole number from ${QR_MIN_SIZE} to ${QR_MAX_SIZE}`)
    .optional(),
  frame: z
    .enum(['none', ...FRAME_STYLES], { error: `Must be one of: none, ${FRAME_STYLES.join(', ')}` })
    .optional()
    .meta({ description: "An addition: a frame with a call to action around the code, overriding the design's (`none`: no frame)" }),
  frameText: frameTextSchema.optional().meta({
    description:
      "An addition: the frame's call to action (at most 40 characters, one line), overriding the design's; " +
      'alone it frames the code with a bottom banner',
  }),
});

const BLEED_MESSAGE = `Must be a number of millimetres from 0 to ${BLEED_MAX_MM}`;

/** `true` or `false` in a query string, as a boolean. */
export const booleanQuery = z.enum(['true', 'false'], { error: 'Must be true or false' }).transform((v) => v === 'true');

/** The print options of GET …/qr beside `sizeMm` (additions): a PDF's colour space, bleed and crop marks. */
export const qrPrintQuery = {
  colorSpace: z
    .enum(PDF_COLOR_SPACES, { error: 'Must be rgb or cmyk' })
    .optional()
    .meta({ description: 'An addition, with format=pdf: DeviceRGB (default) or DeviceCMYK colours (a black code is pure K)' }),
  bleedMm: z.coerce
    .number({ error: BLEED_MESSAGE })
    .min(0, BLEED_MESSAGE)
    .max(BLEED_MAX_MM, BLEED_MESSAGE)
    .optional()
    .meta({ description: "An addition, with format=pdf: bleed on every side, filled with the code's background (BleedBox)" }),
  cropMarks: booleanQuery
    .optional()
    .meta({ description: 'An addition, with format=pdf: crop marks at the trim box corners, in a slug outside the bleed' }),
};

/**
 * Bumped when the renderer's output changes for the same options, so old cached pictures are
 * never served for new code.
 */
export const RENDERER_VERSION = 2;

export async function deleteQrCache(ctx: Pick<DomainContext, 'storage'>, accountId: string, owner: string): Promise<void> {
  const keys: string[] = [];
  for await (const o of ctx.storage.list(qrCachePrefix(accountId, owner))) keys.push(o.key);
  if (keys.length) await ctx.storage.deleteMany(keys);
}

/**
 * Checks that options can encode their data at all (mode, typeNumber, error level), so a link
 * whose code could never be drawn is refused when it is written, not when it is first scanned
 * for. Building the matrix costs about a millisecond and does no drawing.
 */
export function assertEncodable(options: ResolvedQrOptions, pathPrefix: string): void {
  try {
    makeMatrix(options);
    assertFrameDrawable(options, pathPrefix);
  } catch (err) {
    if (err instanceof QrRenderError) throw new ValidationError([{ path: `${pathPrefix}.${err.path}`, message: err.message }]);
    throw err;
  }
}

/** Refuses (400 at `<pathPrefix>.frameOptions.text`) a stored call to action the frame's font cannot draw. */
export function assertFrameDrawable(options: Pick<QrOptions, 'frameOptions'>, pathPrefix: string): void {
  const text = options.frameOptions?.text;
  if (text === undefined) return;
  try {
    assertDrawableFrameText(text, `${pathPrefix}.frameOptions.text`);
  } catch (err) {
    if (err instanceof QrRenderError) throw new ValidationError([{ path: err.path, message: err.message }]);
    throw err;
  }
}
