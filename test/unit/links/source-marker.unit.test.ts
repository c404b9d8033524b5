/**
 * The source marker costs a typical code nothing: at the default error correction level (Q), a
 * 7-character slug on short-link hosts of every usual length encodes in the same QR version with
 * `?q` as without it, so a code printed at the same size has modules just as big. The figures for
 * other levels and slug lengths are in docs/decisions/0428-qr-source-marker.md.
 */
import { describe, expect, it } from 'vitest';
import { markedShortUrl, SOURCE_MARKER } from '#domain/links/source-marker.js';
import { attributionOf, referrerHostOf } from '#domain/links/attribution.js';
import { QR_DEFAULTS } from '#domain/qr/options.js';
import { encodeQr } from '#domain/qr/render/encoder.js';

const versionOf = (text: string, level = QR_DEFAULTS.qrOptions.errorCorrectionLevel) => (encodeQr(text, 0, level, 'Byte').count - 17) / 4;

describe('the source marker', () => {
  it('is `?q`, and `?q=<code>` for a placement', () => {
    expect(SOURCE_MARKER).toBe('q');
    expect(markedShortUrl('https://qrl.ink/aB3xY9k')).toBe('https://qrl.ink/aB3xY9k?q');
    expect(markedShortUrl('https://qrl.ink/aB3xY9k', '1')).toBe('https://qrl.ink/aB3xY9k?q=1');
  });

  it.each(['https://qrl.ink', 'https://go.aroma.pt', 'https://links.example.com', 'http://localhost:3001', 'https://qr.mycafe-lisboa.com'])(
    'keeps the QR version of a 7-character slug on %s at the default level',
    (base) => {
      const url = `${base}/aB3xY9k`;
      expect(QR_DEFAULTS.qrOptions.errorCorrectionLevel).toBe('Q');
      expect(versionOf(markedShortUrl(url))).toBe(versionOf(url));
    },
  );
});

describe("a scan's source", () => {
  const link = { unmarkedCodes: false, placements: { '1': 'placement-1' } };

  it('is qr with the marker, of the placement its code names; an unknown code is no placement', () => {
    expect(attributionOf(link, '')).toEqual({ source: 'qr', placementId: null });
    expect(attributionOf(link, '1')).toEqual({ source: 'qr', placementId: 'placement-1' });
    expect(attributionOf(link, 'zz')).toEqual({ source: 'qr', placementId: null });
    // `?q=1&q=2`: the first.
    expect(attributionOf(link, ['1', '2'])).toEqual({ source: 'qr', placementId: 'placement-1' });
    // Not own properties of the map: a code is never an inherited name.
    expect(attributionOf(link, 'constructor')).toEqual({ source: 'qr', placementId: null });
  });

  it('is link without it, or unknown when the link has codes printed before markers', () => {
    expect(attributionOf(link, undefined)).toEqual({ source: 'link', placementId: null });
    expect(attributionOf({ ...link, unmarkedCodes: true }, undefined)).toEqual({ source: null, placementId: null });
  });
});

describe('the referrer host', () => {
  it('keeps the host alone, lower case, and nothing that is not an http(s) URL', () => {
    expect(referrerHostOf('https://Chat.Example/room/42?token=secret')).toBe('chat.example');
    expect(referrerHostOf('http://news.example:8080/a')).toBe('news.example');
    expect(referrerHostOf(undefined)).toBeNull();
    expect(referrerHostOf('')).toBeNull();
    expect(referrerHostOf('android-app://com.google.android.gm/')).toBeNull();
    expect(referrerHostOf('not a url')).toBeNull();
    expect(referrerHostOf(`https://${'a'.repeat(5000)}.example/`)).toBeNull();
  });
});
