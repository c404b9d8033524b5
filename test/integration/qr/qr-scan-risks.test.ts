/**
 * The designer's scan-risk thresholds (domain/qr/print/risks.ts) against real decoding: designs
 * drawn by the server's renderer to PNG. What the rules leave unflagged reads (jsQR, or zbar where
 * zbar-tools is installed, as a phone would); what they flag already fails jsQR, a phone-grade
 * decoder, on a perfect picture. zbar still reads a clean low-contrast render, but a camera adds
 * blur and glare that such a picture lacks, so it is not the measure for a warning.
 */
import { describe, expect, it } from 'vitest';
import { scanRisks } from '#domain/qr/print/risks.js';
import { withQrDefaults, type QrOptions } from '#domain/qr/options.js';
import { computeLayout } from '#domain/qr/render/layout.js';
import { makeMatrix } from '#domain/qr/render/matrix.js';
import { renderPng, type QrImage } from '#domain/qr/render/index.js';
import { decodePng, decodesAll, makeLogoPng, QUIET_ZONE } from '../../support/qr-reference.js';

const DATA = 'https://qr.example/AbC123';
const LOGO: QrImage = { data: makeLogoPng(64, 64), contentType: 'image/png', width: 64, height: 64 };
const mono = (color: string): QrOptions => ({ dotsOptions: { color }, cornersSquareOptions: { color }, cornersDotOptions: { color } });

function check(options: QrOptions, logo: QrImage | null = null) {
  const opts = withQrDefaults(options, DATA);
  const warned = scanRisks(opts, computeLayout(opts, makeMatrix(opts).count, logo)).some((r) => r.level === 'warning');
  return { warned, png: renderPng(opts, logo) };
}

describe('scan-risk thresholds against the decoders', () => {
  const cases: Array<{ name: string; options: QrOptions; logo?: QrImage; risky: boolean }> = [
    { name: 'the default design', options: {}, risky: false },
    { name: 'grey #949494 on white (3.0:1, just over the threshold)', options: mono('#949494'), risky: false },
    { name: 'grey #bbbbbb on white (1.9:1)', options: mono('#bbbbbb'), risky: true },
    { name: 'grey #dddddd on white (1.4:1)', options: mono('#dddddd'), risky: true },
    { name: 'white on black (inverted)', options: { ...mono('white'), backgroundOptions: { color: 'black' } }, risky: true },
    {
      name: 'a logo at half of level Q',
      options: { qrOptions: { errorCorrectionLevel: 'Q' }, imageOptions: { imageSize: 0.5, hideBackgroundDots: true } },
      logo: LOGO,
      risky: false,
    },
    {
      name: 'a logo at 60 % of level Q',
      options: { qrOptions: { errorCorrectionLevel: 'Q' }, imageOptions: { imageSize: 0.6, hideBackgroundDots: true } },
      logo: LOGO,
      risky: true,
    },
    {
      name: 'a logo at 60 % of level M',
      options: { qrOptions: { errorCorrectionLevel: 'M' }, imageOptions: { imageSize: 0.6 } },
      logo: LOGO,
      risky: true,
    },
    {
      name: 'a logo at all of level H',
      options: { qrOptions: { errorCorrectionLevel: 'H' }, imageOptions: { imageSize: 1 } },
      logo: LOGO,
      risky: true,
    },
  ];

  it.each(cases)('$name: flagged exactly when a phone-grade decoder fails it', async ({ options, logo, risky }) => {
    const { warned, png } = check(options, logo ?? null);
    expect(warned).toBe(risky);
    if (risky) expect([decodePng(png), decodePng(png, QUIET_ZONE)]).not.toContain(DATA);
    else expect(await decodesAll([png], DATA)).toEqual([true]);
  });
});
