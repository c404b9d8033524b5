/**
 * The QR designer's mapping between its controls and the stored QR options (the API's
 * `qrOptions`, domain/qr/options.ts), and the in-browser render with the server's own renderer.
 * Controls only ever set members; what a control does not touch stays as it was, so options the
 * designer has no control for (shape, typeNumber, …) survive an edit.
 */
import { parseCssColor } from '#domain/qr/css-color.js';
import {
  QR_DEFAULTS,
  QR_MAX_IMAGE_CHARS,
  qrOptionsSchema,
  withQrDefaults,
  type QrGradient,
  type QrOptions,
  type ResolvedQrOptions,
} from '#domain/qr/options.js';
import { QrRenderError } from '#domain/qr/render/errors.js';
import { computeLayout } from '#domain/qr/render/layout.js';
import { makeMatrix } from '#domain/qr/render/matrix.js';
import type { QrImage } from '#domain/qr/render/scene.js';
import { svgFromMatrix } from '#domain/qr/render/svg-write.js';
import type { FieldErrors } from '../fields/errors.js';
import { scanRisks, type ScanRisk } from '#domain/qr/print/risks.js';

export type { QrOptions };

/** The painted layers a person colours: each has a colour or a gradient. */
export type FillPart = 'dotsOptions' | 'cornersSquareOptions' | 'cornersDotOptions' | 'backgroundOptions';

export type FillMode = 'solid' | 'linear' | 'radial';

/** A fill as its controls show it: a mode, one colour for solid, two colours and an angle in degrees for a gradient. */
export interface FillControls {
  mode: FillMode;
  color: string;
  from: string;
  to: string;
  degrees: number;
}

const resolvedFill = (options: QrOptions, part: FillPart) => withQrDefaults(options, 'x')[part];

/**
 * `<input type="color">` takes only #rrggbb; a stored colour may be any CSS colour. Named and
 * other forms are shown by the nearest hex the renderer paints (colour parsing is shared).
 */
export function hexColor(value: string): string {
  const c = parseCssColor(value);
  if (!c) return '#000000';
  return `#${[c.r, c.g, c.b].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}

export function fillControls(options: QrOptions, part: FillPart): FillControls {
  const fill = resolvedFill(options, part);
  const g = fill.gradient;
  if (!g) return { mode: 'solid', color: fill.color, from: fill.color, to: fill.color, degrees: 0 };
  const stops = g.colorStops;
  return {
    mode: g.type,
    color: fill.color,
    from: stops[0]!.color,
    to: stops[stops.length - 1]!.color,
    degrees: Math.round(((g.rotation ?? 0) * 180) / Math.PI),
  };
}

/** The options with `part` filled as the controls say; a solid fill drops the gradient (the renderer would prefer it). */
export function withFill(options: QrOptions, part: FillPart, controls: FillControls): QrOptions {
  const current = { ...(options[part] ?? {}) };
  delete current.gradient;
  if (controls.mode === 'solid') return { ...options, [part]: { ...current, color: controls.color } };
  const gradient: QrGradient = {
    type: controls.mode,
    rotation: (controls.degrees * Math.PI) / 180,
    colorStops: [
      { offset: 0, color: controls.from },
      { offset: 1, color: controls.to },
    ],
  };
  return { ...options, [part]: { ...current, gradient } };
}

type Section = 'dotsOptions' | 'cornersSquareOptions' | 'cornersDotOptions' | 'backgroundOptions' | 'imageOptions' | 'qrOptions';

/** The options with some members of one section set. */
export function withSection<S extends Section>(options: QrOptions, section: S, patch: NonNullable<QrOptions[S]>): QrOptions {
  return { ...options, [section]: { ...(options[section] ?? {}), ...patch } };
}

/** Stored options (a template's `qr_options`) as the designer's value, or null when they no longer validate. */
export function storedOptions(stored: unknown): QrOptions | null {
  const parsed = qrOptionsSchema.safeParse(stored);
  return parsed.success ? parsed.data : null;
}

/** The options as resolved for drawing (defaults filled in), as the server resolves them. */
export const resolved = (options: QrOptions, data: string): ResolvedQrOptions => withQrDefaults(options, data);

export const DEFAULT_MARGIN = QR_DEFAULTS.margin;

export type Rendered = { ok: true; svg: string; risks: ScanRisk[] } | { ok: false; errors: FieldErrors };

/**
 * The design drawn as the server draws it: the same validation (the API's schema), the same
 * defaults and the same SVG renderer. `size` overrides width and height, as the API's `?size=`
 * does. Errors come keyed by option path, as the API's 400 answers name them.
 */
export function renderDesign(options: QrOptions, data: string, logo: QrImage | null, size?: number): Rendered {
  const parsed = qrOptionsSchema.safeParse(options);
  if (!parsed.success) {
    const errors: Record<string, string> = {};
    for (const issue of parsed.error.issues) errors[issue.path.join('.')] ??= issue.message;
    return { ok: false, errors };
  }
  const opts = withQrDefaults(parsed.data, data);
  if (size) opts.width = opts.height = size;
  try {
    const matrix = makeMatrix(opts);
    const usable = logo && logo.width > 0 && logo.height > 0 ? logo : null;
    const layout = computeLayout(opts, matrix.count, usable);
    return { ok: true, svg: svgFromMatrix(opts, matrix, usable), risks: scanRisks(opts, layout) };
  } catch (err) {
    if (err instanceof QrRenderError) return { ok: false, errors: { [err.path]: err.message } };
    throw err;
  }
}

export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/svg+xml'] as const;
export type LogoType = (typeof LOGO_TYPES)[number];

/** The largest logo file that fits the options' inline limit once base64-encoded (4 characters per 3 bytes). */
export const MAX_LOGO_BYTES = Math.floor(((QR_MAX_IMAGE_CHARS - 64) * 3) / 4);

/** Why a chosen file cannot be a logo, in words; null when it can. */
export function logoFileProblem(file: { type: string; size: number }): string | null {
  if (!(LOGO_TYPES as readonly string[]).includes(file.type)) return 'The logo must be a PNG, JPEG, GIF, WebP or SVG image.';
  if (file.size > MAX_LOGO_BYTES)
    return `The logo is ${(file.size / 1048576).toFixed(1)} MB; at most ${(MAX_LOGO_BYTES / 1048576).toFixed(1)} MB fits. Scale it down or export it smaller.`;
  return null;
}

/** A data: URI's type and bytes (the form the designer stores a logo in), or null for anything else. */
export function decodeDataUri(uri: string): { contentType: LogoType; data: Uint8Array } | null {
  const m = /^data:(image\/[a-z0-9.+-]+);base64,([A-Za-z0-9+/]*={0,2})$/i.exec(uri);
  if (!m || !(LOGO_TYPES as readonly string[]).includes(m[1]!.toLowerCase())) return null;
  const binary = atob(m[2]!);
  const data = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) data[i] = binary.charCodeAt(i);
  return { contentType: m[1]!.toLowerCase() as LogoType, data };
}

export const DOWNLOAD_SIZES = [256, 512, 1024, 2048] as const;
