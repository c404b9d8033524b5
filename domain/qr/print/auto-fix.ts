/**
 * Designs that pass by construction: when a design does not scan well at its print size, the
 * smallest change that does. Changes are tried from the least visible to the most, each added to
 * the ones before, and each candidate is judged by the gate itself (not by a rule of thumb):
 *
 * 1. widen the quiet zone to the 4 modules the QR standard asks for (only the margin moves);
 * 2. clear the modules under the logo (the logo stays as it is; half-hidden modules go);
 * 3. raise the error-correction level, one level at a time up to H (denser, same look);
 * 4. shrink the logo, a fifth at a time, down to a fifth of its asked size;
 * 5. the last resort, when contrast is the fault: the code's parts in black.
 *
 * Each step is one gate (~50 ms), at most ~12 in all; only a failing design pays for them.
 */
import type { QrOptions, ResolvedQrOptions } from '../options.js';
import type { QrImage } from '../render/scene.js';
import { marginFor } from './quiet-zone.js';
import { designFigures, MIN_CONTRAST, QUIET_ZONE_MODULES } from './risks.js';
import { printedPicture, scoreCaptures, type Verdict } from './scannability.js';

export interface DesignChange {
  /** The option changed, as a path into qr_options. */
  path: string;
  from: unknown;
  to: unknown;
  /** The change in words. */
  text: string;
}

export interface DesignFix {
  changes: DesignChange[];
  /** The gate's score and verdict with the changes. */
  score: number;
  verdict: Verdict;
  /** The fixed design, ready to store as qr_options (the changed members only, over the design's own). */
  qrOptionsPatch: QrOptions;
}

const LEVELS = ['L', 'M', 'Q', 'H'] as const;

type Step = (opts: ResolvedQrOptions, image: QrImage | null) => DesignChange | null;

const STEPS: Step[] = [
  (opts) => {
    const fixed = marginFor(opts, QUIET_ZONE_MODULES);
    if (fixed <= opts.margin) return null;
    opts.margin = fixed;
    return { path: 'margin', from: null, to: fixed, text: `Widen the margin to ${fixed} px (${QUIET_ZONE_MODULES} modules of quiet zone)` };
  },
  (opts, image) => {
    if (!image || opts.imageOptions.hideBackgroundDots) return null;
    opts.imageOptions.hideBackgroundDots = true;
    return { path: 'imageOptions.hideBackgroundDots', from: false, to: true, text: 'Clear the modules under the logo' };
  },
  ...[1, 2, 3].map((): Step => (opts, image) => {
    const at = LEVELS.indexOf(opts.qrOptions.errorCorrectionLevel);
    if (!image || at >= LEVELS.length - 1) return null;
    const to = LEVELS[at + 1]!;
    opts.qrOptions.errorCorrectionLevel = to;
    return { path: 'qrOptions.errorCorrectionLevel', from: null, to, text: `Raise error correction to ${to}` };
  }),
  ...[1, 2, 3, 4].map((): Step => (opts, image) => {
    const size = opts.imageOptions.imageSize;
    if (!image || size <= 0.1) return null;
    const to = Math.round(size * 0.8 * 100) / 100;
    opts.imageOptions.imageSize = to;
    return {
      path: 'imageOptions.imageSize',
      from: null,
      to,
      text: `Shrink the logo to ${Math.round(to * 100)} % of the code's recoverable area`,
    };
  }),
  (opts) => {
    const figures = designFigures(opts, { count: 21, dotSize: 1, x0: 0, y0: 0, logo: null });
    if (!figures.inverted && (figures.contrastRatio === null || figures.contrastRatio >= MIN_CONTRAST) && !figures.transparentParts.length)
      return null;
    for (const part of [opts.dotsOptions, opts.cornersSquareOptions, opts.cornersDotOptions]) {
      part.color = '#000000';
      delete part.gradient;
    }
    opts.backgroundOptions.color = '#ffffff';
    delete opts.backgroundOptions.gradient;
    return {
      path: 'dotsOptions.color',
      from: null,
      to: '#000000',
      text: 'Print the code in black on white (its colours do not contrast enough)',
    };
  },
];

/**
 * The smallest change that makes `opts` scan well printed `sizeMm` wide and read from
 * `distanceMm`, or null when even the last step does not.
 */
export async function autoFix(
  opts: ResolvedQrOptions,
  image: QrImage | null,
  sizeMm: number,
  distanceMm: number,
): Promise<DesignFix | null> {
  const candidate = structuredClone(opts);
  const changes: DesignChange[] = [];
  for (const step of STEPS) {
    const before = structuredClone(candidate);
    const change = step(candidate, image);
    if (!change) continue;
    change.from = valueAt(before, change.path);
    // Repeated steps on one option (level, logo size) keep one entry: first value to last.
    const earlier = changes.find((c) => c.path === change.path);
    if (earlier) {
      earlier.to = change.to;
      earlier.text = change.text;
    } else changes.push(change);
    const { picture, layout } = printedPicture(candidate, image, sizeMm);
    const gate = await scoreCaptures(picture, candidate.data, layout.dotSize, distanceMm);
    if (gate.verdict === 'scans-well')
      return { changes, score: gate.score, verdict: gate.verdict, qrOptionsPatch: patchOf(candidate, changes) };
  }
  return null;
}

function valueAt(opts: ResolvedQrOptions, path: string): unknown {
  return path.split('.').reduce<unknown>((v, key) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined), opts);
}

/** The changed members of `fixed`, shaped as qr_options. */
function patchOf(fixed: ResolvedQrOptions, changes: DesignChange[]): QrOptions {
  const patch: Record<string, Record<string, unknown> | unknown> = {};
  for (const { path } of changes) {
    if (path === 'dotsOptions.color') {
      for (const part of ['dotsOptions', 'cornersSquareOptions', 'cornersDotOptions', 'backgroundOptions'] as const) {
        patch[part] = { ...(patch[part] as object), color: fixed[part].color };
      }
      continue;
    }
    const [head, tail] = path.split('.') as [string, string | undefined];
    if (!tail) patch[head] = valueAt(fixed, head);
    else patch[head] = { ...(patch[head] as object), [tail]: valueAt(fixed, path) };
  }
  return patch;
}
