/**
 * QR code encoder (model 2, versions 1–40): data → module matrix, module for module the matrix
 * qrcode-generator 1.x makes (the encoder qr-code-styling 1.9.2 bundles), so our codes keep the
 * library's look. Written for speed: qrcode-generator scores its 8 masks on nested arrays through
 * a method call per module and takes ~1 ms for a short URL; this takes about a tenth of that
 * (typed arrays, one pass per mask, function patterns built once per version).
 * test/unit/qr/qr-encoder.unit.test.ts compares the two on some 2,000 inputs, every version included.
 *
 * Where qrcode-generator departs from ISO/IEC 18004, we follow it, because the same data must give
 * the same picture:
 * - Mask choice uses its own penalty (see `penalty`), not the standard's N1–N4, and scores each
 *   mask with the format and version information left light.
 * - Byte mode keeps the low 8 bits of each UTF-16 code unit (Latin-1 survives; other characters
 *   are mangled).
 * - Auto version (0): the smallest of 1–39 that holds the data, else 40 (which may still not).
 * - Kanji mode needs a Shift_JIS table; like the library (which ships without one) we refuse it.
 * - Errors come in the library's order: Kanji first, then characters the mode cannot encode,
 *   then data too long.
 */

export type ErrorCorrectionLevel = 'L' | 'M' | 'Q' | 'H';
export type EncodingMode = 'Numeric' | 'Alphanumeric' | 'Byte' | 'Kanji';

export interface QrMatrix {
  /** Modules per side. */
  count: number;
  /** 1 = dark, row-major, `count * count` entries. */
  dark: Uint8Array;
}

/**
 * Data this encoder cannot turn into a code: `overflow` (too long for the version, or for any
 * version) or `unencodable` (a character the mode has no code for; any Kanji).
 */
export class QrEncodeError extends Error {
  constructor(
    readonly reason: 'overflow' | 'unencodable',
    message: string,
  ) {
    super(message);
    this.name = 'QrEncodeError';
  }
}

/** `version` 0 picks the smallest version that holds the data. */
export function encodeQr(data: string, version: number, level: ErrorCorrectionLevel, mode: EncodingMode): QrMatrix {
  if (!Number.isInteger(version) || version < 0 || version > 40) throw new RangeError(`QR version must be 0 (auto) to 40, not ${version}`);
  const levelIndex = LEVELS.indexOf(level);
  if (levelIndex < 0) throw new RangeError(`Unknown error correction level ${level}`);
  const segment = dataSegment(data, mode);
  const chosen = version || autoVersion(segment, levelIndex);
  const capacity = dataCapacity(chosen, levelIndex);
  const bits = segmentBits(segment, chosen);
  if (bits > capacity * 8) {
    throw new QrEncodeError('overflow', `Data needs ${bits} bits; version ${chosen} at level ${level} holds ${capacity * 8}`);
  }
  const codewords = addErrorCorrection(dataCodewords(segment, chosen, capacity), chosen, levelIndex);
  return drawMatrix(codewords, chosen, levelIndex);
}

// ---- data segment ----

const LEVELS: readonly ErrorCorrectionLevel[] = ['L', 'M', 'Q', 'H'];

/** Mode indicators, and the bit widths of the character count for versions 1–9, 10–26, 27–40. */
const MODE_BITS = { Numeric: 0b0001, Alphanumeric: 0b0010, Byte: 0b0100 } as const;
const COUNT_BITS = { Numeric: [10, 12, 14], Alphanumeric: [9, 11, 13], Byte: [8, 16, 16] } as const;

/** Numeric mode packs 3 digits in 10 bits; 1 or 2 left over take 4 or 7. */
const NUMERIC_TAIL_BITS = [0, 4, 7] as const;

const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:';

/** Code of each alphanumeric character by char code, −1 for the rest. */
const ALPHANUMERIC_CODE = (() => {
  const codes = new Int8Array(128).fill(-1);
  for (let i = 0; i < ALPHANUMERIC.length; i++) codes[ALPHANUMERIC.charCodeAt(i)] = i;
  return codes;
})();

interface Segment {
  mode: keyof typeof MODE_BITS;
  /** The characters as numbers: digit values, alphanumeric codes, or bytes. */
  values: Uint8Array;
}

