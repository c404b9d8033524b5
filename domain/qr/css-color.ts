/**
 * CSS color parsing for QR styling options.
 *
 * Validation and painting share this one parser on purpose: a color the API accepts must be
 * exactly the color the renderer paints, so there is no second, laxer parser to drift from it.
 *
 * Supported (CSS Color 4, case-insensitive, surrounding CSS whitespace ignored):
 * - `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`
 * - `rgb()` / `rgba()` in the legacy comma form (`rgb(255, 0, 0, 0.5)`) and the modern space form
 *   (`rgb(255 0 0 / 50%)`), with numbers or percentages
 * - `hsl()` / `hsla()` in both forms; the hue may carry `deg`, `rad`, `grad` or `turn`
 * - the 148 named colors and `transparent`
 *
 * Not supported, deliberately: `none` components, `currentcolor`, system colors, `color()`,
 * `hwb()`, `lab()` and friends, relative colors and comments. These either have no meaning
 * outside a document or are not painted consistently by the renderers a stored QR style may
 * end up in, so rejecting them is safer than guessing.
 */

import type { Rgba } from '../colour-contrast.js';

/** The channels `parseCssColor` answers: `a` is not rounded (`#ff000080` gives 128/255). */
export type { Rgba };

/** `parseCssColor` answers `null` for anything that is not one of the supported forms. */
export function parseCssColor(input: string): Rgba | null {
  if (typeof input !== 'string') return null;
  // Only CSS whitespace: String#trim would also drop e.g. U+00A0, which a browser does not,
  // and we would then accept a value the library's own SVG output cannot paint.
  const s = input.replace(/^[ \t\n\r\f]+|[ \t\n\r\f]+$/g, '').toLowerCase();
  if (s.startsWith('#')) return parseHex(s.slice(1));

  const named = NAMED_COLORS.get(s);
  if (named !== undefined) return { r: (named >> 16) & 0xff, g: (named >> 8) & 0xff, b: named & 0xff, a: 1 };
  if (s === 'transparent') return { r: 0, g: 0, b: 0, a: 0 };

  // The name must touch the parenthesis: in CSS `rgb (…)` is not a function call.
  const fn = /^(rgba?|hsla?)\(([^()]*)\)$/.exec(s);
  if (!fn) return null;
  const args = splitArgs(fn[2]!);
  if (!args) return null;
  return fn[1]!.startsWith('rgb') ? rgbFromArgs(args) : hslFromArgs(args);
}

export function isCssColor(input: string): boolean {
  return parseCssColor(input) !== null;
}

function parseHex(hex: string): Rgba | null {
  if (!/^[0-9a-f]+$/.test(hex)) return null;
  const d = (i: number) => parseInt(hex[i]!, 16) * 17;
  const dd = (i: number) => parseInt(hex.slice(i, i + 2), 16);
  switch (hex.length) {
    case 3:
      return { r: d(0), g: d(1), b: d(2), a: 1 };
    case 4:
      return { r: d(0), g: d(1), b: d(2), a: d(3) / 255 };
    case 6:
      return { r: dd(0), g: dd(2), b: dd(4), a: 1 };
    case 8:
      return { r: dd(0), g: dd(2), b: dd(4), a: dd(6) / 255 };
    default:
      return null;
  }
}

interface Args {
  /** Legacy comma syntax has stricter rules (no mixing of numbers and percentages in rgb, hsl needs %). */
  legacy: boolean;
  channels: [Token, Token, Token];
  alpha: Token | undefined;
}

interface Token {
  value: number;
  unit: '' | '%' | 'deg' | 'rad' | 'grad' | 'turn';
}

const WS = /[ \t\n\r\f]+/;

function splitArgs(body: string): Args | null {
  let parts: string[];
  let alphaPart: string | undefined;
  let legacy: boolean;
  if (body.includes(',')) {
    legacy = true;
    parts = body.split(',').map(trimCss);
    if (parts.length === 4) alphaPart = parts.pop();
    else if (parts.length !== 3) return null;
    // Each comma-separated part must be a single value; `rgb(1, 2, 3 / .5)` is not valid CSS.
    if ([...parts, alphaPart ?? ''].some((p) => WS.test(p) || p.includes('/'))) return null;
  } else {
    legacy = false;
    const slash = body.split('/');
    if (slash.length > 2) return null;
    const main = trimCss(slash[0]!);
    parts = main === '' ? [] : main.split(WS);
    if (parts.length !== 3) return null;
    if (slash.length === 2) {
      alphaPart = trimCss(slash[1]!);
      if (WS.test(alphaPart)) return null;
    }
  }
  const channels = parts.map(parseToken);
  const alpha = alphaPart === undefined ? undefined : parseToken(alphaPart);
  if (channels.some((t) => t === null) || alpha === null) return null;
  return { legacy, channels: channels as [Token, Token, Token], alpha };
}

