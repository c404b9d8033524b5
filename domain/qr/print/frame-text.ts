/**
 * The call to action of a frame, as outlines (decision 0438): laid out with Inter Bold from
 * @fontsource/inter, so the SVG, the PNG and a PDF need no installed font and look the same
 * everywhere. Inter's subsets together cover Latin (with Vietnamese), Greek and Cyrillic; a
 * character none of them has (emoji, Arabic, Hebrew, CJK, bidi controls) is refused with a 400
 * naming it, rather than drawn as a blank or a box.
 */
import { missingCharacters, outlineText, type OutlineFamily } from '#platform/fonts/outline-text.js';
import { QrRenderError } from '../render/errors.js';

const SUBSETS = ['latin', 'latin-ext', 'cyrillic', 'cyrillic-ext', 'greek', 'greek-ext', 'vietnamese'];

// One literal specifier, so the package is seen as used; its siblings are the other subsets.
const LATIN = import.meta.resolve('@fontsource/inter/files/inter-latin-700-normal.woff2');

/** Inter Bold, every subset @fontsource ships, Latin first (the common case reads one file). */
export const FRAME_FONT: OutlineFamily = {
  files: SUBSETS.map((s) => new URL(`inter-${s}-700-normal.woff2`, LATIN)),
};

/** Inter's cap height is 1490 of 2048 units; the band's text is sized by it. */
const CAP_PER_EM = 1490 / 2048;

/**
 * Refuses a text the font cannot draw. `path` names where the text came from (`frameText`, or
 * `qr_options.frameOptions.text`), for the 400.
 */
export function assertDrawableFrameText(text: string, path: string): void {
  const missing = missingCharacters(FRAME_FONT, text);
  if (missing.length === 0) return;
  const shown = missing.map((ch) => `"${ch}" (U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`).join(', ');
  throw new QrRenderError(
    path,
    `The frame's font cannot draw ${shown}; use Latin, Greek or Cyrillic letters, digits and punctuation (no emoji or right-to-left scripts)`,
  );
}

export interface FittedText {
  /** Path data at em size 100, to be placed with `translate(x, y) scale(size / 100)`: x is the line's left end, y its baseline. */
  d: string;
  x: number;
  y: number;
  size: number;
}

/** Outlines at em size 100 by text: a bulk job draws one call to action on hundreds of codes. */
const outlines = new Map<string, { d: string; width: number }>();
const OUTLINES_KEPT = 64;

function outlineAt100(line: string): { d: string; width: number } {
  let out = outlines.get(line);
  if (out) {
    outlines.delete(line); // re-inserted below: most recently used last
  } else {
    out = outlineText(FRAME_FONT, line, 100);
    if (outlines.size >= OUTLINES_KEPT) outlines.delete(outlines.keys().next().value!);
  }
  outlines.set(line, out);
  return out;
}

/**
 * `text` centred in the band (x, y, width, height): as big as `maxCapHeight` allows, shrunk to the
 * band's width when longer, never clipped. Leading and trailing spaces do not shift the centre.
 */
export function fitText(text: string, band: { x: number; y: number; width: number; height: number }, maxCapHeight: number): FittedText {
  const out = outlineAt100(text.trim());
  const bySize = maxCapHeight / CAP_PER_EM;
  const byWidth = out.width > 0 ? (band.width / out.width) * 100 : bySize;
  const size = Math.min(bySize, byWidth);
  const capHeight = size * CAP_PER_EM;
  return {
    d: out.d,
    x: band.x + (band.width - (out.width * size) / 100) / 2,
    y: band.y + (band.height + capHeight) / 2,
    size,
  };
}