function dataSegment(data: string, mode: EncodingMode): Segment {
  if (mode === 'Kanji') throw new QrEncodeError('unencodable', 'Kanji mode needs a Shift_JIS table');
  const values = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i++) {
    const code = data.charCodeAt(i);
    let value = code & 0xff;
    if (mode === 'Numeric') value = code >= 48 && code <= 57 ? code - 48 : -1;
    else if (mode === 'Alphanumeric') value = code < 128 ? ALPHANUMERIC_CODE[code]! : -1;
    if (value < 0) throw new QrEncodeError('unencodable', `${mode} mode cannot encode ${JSON.stringify(data[i])}`);
    values[i] = value;
  }
  return { mode, values };
}

function countBits(mode: Segment['mode'], version: number): number {
  return COUNT_BITS[mode][version < 10 ? 0 : version < 27 ? 1 : 2];
}

/** Mode indicator, character count and data, in bits. */
function segmentBits({ mode, values }: Segment, version: number): number {
  const n = values.length;
  let bits = n * 8;
  if (mode === 'Numeric') bits = Math.floor(n / 3) * 10 + NUMERIC_TAIL_BITS[n % 3]!;
  else if (mode === 'Alphanumeric') bits = Math.floor(n / 2) * 11 + (n % 2) * 6;
  return 4 + countBits(mode, version) + bits;
}

function autoVersion(segment: Segment, levelIndex: number): number {
  for (let v = 1; v < 40; v++) if (segmentBits(segment, v) <= dataCapacity(v, levelIndex) * 8) return v;
  return 40;
}

/** The data codewords: segment, terminator, zero bits to a byte boundary, then 0xEC 0x11 … */
function dataCodewords({ mode, values }: Segment, version: number, capacity: number): Uint8Array {
  const out = new Uint8Array(capacity);
  let length = 0;
  const put = (value: number, bits: number) => {
    for (let i = bits - 1; i >= 0; i--, length++) if ((value >>> i) & 1) out[length >> 3]! |= 0x80 >> (length & 7);
  };
  put(MODE_BITS[mode], 4);
  put(values.length, countBits(mode, version));
  const n = values.length;
  if (mode === 'Numeric') {
    let i = 0;
    for (; i + 2 < n; i += 3) put(values[i]! * 100 + values[i + 1]! * 10 + values[i + 2]!, 10);
    if (n - i === 2) put(values[i]! * 10 + values[i + 1]!, 7);
    else if (n - i === 1) put(values[i]!, 4);
  } else if (mode === 'Alphanumeric') {
    let i = 0;
    for (; i + 1 < n; i += 2) put(values[i]! * 45 + values[i + 1]!, 11);
    if (i < n) put(values[i]!, 6);
  } else {
    for (let i = 0; i < n; i++) put(values[i]!, 8);
  }
  // The terminator only when all four bits fit; the zero padding covers the rest.
  if (length + 4 <= capacity * 8) length += 4;
  for (let i = (length + 7) >> 3, pad = 0xec; i < capacity; i++, pad ^= 0xec ^ 0x11) out[i] = pad;
  return out;
}

// ---- error correction ----

/**
 * [error correction codewords per block, number of blocks] by level (L, M, Q, H) and version
 * (1–40), from ISO/IEC 18004 table 9. Blocks split a version's codewords as evenly as possible,
 * the longer blocks last.
 */