function trimCss(s: string): string {
  return s.replace(/^[ \t\n\r\f]+|[ \t\n\r\f]+$/g, '');
}

// A CSS <number> (no trailing dot: `5.` is not a number in CSS) with an optional unit we know.
const TOKEN = /^([+-]?(?:\d+(?:\.\d+)?|\.\d+)(?:e[+-]?\d+)?)(%|deg|rad|grad|turn)?$/;

function parseToken(text: string): Token | null {
  const m = TOKEN.exec(text);
  if (!m) return null;
  const value = Number(m[1]);
  if (!Number.isFinite(value)) return null;
  return { value, unit: (m[2] ?? '') as Token['unit'] };
}

function alphaOf(t: Token | undefined): number | null {
  if (t === undefined) return 1;
  if (t.unit === '') return clamp(t.value, 0, 1);
  if (t.unit === '%') return clamp(t.value / 100, 0, 1);
  return null;
}

function rgbFromArgs({ legacy, channels, alpha }: Args): Rgba | null {
  if (channels.some((t) => t.unit !== '' && t.unit !== '%')) return null;
  if (legacy && new Set(channels.map((t) => t.unit)).size !== 1) return null;
  const a = alphaOf(alpha);
  if (a === null) return null;
  const [r, g, b] = channels.map((t) => to255(t.unit === '%' ? (t.value * 255) / 100 : t.value));
  return { r: r!, g: g!, b: b!, a };
}

function hslFromArgs({ legacy, channels, alpha }: Args): Rgba | null {
  const [hueT, satT, lightT] = channels;
  const hue = hueDegrees(hueT);
  if (hue === null) return null;
  // Legacy hsl() demands percentages; the modern form also takes plain numbers meaning percent.
  for (const t of [satT, lightT]) {
    if (t.unit !== '%' && (legacy || t.unit !== '')) return null;
  }
  const a = alphaOf(alpha);
  if (a === null) return null;
  const sat = clamp(satT.value, 0, 100) / 100;
  const light = clamp(lightT.value, 0, 100) / 100;
  // The CSS Color 4 reference conversion, so results match what browsers paint.
  const f = (n: number) => {
    const k = (n + hue / 30) % 12;
    const amp = sat * Math.min(light, 1 - light);
    return light - amp * Math.max(-1, Math.min(k - 3, 9 - k, 1));
  };
  return { r: to255(f(0) * 255), g: to255(f(8) * 255), b: to255(f(4) * 255), a };
}

function hueDegrees(t: Token): number | null {
  let deg: number;
  switch (t.unit) {
    case '':
    case 'deg':
      deg = t.value;
      break;
    case 'rad':
      deg = (t.value * 180) / Math.PI;
      break;
    case 'grad':
      deg = t.value * 0.9;
      break;
    case 'turn':
      deg = t.value * 360;
      break;
    default:
      return null;
  }
  const norm = deg % 360;
  return norm < 0 ? norm + 360 : norm;
}

function clamp(v: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, v));
}

/** Clamps before rounding, as CSS does, so `rgb(300, -5, 127.5)` is (255, 0, 128). */
function to255(v: number): number {
  return Math.round(clamp(v, 0, 255));
}

