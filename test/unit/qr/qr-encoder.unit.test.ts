/**
 * Our QR encoder (domain/qr/render/encoder.ts) against qrcode-generator, the encoder
 * qr-code-styling 1.9.2 bundles and whose matrices our pictures must reproduce: for each input,
 * both must give the same matrix module for module (so the same version and mask), or both must
 * refuse it for the same reason.
 *
 * - Every version 1–40 (TEST_FULL_SAMPLES=1; by default each side of every layout and coding
 *   boundary) × every level × Numeric, Alphanumeric and Byte, with data that fills the version
 *   exactly, and one character more (both must refuse it).
 * - 600 random inputs (seeded): random mode, level, length (mostly short, like our URLs) and
 *   characters, with the version chosen automatically; every mask must be chosen at least once.
 * - Short URLs whose lowest penalty is shared by two masks: the first must win, as there.
 * - Edge cases: empty data, one character, Byte data beyond Latin-1, control characters.
 * - Refusals: Kanji, characters a mode cannot encode, data too long, and which comes first.
 */
import qrcode from 'qrcode-generator';
import { describe, expect, it } from 'vitest';
import { encodeQr, QrEncodeError, type EncodingMode, type ErrorCorrectionLevel, type QrMatrix } from '#domain/qr/render/encoder.js';
import { FULL_SAMPLES } from '../../support/env.js';
import { randomUnit } from '../../support/seeded-random.js';

const LEVELS: ErrorCorrectionLevel[] = ['L', 'M', 'Q', 'H'];
const MODES = ['Numeric', 'Alphanumeric', 'Byte'] as const;
const CHARSETS: Record<(typeof MODES)[number], string> = {
  Numeric: '0123456789',
  Alphanumeric: '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:',
  // Byte data as our links have it, plus Latin-1 and characters qrcode-generator cuts to 8 bits
  Byte: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~:/?#[]@!$&'()*+,;=%äöüßé€中\u0000\u001f\u00ff",
};

type Outcome = QrMatrix | 'overflow' | 'unencodable';

function reference(data: string, version: number, level: ErrorCorrectionLevel, mode: EncodingMode): Outcome {
  const qr = qrcode(version as Parameters<typeof qrcode>[0], level);
  try {
    qr.addData(data, mode);
    qr.make();
  } catch (err) {
    const text = String(err);
    if (text.startsWith('code length overflow')) return 'overflow';
    if (text.startsWith('illegal char') || text.startsWith('sjis not supported')) return 'unencodable';
    throw err;
  }
  const count = qr.getModuleCount();
  const dark = new Uint8Array(count * count);
  for (let r = 0; r < count; r++) for (let c = 0; c < count; c++) if (qr.isDark(r, c)) dark[r * count + c] = 1;
  return { count, dark };
}

function ours(data: string, version: number, level: ErrorCorrectionLevel, mode: EncodingMode): Outcome {
  try {
    return encodeQr(data, version, level, mode);
  } catch (err) {
    if (err instanceof QrEncodeError) return err.reason;
    throw err;
  }
}

/** Where the two outcomes differ (size, refusal, or the first differing module), or null. */
function difference(a: Outcome, b: Outcome): string | null {
  if (typeof a === 'string' || typeof b === 'string') return a === b ? null : `${summary(a)} vs ${summary(b)}`;
  if (a.count !== b.count) return `${a.count} vs ${b.count} modules per side`;
  const i = a.dark.findIndex((v, k) => v !== b.dark[k]);
  return i < 0 ? null : `module (row ${Math.floor(i / a.count)}, column ${i % a.count}) differs`;
}

function summary(o: Outcome): string {
  return typeof o === 'string' ? o : `a ${o.count}×${o.count} matrix`;
}

/** Compares both encoders on one input; returns our outcome. */
function expectSame(data: string, version: number, level: ErrorCorrectionLevel, mode: EncodingMode): Outcome {
  const mine = ours(data, version, level, mode);
  const theirs = reference(data, version, level, mode);
  const label = `${mode} ${level} version ${version || 'auto'}, ${data.length} chars ${JSON.stringify(data.slice(0, 40))}`;
  expect(difference(mine, theirs), label).toBeNull();
  return mine;
}

function randomText(next: () => number, charset: string, length: number): string {
  let s = '';
  for (let i = 0; i < length; i++) s += charset[Math.floor(next() * charset.length)];
  return s;
}

/** The mask a finished matrix was drawn with, read back from its format information. */
function maskOf({ count: n, dark }: QrMatrix): number {
  let format = 0;
  for (let i = 14; i >= 0; i--) format = (format << 1) | dark[(i < 6 ? i : i < 8 ? i + 1 : n - 15 + i) * n + 8]!;
  return ((format ^ 0x5412) >> 10) & 7;
}

/** The most characters of `text` that fit: the longest prefix our encoder accepts. */
function longestFitting(text: string, version: number, level: ErrorCorrectionLevel, mode: EncodingMode): number {
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ours(text.slice(0, mid), version, level, mode) === 'overflow') hi = mid - 1;
    else lo = mid;
  }
  return lo;
}

/**
 * The versions compared by default: each side of every boundary where the symbol's layout or
 * coding changes (alignment pattern rows at 2, 7, 14, 21, 28, 35; version information from 7;
 * wider character counts from 10 and 27) and the largest. TEST_FULL_SAMPLES=1: all 40.
 */
