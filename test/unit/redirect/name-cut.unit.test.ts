/**
 * Names cut to a length (ZIP entries and the manifest, download names, stored file names) are cut
 * by code points: a character outside the Basic Multilingual Plane is kept whole or left out,
 * never split into a lone surrogate.
 */
import { describe, expect, it } from 'vitest';
import { zipEntryName } from '#domain/bulk/bulk.js';
import { firstCodePoints } from '#platform/format/text.js';
import { downloadName } from '#redirect/pages/common/download-name.js';

/** In unicode mode a well-formed pair is one code point, so `\p{Cs}` only meets lone halves. */
const hasLoneSurrogate = (s: string) => /\p{Cs}/u.test(s);

describe('firstCodePoints', () => {
  it('counts a surrogate pair as one character', () => {
    expect(firstCodePoints('a😀b😀', 2)).toBe('a😀');
    expect(firstCodePoints('😀😀😀', 2)).toBe('😀😀');
    expect(firstCodePoints('abc', 10)).toBe('abc');
    expect(firstCodePoints('abc', 0)).toBe('');
  });

  it('never leaves a lone surrogate, at any length and offset', () => {
    const text = `a${'𝒜😀'.repeat(40)}`;
    for (let max = 0; max <= 90; max++) {
      const cut = firstCodePoints(text, max);
      expect(hasLoneSurrogate(cut), `max ${max}`).toBe(false);
      expect([...cut]).toHaveLength(Math.min(max, [...text].length));
    }
  });
});

describe('names cut for files', () => {
  it('a ZIP entry keeps 60 whole characters of an astral name', () => {
    // An odd number of UTF-16 units before the cut: a cut by units would split the 30th pair.
    const entry = zipEntryName(`a${'𝒜'.repeat(70)}`, 'W5q0dNw');
    expect(hasLoneSurrogate(entry)).toBe(false);
    expect(entry).toBe(`a${'𝒜'.repeat(59)}-W5q0dNw`);
  });

  it('a download name keeps 80 whole characters', () => {
    const name = downloadName(`a${'😀'.repeat(100)}`, 'contact', 'vcf');
    expect(hasLoneSurrogate(name)).toBe(false);
    expect(name).toBe(`a${'😀'.repeat(79)}.vcf`);
  });
});
