import { describe, expect, it } from 'vitest';
import { FRAME_STYLES, FRAME_TEXT_MAX, frameTextSchema, qrOptionsSchema, withQrDefaults } from '#domain/qr/options.js';
import { missingCharacters } from '#platform/fonts/outline-text.js';
import { FRAME_FONT, fitText } from '#domain/qr/print/frame-text.js';
import { FRAME_LANGUAGES, defaultFrameText, frameLanguageOf } from '#domain/qr/print/frames.js';

describe('frameOptions in qr_options', () => {
  it('takes every style, with or without text and colours', () => {
    for (const style of FRAME_STYLES) {
      expect(qrOptionsSchema.safeParse({ frameOptions: { style } }).success).toBe(true);
      expect(qrOptionsSchema.safeParse({ frameOptions: { style, text: 'Scan me', color: '#123456', textColor: 'white' } }).success).toBe(
        true,
      );
    }
  });

  it('without a frame, the resolved options have no frameOptions key (old ETags unchanged)', () => {
    expect('frameOptions' in withQrDefaults({}, 'x')).toBe(false);
    expect(withQrDefaults({ frameOptions: { style: 'ticket' } }, 'x').frameOptions).toEqual({ style: 'ticket' });
  });

  it.each([
    ['a 40-character text, counted in code points', 'é'.repeat(FRAME_TEXT_MAX), true],
    ['40 astral characters (80 UTF-16 units)', '𝐀'.repeat(FRAME_TEXT_MAX), true],
    ['41 characters', 'x'.repeat(FRAME_TEXT_MAX + 1), false],
    ['empty', '', false],
    ['blank', '   ', false],
    ['a line break', 'Scan\nme', false],
    ['a NUL', 'Scan\u0000me', false],
    ['DEL', 'Scan\u007fme', false],
    ['a C1 control (NEL)', 'Scan\u0085me', false],
    ['a number', 42, false],
  ])('text: %s → %s', (_, text, ok) => {
    expect(frameTextSchema.safeParse(text).success).toBe(ok);
  });

  it('is strict: an unknown member or style is an error', () => {
    expect(qrOptionsSchema.safeParse({ frameOptions: { style: 'ticket', font: 'Arial' } }).success).toBe(false);
    expect(qrOptionsSchema.safeParse({ frameOptions: { style: 'wavy' } }).success).toBe(false);
    expect(qrOptionsSchema.safeParse({ frameOptions: { text: 'no style' } }).success).toBe(false);
    expect(qrOptionsSchema.safeParse({ frameOptions: { style: 'ticket', color: 'blurple' } }).success).toBe(false);
  });
});

describe('frame text', () => {
  it('the font draws every default text, and names what it cannot draw', () => {
    for (const language of FRAME_LANGUAGES) {
      for (const style of FRAME_STYLES) expect(missingCharacters(FRAME_FONT, defaultFrameText(style, language))).toEqual([]);
    }
    expect(missingCharacters(FRAME_FONT, 'Привет Γειά Tiếng Việt ß')).toEqual([]);
    expect(missingCharacters(FRAME_FONT, 'Scan 😀 שלום \u202E')).toEqual(['😀', 'ש', 'ל', 'ו', 'ם', '\u202E']);
  });

  it('long text shrinks to its band, short text stops at the cap height', () => {
    const band = { x: 10, y: 0, width: 200, height: 40 };
    const short = fitText('Hi', band, 10);
    const long = fitText('Scannen Sie für die Speisekarte, bitte!', band, 10);
    expect(short.size).toBeCloseTo(10 / (1490 / 2048), 5);
    expect(long.size).toBeLessThan(short.size);
    // Shrunk to the band's width and centred in it, so it starts inside the band.
    expect(long.x).toBeGreaterThanOrEqual(band.x - 0.01);
  });

  it('a page language picks its default; another language falls back to English', () => {
    expect(frameLanguageOf('pt-BR')).toBe('pt');
    expect(frameLanguageOf('DE')).toBe('de');
    expect(frameLanguageOf('it')).toBe('en');
    expect(frameLanguageOf(null)).toBe('en');
    expect(defaultFrameText('table-tent', 'fr')).toBe('Scannez pour voir le menu');
  });
});