const CI_VERSIONS = [1, 2, 6, 7, 9, 10, 13, 14, 20, 21, 26, 27, 28, 34, 35, 40];

describe('our encoder makes the same matrix as qrcode-generator', () => {
  const next = randomUnit(40);
  const filler = Object.fromEntries(MODES.map((mode) => [mode, randomText(next, CHARSETS[mode], 7100)])) as Record<
    (typeof MODES)[number],
    string
  >;

  it.each(FULL_SAMPLES ? Array.from({ length: 40 }, (_, i) => i + 1) : CI_VERSIONS)(
    'version %i, every level and mode, filled to capacity and one past it',
    (version) => {
      for (const level of LEVELS) {
        for (const mode of MODES) {
          const fits = longestFitting(filler[mode], version, level, mode);
          expect(fits, `${mode} ${level} version ${version} holds something`).toBeGreaterThan(0);
          const full = expectSame(filler[mode].slice(0, fits), version, level, mode);
          expect(typeof full === 'object' && full.count).toBe(version * 4 + 17);
          expectSame(filler[mode].slice(0, fits + 1), version, level, mode);
          expect(ours(filler[mode].slice(0, fits + 1), version, level, mode)).toBe('overflow');
        }
      }
    },
    30_000,
  );

  it('random data, version chosen automatically; every mask occurs', () => {
    const next = randomUnit(7);
    const masks = new Set<number>();
    const versions = new Set<number>();
    for (let i = 0; i < 600; i++) {
      const mode = MODES[Math.floor(next() * MODES.length)]!;
      const level = LEVELS[Math.floor(next() * LEVELS.length)]!;
      // Mostly short (our short URLs are ~30 characters), sometimes up to a few hundred
      const length = 1 + Math.floor(next() < 0.8 ? next() * 60 : next() * 400);
      const out = expectSame(randomText(next, CHARSETS[mode], length), 0, level, mode);
      if (typeof out === 'object') {
        masks.add(maskOf(out));
        versions.add((out.count - 17) / 4);
      }
    }
    expect([...masks].sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(versions.size).toBeGreaterThan(10);
  }, 60_000);

  it('short URLs like ours at every level, fixed and automatic version', () => {
    for (let i = 0; i < 50; i++) {
      const url = `http://localhost:3001/${randomText(randomUnit(i), CHARSETS.Byte.slice(0, 62), 7)}`;
      for (const level of LEVELS) for (const version of [0, 5, 10]) expectSame(url, version, level, 'Byte');
    }
  });

  it('ties for the lowest penalty go to the first mask', () => {
    // Found by searching short URLs: in each, two masks share the lowest penalty (about 1 code in 3,600)
    const ties: Array<[ErrorCorrectionLevel, string]> = [
      ['L', '5Gq2000'],
      ['Q', 'zD25000'],
      ['Q', 'jqc8100'],
      ['M', 'ZuOG100'],
      ['M', 'dCah200'],
      ['L', 'bsfu200'],
    ];
    for (const [level, slug] of ties) expectSame(`http://localhost:3001/${slug}`, 0, level, 'Byte');
  });

  it('edge cases: empty data, one character, non-Latin-1 and control characters in Byte mode', () => {
    for (const level of LEVELS) {
      for (const mode of MODES) {
        expectSame('', 0, level, mode);
        expectSame(CHARSETS[mode][1]!, 0, level, mode);
      }
      expectSame('http://localhost:3001/Ab3xY9z?q=äöü€', 0, level, 'Byte');
      expectSame('中文 \u0000\r\n\t\uffff\ud83d\ude00', 0, level, 'Byte');
      expectSame('1234567890'.repeat(30), 0, level, 'Byte');
    }
  });
});

describe('refusals match qrcode-generator', () => {
  it('Kanji mode is refused (qrcode-generator has no Shift_JIS table), even for data that is too long', () => {
    expect(expectSame('友', 0, 'M', 'Kanji')).toBe('unencodable');
    expect(expectSame('友'.repeat(5000), 1, 'H', 'Kanji')).toBe('unencodable');
  });

  it('characters a mode cannot encode, before any length check', () => {
    expect(expectSame('12a4', 0, 'L', 'Numeric')).toBe('unencodable');
    expect(expectSame('١٢٣', 0, 'L', 'Numeric')).toBe('unencodable');
    expect(expectSame('HTTP://EXAMPLE.COM/a', 0, 'L', 'Alphanumeric')).toBe('unencodable');
    expect(expectSame('A_B', 0, 'L', 'Alphanumeric')).toBe('unencodable');
    expect(expectSame(`${'1'.repeat(8000)}x`, 1, 'H', 'Numeric')).toBe('unencodable');
  });

  it('data too long for the version, or for any version', () => {
    expect(expectSame('http://localhost:3001/Ab3xY9z', 1, 'Q', 'Byte')).toBe('overflow');
    expect(expectSame('x'.repeat(1300), 0, 'H', 'Byte')).toBe('overflow');
    expect(expectSame('1'.repeat(7090), 0, 'L', 'Numeric')).toBe('overflow');
    expect(expectSame('1'.repeat(7089), 0, 'L', 'Numeric')).not.toBe('overflow');
  });
});