// CSS Color 4 named colors (148 names, gray/grey spellings included), as 0xRRGGBB.
const NAMED_COLORS: ReadonlyMap<string, number> = new Map(
  Object.entries({
    aliceblue: 0xf0f8ff,
    antiquewhite: 0xfaebd7,
    aqua: 0x00ffff,
    aquamarine: 0x7fffd4,
    azure: 0xf0ffff,
    beige: 0xf5f5dc,
    bisque: 0xffe4c4,
    black: 0x000000,
    blanchedalmond: 0xffebcd,
    blue: 0x0000ff,
    blueviolet: 0x8a2be2,
    brown: 0xa52a2a,
    burlywood: 0xdeb887,
    cadetblue: 0x5f9ea0,
    chartreuse: 0x7fff00,
    chocolate: 0xd2691e,
    coral: 0xff7f50,
    cornflowerblue: 0x6495ed,
    cornsilk: 0xfff8dc,
    crimson: 0xdc143c,
    cyan: 0x00ffff,
    darkblue: 0x00008b,
    darkcyan: 0x008b8b,
    darkgoldenrod: 0xb8860b,
    darkgray: 0xa9a9a9,
    darkgreen: 0x006400,
    darkgrey: 0xa9a9a9,
    darkkhaki: 0xbdb76b,
    darkmagenta: 0x8b008b,
    darkolivegreen: 0x556b2f,
    darkorange: 0xff8c00,
    darkorchid: 0x9932cc,
    darkred: 0x8b0000,
    darksalmon: 0xe9967a,
    darkseagreen: 0x8fbc8f,
    darkslateblue: 0x483d8b,
    darkslategray: 0x2f4f4f,
    darkslategrey: 0x2f4f4f,
    darkturquoise: 0x00ced1,
    darkviolet: 0x9400d3,
    deeppink: 0xff1493,
    deepskyblue: 0x00bfff,
    dimgray: 0x696969,
    dimgrey: 0x696969,
    dodgerblue: 0x1e90ff,
    firebrick: 0xb22222,
    floralwhite: 0xfffaf0,
    forestgreen: 0x228b22,
    fuchsia: 0xff00ff,
    gainsboro: 0xdcdcdc,
    ghostwhite: 0xf8f8ff,
    gold: 0xffd700,
    goldenrod: 0xdaa520,
    gray: 0x808080,
    green: 0x008000,
    greenyellow: 0xadff2f,
    grey: 0x808080,
    honeydew: 0xf0fff0,
    hotpink: 0xff69b4,
    indianred: 0xcd5c5c,
    indigo: 0x4b0082,
    ivory: 0xfffff0,
    khaki: 0xf0e68c,
    lavender: 0xe6e6fa,
    lavenderblush: 0xfff0f5,
    lawngreen: 0x7cfc00,
    lemonchiffon: 0xfffacd,
    lightblue: 0xadd8e6,
    lightcoral: 0xf08080,
    lightcyan: 0xe0ffff,
    lightgoldenrodyellow: 0xfafad2,
    lightgray: 0xd3d3d3,
    lightgreen: 0x90ee90,
    lightgrey: 0xd3d3d3,
    lightpink: 0xffb6c1,
    lightsalmon: 0xffa07a,
    lightseagreen: 0x20b2aa,
    lightskyblue: 0x87cefa,
    lightslategray: 0x778899,
    lightslategrey: 0x778899,
    lightsteelblue: 0xb0c4de,
    lightyellow: 0xffffe0,
    lime: 0x00ff00,
    limegreen: 0x32cd32,
    linen: 0xfaf0e6,
    magenta: 0xff00ff,
    maroon: 0x800000,
    mediumaquamarine: 0x66cdaa,
    mediumblue: 0x0000cd,
    mediumorchid: 0xba55d3,
    mediumpurple: 0x9370db,
    mediumseagreen: 0x3cb371,
    mediumslateblue: 0x7b68ee,
    mediumspringgreen: 0x00fa9a,
    mediumturquoise: 0x48d1cc,
    mediumvioletred: 0xc71585,
    midnightblue: 0x191970,
    mintcream: 0xf5fffa,
    mistyrose: 0xffe4e1,
    moccasin: 0xffe4b5,
    navajowhite: 0xffdead,
    navy: 0x000080,
    oldlace: 0xfdf5e6,
    olive: 0x808000,
    olivedrab: 0x6b8e23,
    orange: 0xffa500,
    orangered: 0xff4500,
    orchid: 0xda70d6,
    palegoldenrod: 0xeee8aa,
    palegreen: 0x98fb98,
    paleturquoise: 0xafeeee,
    palevioletred: 0xdb7093,
    papayawhip: 0xffefd5,
    peachpuff: 0xffdab9,
    peru: 0xcd853f,
    pink: 0xffc0cb,
    plum: 0xdda0dd,
    powderblue: 0xb0e0e6,
    purple: 0x800080,
    rebeccapurple: 0x663399,
    red: 0xff0000,
    rosybrown: 0xbc8f8f,
    royalblue: 0x4169e1,
    saddlebrown: 0x8b4513,
    salmon: 0xfa8072,
    sandybrown: 0xf4a460,
    seagreen: 0x2e8b57,
    seashell: 0xfff5ee,
    sienna: 0xa0522d,
    silver: 0xc0c0c0,
    skyblue: 0x87ceeb,
    slateblue: 0x6a5acd,
    slategray: 0x708090,
    slategrey: 0x708090,
    snow: 0xfffafa,
    springgreen: 0x00ff7f,
    steelblue: 0x4682b4,
    tan: 0xd2b48c,
    teal: 0x008080,
    thistle: 0xd8bfd8,
    tomato: 0xff6347,
    turquoise: 0x40e0d0,
    violet: 0xee82ee,
    wheat: 0xf5deb3,
    white: 0xffffff,
    whitesmoke: 0xf5f5f5,
    yellow: 0xffff00,
    yellowgreen: 0x9acd32,
  }),
);

/** The named colors we accept, for tests and for clients that want to offer a list. */
export const CSS_COLOR_NAMES: readonly string[] = [...NAMED_COLORS.keys()];