const EC_BLOCKS: ReadonlyArray<ReadonlyArray<readonly [number, number]>> = [
  [
    [7, 1],
    [10, 1],
    [15, 1],
    [20, 1],
    [26, 1],
    [18, 2],
    [20, 2],
    [24, 2],
    [30, 2],
    [18, 4],
    [20, 4],
    [24, 4],
    [26, 4],
    [30, 4],
    [22, 6],
    [24, 6],
    [28, 6],
    [30, 6],
    [28, 7],
    [28, 8],
    [28, 8],
    [28, 9],
    [30, 9],
    [30, 10],
    [26, 12],
    [28, 12],
    [30, 12],
    [30, 13],
    [30, 14],
    [30, 15],
    [30, 16],
    [30, 17],
    [30, 18],
    [30, 19],
    [30, 19],
    [30, 20],
    [30, 21],
    [30, 22],
    [30, 24],
    [30, 25],
  ],
  [
    [10, 1],
    [16, 1],
    [26, 1],
    [18, 2],
    [24, 2],
    [16, 4],
    [18, 4],
    [22, 4],
    [22, 5],
    [26, 5],
    [30, 5],
    [22, 8],
    [22, 9],
    [24, 9],
    [24, 10],
    [28, 10],
    [28, 11],
    [26, 13],
    [26, 14],
    [26, 16],
    [26, 17],
    [28, 17],
    [28, 18],
    [28, 20],
    [28, 21],
    [28, 23],
    [28, 25],
    [28, 26],
    [28, 28],
    [28, 29],
    [28, 31],
    [28, 33],
    [28, 35],
    [28, 37],
    [28, 38],
    [28, 40],
    [28, 43],
    [28, 45],
    [28, 47],
    [28, 49],
  ],
  [
    [13, 1],
    [22, 1],
    [18, 2],
    [26, 2],
    [18, 4],
    [24, 4],
    [18, 6],
    [22, 6],
    [20, 8],
    [24, 8],
    [28, 8],
    [26, 10],
    [24, 12],
    [20, 16],
    [30, 12],
    [24, 17],
    [28, 16],
    [28, 18],
    [26, 21],
    [30, 20],
    [28, 23],
    [30, 23],
    [30, 25],
    [30, 27],
    [30, 29],
    [28, 34],
    [30, 34],
    [30, 35],
    [30, 38],
    [30, 40],
    [30, 43],
    [30, 45],
    [30, 48],
    [30, 51],
    [30, 53],
    [30, 56],
    [30, 59],
    [30, 62],
    [30, 65],
    [30, 68],
  ],
  [
    [17, 1],
    [28, 1],
    [22, 2],
    [16, 4],
    [22, 4],
    [28, 4],
    [26, 5],
    [26, 6],
    [24, 8],
    [28, 8],
    [24, 11],
    [28, 11],
    [22, 16],
    [24, 16],
    [24, 18],
    [30, 16],
    [28, 19],
    [28, 21],
    [26, 25],
    [28, 25],
    [30, 25],
    [24, 34],
    [30, 30],
    [30, 32],
    [30, 35],
    [30, 37],
    [30, 40],
    [30, 42],
    [30, 45],
    [30, 48],
    [30, 51],
    [30, 54],
    [30, 57],
    [30, 60],
    [30, 63],
    [30, 66],
    [30, 70],
    [30, 74],
    [30, 77],
    [30, 81],
  ],
];

/** Modules left for codewords (and remainder bits) once the function patterns are placed. */
function rawDataModules(version: number): number {
  let modules = (16 * version + 128) * version + 64;
  if (version >= 2) {
    const align = Math.floor(version / 7) + 2;
    modules -= (25 * align - 10) * align - 55;
    if (version >= 7) modules -= 36;
  }
  return modules;
}

function totalCodewords(version: number): number {
  return rawDataModules(version) >> 3;
}

/** Data codewords a version holds at a level. */
function dataCapacity(version: number, levelIndex: number): number {
  const [ecPerBlock, blocks] = EC_BLOCKS[levelIndex]![version - 1]!;
  return totalCodewords(version) - ecPerBlock * blocks;
}

/** GF(256) with the QR polynomial x⁸ + x⁴ + x³ + x² + 1; EXP is doubled so log sums need no mod. */
const EXP = new Uint8Array(512);
const LOG = new Uint8Array(256);
for (let i = 0, x = 1; i < 255; i++, x = x & 0x80 ? (x << 1) ^ 0x11d : x << 1) {
  EXP[i] = EXP[i + 255] = x;
  LOG[x] = i;
}

/** Logs of the generator polynomial's coefficients after the leading 1, by degree. */
const generators: Uint8Array[] = [];

