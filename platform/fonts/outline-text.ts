/**
 * Text as outlines: a line of text laid out with a font file (fontkit: kerning and ligatures of
 * the font's own tables) and written as SVG path data, so whatever draws the result (a browser,
 * resvg, a PDF writer) needs no font installed and shows the same letters everywhere.
 *
 * A family may come as several files, each covering part of Unicode (the subsets of an
 * @fontsource package): every character is drawn by the first file that has it, runs of
 * characters from the same file are laid out together. Files are read and parsed on first use
 * and kept for the life of the process (each thread of a render pool has its own).
 */
import { readFileSync } from 'node:fs';
import * as fontkit from 'fontkit';

export interface OutlineFamily {
  /** The font files (`import.meta.resolve` of a package's file gives one), in fallback order. */
  files: readonly URL[];
}

export interface OutlinedText {
  /** SVG path data in the caller's units, the baseline's left end at (0, 0), y pointing down. */
  d: string;
  /** Advance width of the whole line at the asked size. */
  width: number;
  /** Height of capital letters above the baseline at the asked size (for centring). */
  capHeight: number;
}

const loaded = new Map<string, fontkit.Font>();

function fontOf(file: URL): fontkit.Font {
  let font = loaded.get(file.href);
  if (!font) {
    const created = fontkit.create(readFileSync(file));
    if (!('layout' in created)) throw new Error(`${file} is a font collection, not one font`);
    font = created;
    loaded.set(file.href, font);
  }
  return font;
}

/** The index in `family.files` of the first font that has `codePoint`, or -1. */
function fontIndexFor(family: OutlineFamily, codePoint: number): number {
  for (let i = 0; i < family.files.length; i++) if (fontOf(family.files[i]!).hasGlyphForCodePoint(codePoint)) return i;
  return -1;
}

/** The characters of `text` no font of the family has (each once, in order of appearance). */
export function missingCharacters(family: OutlineFamily, text: string): string[] {
  const missing = new Set<string>();
  for (const ch of text) if (fontIndexFor(family, ch.codePointAt(0)!) < 0) missing.add(ch);
  return [...missing];
}

function num(v: number): string {
  const r = Math.round(v * 100) / 100;
  return Object.is(r, -0) ? '0' : String(r);
}

/**
 * `text` at `size` (the em size in the caller's units) as one path. Characters no font has are
 * skipped: check with `missingCharacters` first when that matters.
 */
export function outlineText(family: OutlineFamily, text: string, size: number): OutlinedText {
  // Runs of consecutive characters drawn by the same font file.
  const runs: Array<{ index: number; text: string }> = [];
  for (const ch of text) {
    const index = fontIndexFor(family, ch.codePointAt(0)!);
    if (index < 0) continue;
    const last = runs.at(-1);
    if (last && last.index === index) last.text += ch;
    else runs.push({ index, text: ch });
  }
  let d = '';
  let x = 0;
  const first = fontOf(family.files[0]!);
  const capHeight = (first.capHeight / first.unitsPerEm) * size;
  for (const run of runs) {
    const font = fontOf(family.files[run.index]!);
    const k = size / font.unitsPerEm;
    const layout = font.layout(run.text);
    layout.glyphs.forEach((glyph, i) => {
      const pos = layout.positions[i]!;
      const ox = x + pos.xOffset * k;
      const oy = -pos.yOffset * k;
      // Font units have y up; SVG has y down.
      const px = (gx: number) => num(ox + gx * k);
      const py = (gy: number) => num(oy - gy * k);
      for (const c of glyph.path.commands) {
        const a = c.args;
        switch (c.command) {
          case 'moveTo':
            d += `M${px(a[0]!)} ${py(a[1]!)}`;
            break;
          case 'lineTo':
            d += `L${px(a[0]!)} ${py(a[1]!)}`;
            break;
          case 'quadraticCurveTo':
            d += `Q${px(a[0]!)} ${py(a[1]!)} ${px(a[2]!)} ${py(a[3]!)}`;
            break;
          case 'bezierCurveTo':
            d += `C${px(a[0]!)} ${py(a[1]!)} ${px(a[2]!)} ${py(a[3]!)} ${px(a[4]!)} ${py(a[5]!)}`;
            break;
          case 'closePath':
            d += 'Z';
            break;
        }
      }
      x += pos.xAdvance * k;
    });
  }
  return { d, width: x, capHeight };
}
