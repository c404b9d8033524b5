/**
 * Colour maths shared by the hosted pages, the API's colour rules and the console: the hex colour
 * an owner may pick (and its schema), WCAG 2.x relative luminance and contrast ratio, and black or
 * white text on a colour. One module so every page and the console judge "readable" by the same
 * numbers; in domain/, not platform/, because the console may import domain/ only.
 *
 * Luminance uses the sRGB transfer function's threshold 0.04045 (IEC 61966-2-1, as WCAG 2.2 now
 * writes it). Older WCAG text said 0.03928; for 8-bit channels both give the same result, since no
 * channel value n/255 lies between them.
 */
import { z } from 'zod';

/** An opaque colour: `r`, `g`, `b` are 0..255. */
export interface Rgb {
  r: number;
  g: number;
  b: number;
}

/** `r`, `g`, `b` are integers 0..255; `a` is 0..1. */
export interface Rgba extends Rgb {
  a: number;
}

/** A hex colour as page and menu colours take it: `#rgb` or `#rrggbb`, any case. */
// Spelled without the `i` flag: the API's OpenAPI document carries the pattern's source only.
export const HEX_COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/** A hex color (`#rgb` or `#rrggbb`), stored lowercase: what page and menu colors take. */
export const hexColorSchema = z
  .string({ error: (issue) => (issue.input === undefined ? 'Required' : 'Must be a string') })
  .regex(HEX_COLOR, { error: 'Must be a hex color such as #1a2b3c' })
  .transform((c) => c.toLowerCase());

export const isHexColor = (value: string | null | undefined): value is string => typeof value === 'string' && HEX_COLOR.test(value);

/** `#rgb` as `#rrggbb`, lowercase; any other text only lowercased. */
export function longHex(color: string): string {
  return (/^#[0-9a-f]{3}$/i.test(color) ? `#${[...color.slice(1)].map((c) => c + c).join('')}` : color).toLowerCase();
}

/** The channels of a `#rgb` or `#rrggbb` colour (see HEX_COLOR); null for anything else. */
export function hexToRgb(hex: string): Rgb | null {
  if (!isHexColor(hex)) return null;
  const full = longHex(hex);
  const channel = (i: number) => parseInt(full.slice(i, i + 2), 16);
  return { r: channel(1), g: channel(3), b: channel(5) };
}

/** `hexToRgb` for a colour already checked (a theme's constant, or one isHexColor accepted). */
function rgbOf(color: Rgb | string): Rgb {
  if (typeof color !== 'string') return color;
  const rgb = hexToRgb(color);
  if (!rgb) throw new TypeError(`Not a hex colour: ${color}`);
  return rgb;
}

/** WCAG 2 relative luminance of an opaque colour (a hex string or channels), 0 (black) to 1 (white). */
export function relativeLuminance(color: Rgb | string): number {
  const { r, g, b } = rgbOf(color);
  const linear = (v: number) => {
    const s = v / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** WCAG 2 contrast ratio of two opaque colours, 1 to 21, whichever order they come in. */
export function contrastRatio(a: Rgb | string, b: Rgb | string): number {
  const la = relativeLuminance(a);
  const lb = relativeLuminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** WCAG AA for body text: 4.5:1. */
export const AA_CONTRAST = 4.5;

const BLACK: Rgb = { r: 0, g: 0, b: 0 };
const WHITE: Rgb = { r: 255, g: 255, b: 255 };

/**
 * Black or white text, whichever reads better on `background` (white where they tie), written as
 * the caller writes colours (`#000`/`#fff` by default).
 */
export function textColorOn<B extends string = '#000', W extends string = '#fff'>(
  background: Rgb | string,
  spelling: { black: B; white: W } = { black: '#000', white: '#fff' } as { black: B; white: W },
): B | W {
  return contrastRatio(WHITE, background) >= contrastRatio(BLACK, background) ? spelling.white : spelling.black;
}

/** `top` painted over the opaque `bottom`, channels rounded. */
export function over(top: Rgba, bottom: Rgb): Rgba {
  const mix = (t: number, b: number) => Math.round(t * top.a + b * (1 - top.a));
  return { r: mix(top.r, bottom.r), g: mix(top.g, bottom.g), b: mix(top.b, bottom.b), a: 1 };
}