function makeGeneratorLogs(degree: number): Uint8Array {
  // ∏ (x − αⁱ), i < degree, highest power first
  const poly = new Uint8Array(degree + 1);
  poly[0] = 1;
  for (let i = 0; i < degree; i++) {
    for (let j = i + 1; j > 0; j--) poly[j] = poly[j]! ^ (poly[j - 1] ? EXP[LOG[poly[j - 1]!]! + i]! : 0);
  }
  const logs = new Uint8Array(degree);
  for (let j = 0; j < degree; j++) logs[j] = LOG[poly[j + 1]!]!;
  return logs;
}

/** Splits the data into blocks, appends each block's Reed–Solomon codewords, and interleaves. */
function addErrorCorrection(data: Uint8Array, version: number, levelIndex: number): Uint8Array {
  const [ecLength, blocks] = EC_BLOCKS[levelIndex]![version - 1]!;
  const total = totalCodewords(version);
  const shortBlocks = blocks - (total % blocks);
  const shortData = Math.floor(total / blocks) - ecLength;
  const gen = (generators[ecLength] ??= makeGeneratorLogs(ecLength));
  const out = new Uint8Array(total);
  const remainder = new Uint8Array(ecLength);
  for (let b = 0, start = 0; b < blocks; b++) {
    const length = shortData + (b < shortBlocks ? 0 : 1);
    remainder.fill(0);
    for (let i = start; i < start + length; i++) {
      const factor = data[i]! ^ remainder[0]!;
      remainder.copyWithin(0, 1);
      remainder[ecLength - 1] = 0;
      if (factor) {
        const f = LOG[factor]!;
        for (let j = 0; j < ecLength; j++) remainder[j] = remainder[j]! ^ EXP[f + gen[j]!]!;
      }
    }
    // Data codeword i of every block in turn (short blocks have none at i = shortData), then
    // error correction codeword j of every block in turn.
    for (let i = 0; i < length; i++) out[i < shortData ? i * blocks + b : shortData * blocks + b - shortBlocks] = data[start + i]!;
    const ecStart = total - ecLength * blocks;
    for (let j = 0; j < ecLength; j++) out[ecStart + j * blocks + b] = remainder[j]!;
    start += length;
  }
  return out;
}

// ---- the matrix ----

/** Function patterns of a version, shared by every code of that version (read only). */
interface Template {
  count: number;
  /** Finder, separator, timing and alignment patterns; format, version and dark module light. */
  base: Uint8Array;
  /** Indices of the data modules in placement order. */
  order: Uint32Array;
  /** Per mask, 1 at each data module the mask flips. */
  masks: Uint8Array[];
}

/** By version; at most 40 (about 6 MB if every version is drawn, typical codes use a few). */
const templates: Template[] = [];

function makeTemplate(version: number): Template {
  const n = version * 4 + 17;
  const base = new Uint8Array(n * n);
  const reserved = new Uint8Array(n * n);
  const set = (r: number, c: number, dark: boolean) => {
    base[r * n + c] = dark ? 1 : 0;
    reserved[r * n + c] = 1;
  };
  // Finders with their separators
  for (const [top, left] of [
    [0, 0],
    [n - 7, 0],
    [0, n - 7],
  ] as const) {
    for (let r = -1; r <= 7; r++) {
      for (let c = -1; c <= 7; c++) {
        if (top + r < 0 || top + r >= n || left + c < 0 || left + c >= n) continue;
        const ring = ((r === 0 || r === 6) && c >= 0 && c <= 6) || ((c === 0 || c === 6) && r >= 0 && r <= 6);
        set(top + r, left + c, ring || (r >= 2 && r <= 4 && c >= 2 && c <= 4));
      }
    }
  }
  // Alignment patterns, except where they would overlap a finder
  const centres = alignmentCentres(version);
  for (const r of centres) {
    for (const c of centres) {
      if (reserved[r * n + c]) continue;
      for (let dr = -2; dr <= 2; dr++) for (let dc = -2; dc <= 2; dc++) set(r + dr, c + dc, Math.max(Math.abs(dr), Math.abs(dc)) !== 1);
    }
  }
  // Timing patterns
  for (let i = 8; i < n - 8; i++) {
    if (!reserved[i * n + 6]) set(i, 6, i % 2 === 0);
    if (!reserved[6 * n + i]) set(6, i, i % 2 === 0);
  }
  // Format information, the dark module and version information: light while the masks are
  // scored (as in qrcode-generator), written once the mask is chosen
  for (let i = 0; i < 15; i++) {
    const [r1, c1, r2, c2] = formatPositions(i, n);
    set(r1, c1, false);
    set(r2, c2, false);
  }
  set(n - 8, 8, false);
  if (version >= 7) {
    for (let i = 0; i < 18; i++) {
      set(Math.floor(i / 3), n - 11 + (i % 3), false);
      set(n - 11 + (i % 3), Math.floor(i / 3), false);
    }
  }
  // Data modules: two-module columns from the right, up and down in turn, skipping the timing column
  const order = new Uint32Array(n * n);
  let k = 0;
  for (let right = n - 1, upward = true; right > 0; right -= 2, upward = !upward) {
    if (right === 6) right = 5;
    for (let step = 0; step < n; step++) {
      const r = upward ? n - 1 - step : step;
      for (const c of [right, right - 1]) if (!reserved[r * n + c]) order[k++] = r * n + c;
    }
  }
  const masks = MASKS.map((flips) => {
    const pattern = new Uint8Array(n * n);
    for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) if (!reserved[r * n + c] && flips(r, c)) pattern[r * n + c] = 1;
    return pattern;
  });
  return { count: n, base, order: order.slice(0, k), masks };
}

/** Row (and column) numbers of the alignment pattern centres: evenly spaced from 6 to n − 7. */
function alignmentCentres(version: number): number[] {
  if (version === 1) return [];
  const count = Math.floor(version / 7) + 2;
  const last = version * 4 + 10;
  // The standard's table follows this rule everywhere except version 32
  const step = version === 32 ? 26 : Math.ceil((last - 6) / (count - 1) / 2) * 2;
  const centres = [6];
  for (let i = count - 2; i >= 0; i--) centres.push(last - i * step);
  return centres;
}

/** The two places of format bit i (0 = least significant): beside the top-left finder, and split between the other two. */
function formatPositions(i: number, n: number): [number, number, number, number] {
  const vertical = i < 6 ? i : i < 8 ? i + 1 : n - 15 + i;
  const horizontal = i < 8 ? n - 1 - i : i === 8 ? 7 : 14 - i;
  return [vertical, 8, 8, horizontal];
}

/** ISO's mask conditions on (row, column): the module's bit is flipped where true. */
const MASKS: ReadonlyArray<(r: number, c: number) => boolean> = [
  (r, c) => (r + c) % 2 === 0,
  (r) => r % 2 === 0,
  (_r, c) => c % 3 === 0,
  (r, c) => (r + c) % 3 === 0,
  (r, c) => (Math.floor(r / 2) + Math.floor(c / 3)) % 2 === 0,
  (r, c) => ((r * c) % 2) + ((r * c) % 3) === 0,
  (r, c) => (((r * c) % 2) + ((r * c) % 3)) % 2 === 0,
  (r, c) => (((r * c) % 3) + ((r + c) % 2)) % 2 === 0,
];

/** Format bits 0–1 for the levels L, M, Q, H. */
const FORMAT_LEVEL = [1, 0, 3, 2] as const;

function drawMatrix(codewords: Uint8Array, version: number, levelIndex: number): QrMatrix {
  const { count: n, base, order, masks } = (templates[version] ??= makeTemplate(version));
  const unmasked = base.slice();
  const bitCount = Math.min(order.length, codewords.length * 8);
  for (let k = 0; k < bitCount; k++) unmasked[order[k]!] = (codewords[k >> 3]! >> (7 - (k & 7))) & 1;

  // The first mask with the lowest penalty, as qrcode-generator picks it
  const masked = new Uint8Array(n * n);
  const columnRuns = new Int32Array(n);
  let best = 0;
  let bestPenalty = Infinity;
  for (let mask = 0; mask < 8; mask++) {
    applyMask(unmasked, masks[mask]!, masked);
    const p = penalty(masked, n, columnRuns);
    if (p < bestPenalty) {
      bestPenalty = p;
      best = mask;
    }
  }
  applyMask(unmasked, masks[best]!, masked);

  const format = bch((FORMAT_LEVEL[levelIndex]! << 3) | best, 0x537, 10) ^ 0x5412;
  for (let i = 0; i < 15; i++) {
    const bit = (format >> i) & 1;
    const [r1, c1, r2, c2] = formatPositions(i, n);
    masked[r1 * n + c1] = bit;
    masked[r2 * n + c2] = bit;
  }
  masked[(n - 8) * n + 8] = 1;
  if (version >= 7) {
    const info = bch(version, 0x1f25, 12);
    for (let i = 0; i < 18; i++) {
      const bit = (info >> i) & 1;
      masked[Math.floor(i / 3) * n + n - 11 + (i % 3)] = bit;
      masked[(n - 11 + (i % 3)) * n + Math.floor(i / 3)] = bit;
    }
  }
  return { count: n, dark: masked };
}

/** `value` followed by its BCH check bits (remainder of value · x^bits divided by `generator`). */
function bch(value: number, generator: number, bits: number): number {
  let rem = value << bits;
  const top = 31 - Math.clz32(generator);
  for (let bit = 31 - Math.clz32(rem); bit >= top; bit--) if ((rem >> bit) & 1) rem ^= generator << (bit - top);
  return (value << bits) | rem;
}

function applyMask(from: Uint8Array, flips: Uint8Array, to: Uint8Array): void {
  for (let i = 0; i < from.length; i++) to[i] = from[i]! ^ flips[i]!;
}

/**
 * qrcode-generator's penalty for a masked matrix (lower is better):
 * 1. each module with 6, 7 or 8 of its 8 neighbours in its own colour: 4, 5 or 6 points
 *    (modules on the border have at most 5 neighbours and never score);
 * 2. each 2 × 2 block of one colour: 3;
 * 3. each dark-light-dark-dark-dark-light-dark run of 7 in a row or column: 40 (the light
 *    surroundings the standard asks for are not checked);
 * 4. 10 × |percentage of dark modules − 50| / 5, not rounded down, computed as qrcode-generator
 *    does so that ties break the same way.
 * One pass over the rows; `columnRuns` is scratch of length n.
 */
function penalty(m: Uint8Array, n: number, columnRuns: Int32Array): number {
  // Runs hold the last 7 modules of the row (or column) so far, oldest in bit 6. Before 7 modules
  // are seen bit 6 is still 0, so the pattern cannot match early.
  const FINDER_LIKE = 0b1011101;
  let points = 0;
  let dark = 0;
  columnRuns.fill(0);
  for (let r = 0; r < n; r++) {
    const row = r * n;
    const hasBelow = r < n - 1;
    const interior = r > 0 && hasBelow;
    // Border rows read themselves in place of the missing neighbour row; those sums go unused.
    const above = r > 0 ? row - n : row;
    const below = hasBelow ? row + n : row;
    let rowRun = 0;
    let pairBefore = 0; // modules (r, c − 1) + (r + 1, c − 1)
    let columnSum2 = 0; // modules (r − 1 … r + 1, c − 2)
    let columnSum1 = 0; // modules (r − 1 … r + 1, c − 1)
    let darkBefore = 0; // module (r, c − 1)
    for (let c = 0; c < n; c++) {
      const d = m[row + c]!;
      const down = m[below + c]!;
      dark += d;
      rowRun = ((rowRun << 1) | d) & 0x7f;
      if (rowRun === FINDER_LIKE) points += 40;
      const columnRun = ((columnRuns[c]! << 1) | d) & 0x7f;
      columnRuns[c] = columnRun;
      if (columnRun === FINDER_LIKE) points += 40;
      const pair = d + down;
      // The 2 × 2 block at (r, c − 1) is one colour when its sum is 0 or 4
      if (hasBelow && c > 0 && ((pairBefore + pair) & 3) === 0) points += 3;
      pairBefore = pair;
      const columnSum = m[above + c]! + pair;
      if (interior && c > 1) {
        // Module (r, c − 1) and its 8 neighbours
        const darkAround = columnSum2 + columnSum1 + columnSum - darkBefore;
        const same = darkBefore ? darkAround : 8 - darkAround;
        if (same > 5) points += same - 2;
      }
      columnSum2 = columnSum1;
      columnSum1 = columnSum;
      darkBefore = d;
    }
  }
  return points + (Math.abs((100 * dark) / n / n - 50) / 5) * 10;
}
