/** The QR designer's pure parts: scan-risk rules, controls ↔ options, the in-browser render matching the server's. */
import { describe, expect, it } from 'vitest';
import { errorsUnder } from '#console/src/fields/errors.js';
import { downloadName } from '#console/src/qr/download-name.js';
import {
  decodeDataUri,
  fillControls,
  logoFileProblem,
  MAX_LOGO_BYTES,
  renderDesign,
  storedOptions,
  withFill,
  withSection,
} from '#console/src/qr/design.js';
import {
  BACKGROUND_COLOURS,
  CODE_COLOURS,
  codeColour,
  DEFAULT_DESIGN,
  designOf,
  hasLook,
  LOOKS,
  styleSample,
  withBackgroundColour,
  withCodeColour,
  withLook,
} from '#console/src/qr/looks.js';
import { MIN_CONTRAST, scanRisks } from '#domain/qr/print/risks.js';
import { marginFor } from '#domain/qr/print/quiet-zone.js';
import { contrastRatio } from '#domain/colour-contrast.js';
import { parseCssColor } from '#domain/qr/css-color.js';
import { withQrDefaults, type QrOptions } from '#domain/qr/options.js';
import { computeLayout } from '#domain/qr/render/layout.js';
import { makeMatrix } from '#domain/qr/render/matrix.js';
import { renderSvg } from '#domain/qr/render/index.js';

const DATA = 'https://qr.example/AbC123';
const rgb = (c: string) => parseCssColor(c)!;

function risksOf(options: QrOptions, logo: { width: number; height: number } | null = null) {
  const opts = withQrDefaults(options, DATA);
  return scanRisks(opts, computeLayout(opts, makeMatrix(opts).count, logo));
}
const warnings = (options: QrOptions, logo: { width: number; height: number } | null = null) =>
  risksOf(options, logo)
    .filter((r) => r.level === 'warning')
    .map((r) => r.text);

describe('contrast', () => {
  it('is the WCAG ratio', () => {
    expect(contrastRatio(rgb('black'), rgb('white'))).toBeCloseTo(21, 5);
    expect(contrastRatio(rgb('white'), rgb('white'))).toBe(1);
    expect(contrastRatio(rgb('#777777'), rgb('white'))).toBeCloseTo(4.48, 2);
    expect(contrastRatio(rgb('white'), rgb('#777777'))).toBeCloseTo(4.48, 2);
  });
});

describe('scan risks', () => {
  it('the default design has no warning', () => {
    expect(warnings({})).toEqual([]);
  });

  it('warns about low contrast per layer, naming the ratio and what to change', () => {
    const w = warnings({ dotsOptions: { color: '#bbbbbb' } });
    expect(w).toHaveLength(1);
    expect(w[0]).toMatch(
      /^The dots contrast 1\.9:1 with the background \(at least 3:1 is safe\): make the dots darker or the background lighter\.$/,
    );
    expect(warnings({ dotsOptions: { color: '#aaaaaa' } })[0]).toContain('2.3:1');
    // #949494 is just over 3:1 on white.
    expect(contrastRatio(rgb('#949494'), rgb('white'))).toBeGreaterThan(MIN_CONTRAST);
    expect(warnings({ dotsOptions: { color: '#949494' } })).toEqual([]);
    expect(warnings({ cornersSquareOptions: { color: 'yellow' } })[0]).toMatch(/^The corner squares contrast/);
  });

  it('checks every gradient stop against every background stop', () => {
    const gradient = (a: string, b: string) => ({
      type: 'linear' as const,
      colorStops: [
        { offset: 0, color: a },
        { offset: 1, color: b },
      ],
    });
    expect(warnings({ dotsOptions: { gradient: gradient('black', '#1d4ed8') } })).toEqual([]);
    expect(warnings({ dotsOptions: { gradient: gradient('black', '#dddddd') } })[0]).toMatch(/^The dots contrast/);
    expect(warnings({ backgroundOptions: { gradient: gradient('white', '#333333') } })[0]).toMatch(/^The dots contrast/);
  });

  it('warns about a light code on a dark background', () => {
    const w = warnings({
      dotsOptions: { color: 'white' },
      cornersSquareOptions: { color: 'white' },
      cornersDotOptions: { color: 'white' },
      backgroundOptions: { color: '#111111' },
    });
    expect(w).toEqual([
      'The code is lighter than its background: many phone scanners cannot read inverted codes. Use dark dots on a light background.',
    ]);
  });

  it('warns about transparent dots, and reads a transparent background as white paper', () => {
    expect(warnings({ dotsOptions: { color: 'transparent' } })).toEqual([
      'The dots are transparent or nearly so and may not show at all: give them an opaque dark colour.',
    ]);
    expect(warnings({ backgroundOptions: { color: 'transparent' } })).toEqual([]);
    expect(warnings({ dotsOptions: { color: 'rgb(0 0 0 / 30%)' } })[0]).toMatch(/transparent/);
  });

  it('warns when the logo takes over half of what the error correction level recovers', () => {
    const square = { width: 64, height: 64 };
    expect(warnings({ image: 'data:image/png;base64,AAAA', imageOptions: { imageSize: 0.5 } }, square)).toEqual([]);
    const w = warnings({ imageOptions: { imageSize: 0.8 }, qrOptions: { errorCorrectionLevel: 'M' } }, square);
    expect(w).toHaveLength(1);
    expect(w[0]).toMatch(
      /^The logo covers \d+ % of the code, \d+ % of what error correction M can recover \(15 %\); keep it under half: make the logo smaller or raise the error correction level\.$/,
    );
    expect(warnings({ imageOptions: { imageSize: 1 }, qrOptions: { errorCorrectionLevel: 'H' } }, square)[0]).toMatch(
      /make the logo smaller\.$/,
    );
    // No logo drawn, no logo risk.
    expect(warnings({ imageOptions: { imageSize: 1 } }, null)).toEqual([]);
  });

  it('notes a quiet zone under 4 modules, and not one of 4 or more', () => {
    const notes = (o: QrOptions) =>
      risksOf(o)
        .filter((r) => r.level === 'note')
        .map((r) => r.text);
    expect(notes({})[0]).toMatch(/^The space around the code is 2(\.\d)? modules wide; the QR standard asks for 4\./);
    expect(notes({ margin: 40 })).toEqual([]);
  });
});

/** Short URLs of every length a link may have, and longer data: codes from version 1 up. */
const DATA_OF_EVERY_SIZE = [1, 10, 20, 26, 30, 40, 60, 90, 150, 300, 700].map((n) => `https://q.example/${'x'.repeat(n)}`);

describe('the designer’s default design and looks', () => {
  it('the default raises no risk at all, not even the quiet-zone note the API’s own default gets', () => {
    // The API's default margin (8 px on 300) leaves about 2 modules: a note. The designer's does not.
    expect(risksOf({}).map((r) => r.level)).toEqual(['note']);
    for (const data of DATA_OF_EVERY_SIZE) {
      const rendered = renderDesign(DEFAULT_DESIGN, data, null);
      expect(rendered.ok && rendered.risks, data).toEqual([]);
    }
    expect(designOf(null)).toEqual(DEFAULT_DESIGN);
    // A stored design is shown as stored, even the API's defaults.
    expect(designOf({ qr_options: {} })).toEqual({});
    expect(designOf({ qr_options: { dotsOptions: { type: 'nope' } } })).toEqual({});
  });

  it('each look passes every check, at any size and outline, and is recognised once applied', () => {
    expect(LOOKS.map((l) => l.name)).toEqual(['Classic', 'Rounded', 'Dots', 'Brand colour', 'High contrast for print']);
    for (const look of LOOKS) {
      for (const base of [{}, { width: 512, height: 512 }, { width: 1000, height: 800 }, { shape: 'circle' as const }]) {
        const design = withLook(base, look);
        expect(hasLook(design, look), look.name).toBe(true);
        for (const data of DATA_OF_EVERY_SIZE) {
          const rendered = renderDesign(design, data, null);
          expect(rendered.ok && rendered.risks, `${look.name} ${JSON.stringify(base)} ${data.length}`).toEqual([]);
        }
      }
    }
    expect(withLook({}, LOOKS[4]!).qrOptions?.errorCorrectionLevel).toBe('H');
  });

  it('a look keeps the logo, the size and the error correction, and drops gradients', () => {
    const logo = 'data:image/png;base64,iVBORw0KGgo=';
    const design: QrOptions = {
      image: logo,
      imageOptions: { imageSize: 0.3, hideBackgroundDots: true },
      width: 600,
      height: 600,
      qrOptions: { errorCorrectionLevel: 'H', typeNumber: 7 },
      dotsOptions: { gradient: { type: 'radial', colorStops: [{ offset: 0, color: 'red' }] } },
    };
    const applied = withLook(design, LOOKS[1]!);
    expect(applied).toMatchObject({
      image: logo,
      imageOptions: { imageSize: 0.3, hideBackgroundDots: true },
      width: 600,
      qrOptions: { errorCorrectionLevel: 'H', typeNumber: 7 },
      dotsOptions: { type: 'rounded' },
    });
    expect(applied.dotsOptions?.gradient).toBeUndefined();
    // Changing what a look sets is no longer that look.
    expect(hasLook(withCodeColour(applied, '#7f1d1d'), LOOKS[1]!)).toBe(false);
    expect(hasLook({ ...applied, margin: 0 }, LOOKS[1]!)).toBe(false);
  });

  it('leaves at least the asked modules of quiet zone around codes of every version', () => {
    for (const side of [300, 512, 1024]) {
      const margin = marginFor({ width: side, height: side }, 4);
      for (let count = 21; count <= 177; count += 4) {
        const opts = withQrDefaults({ width: side, height: side, margin }, DATA);
        const layout = computeLayout(opts, count, null);
        expect(Math.min(layout.x0, layout.y0) / layout.dotSize, `${side} px, ${count} modules`).toBeGreaterThanOrEqual(4);
      }
      // And it is the smallest such margin.
      const less = withQrDefaults({ width: side, height: side, margin: margin - 1 }, DATA);
      const short = [];
      for (let count = 21; count <= 177; count += 4) {
        const layout = computeLayout(less, count, null);
        if (Math.min(layout.x0, layout.y0) < 4 * layout.dotSize) short.push(count);
      }
      expect(short.length, `${side} px`).toBeGreaterThan(0);
    }
  });

  it('every code swatch on every background swatch is well over the contrast check', () => {
    for (const [, code] of CODE_COLOURS) {
      for (const [, background] of BACKGROUND_COLOURS) {
        expect(contrastRatio(rgb(code), rgb(background)), `${code} on ${background}`).toBeGreaterThanOrEqual(4.5);
        const rendered = renderDesign(withBackgroundColour(withCodeColour(DEFAULT_DESIGN, code), background), DATA, null);
        expect(rendered.ok && rendered.risks).toEqual([]);
      }
    }
  });

  it('the code colour is one solid colour of dots and corners, or none', () => {
    expect(codeColour({})).toBe('#000000');
    expect(codeColour(withCodeColour({ dotsOptions: { type: 'dots' } }, '#1d4ed8'))).toBe('#1d4ed8');
    expect(withCodeColour({ dotsOptions: { type: 'dots' } }, '#1d4ed8').dotsOptions).toEqual({ type: 'dots', color: '#1d4ed8' });
    expect(codeColour({ cornersDotOptions: { color: 'red' } })).toBeNull();
    expect(codeColour({ dotsOptions: { gradient: { type: 'linear', colorStops: [{ offset: 0, color: 'black' }] } } })).toBeNull();
  });

  it('draws each style’s sample with the renderer, in the text colour, cropped to the part it shows', () => {
    const dots = styleSample('dotsOptions', 'dots');
    expect(dots).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="[\d. ]+" aria-hidden="true" focusable="false">/);
    expect(dots).toContain('fill="currentColor"');
    expect(dots).not.toMatch(/fill="#/);
    expect(dots).not.toBe(styleSample('dotsOptions', 'square'));
    // A corner's sample shows the finder: the other corner part faint.
    expect(styleSample('cornersSquareOptions', 'dot')).toContain('fill="currentColor" fill-opacity="0.3"');
  });
});

describe('designer controls', () => {
  it('a fill round-trips through its controls; solid drops the gradient', () => {
    const linear = withFill({ dotsOptions: { type: 'dots' } }, 'dotsOptions', {
      mode: 'linear',
      color: '#000000',
      from: '#ff0000',
      to: '#0000ff',
      degrees: 90,
    });
    expect(linear.dotsOptions).toEqual({
      type: 'dots',
      gradient: {
        type: 'linear',
        rotation: Math.PI / 2,
        colorStops: [
          { offset: 0, color: '#ff0000' },
          { offset: 1, color: '#0000ff' },
        ],
      },
    });
    expect(fillControls(linear, 'dotsOptions')).toMatchObject({ mode: 'linear', from: '#ff0000', to: '#0000ff', degrees: 90 });
    const solid = withFill(linear, 'dotsOptions', { ...fillControls(linear, 'dotsOptions'), mode: 'solid', color: '#123456' });
    expect(solid.dotsOptions).toEqual({ type: 'dots', color: '#123456' });
    expect(fillControls({}, 'backgroundOptions')).toMatchObject({ mode: 'solid', color: 'white' });
  });

  it('sets members of one section and keeps the rest', () => {
    expect(withSection({ imageOptions: { margin: 4 } }, 'imageOptions', { imageSize: 0.3 })).toEqual({
      imageOptions: { margin: 4, imageSize: 0.3 },
    });
  });

  it('places API errors under the options prefix at the designer fields', () => {
    expect(errorsUnder({ name: 'Name is required', 'qrOptions.dotsOptions.color': 'Must be a CSS color or hex' }, 'qrOptions')).toEqual({
      'dotsOptions.color': 'Must be a CSS color or hex',
    });
  });

  it('names downloads after the design', () => {
    expect(downloadName('Café Menu #1', 512, 'png')).toBe('cafe-menu-1-512.png');
    expect(downloadName('***', 256, 'svg')).toBe('qr-code-256.svg');
  });

  it('accepts logo files by type and size', () => {
    expect(logoFileProblem({ type: 'image/png', size: 1000 })).toBeNull();
    expect(logoFileProblem({ type: 'application/pdf', size: 1000 })).toBe('The logo must be a PNG, JPEG, GIF, WebP or SVG image.');
    expect(logoFileProblem({ type: 'image/png', size: MAX_LOGO_BYTES + 1 })).toMatch(/^The logo is 1\.5 MB; at most 1\.5 MB fits/);
    expect(decodeDataUri('data:image/png;base64,AQID')).toEqual({ contentType: 'image/png', data: new Uint8Array([1, 2, 3]) });
    expect(decodeDataUri('https://example.com/logo.png')).toBeNull();
  });

  it('reads stored options, or null when they no longer validate', () => {
    expect(storedOptions({ margin: 4 })).toEqual({ margin: 4 });
    expect(storedOptions({ margin: 'wide' })).toBeNull();
  });
});

describe('the in-browser render', () => {
  it('is the server renderer: the same SVG, sizes as ?size= sets them', () => {
    const options: QrOptions = {
      dotsOptions: {
        type: 'dots',
        gradient: {
          type: 'radial',
          colorStops: [
            { offset: 0, color: 'navy' },
            { offset: 1, color: 'black' },
          ],
        },
      },
      margin: 12,
    };
    const rendered = renderDesign(options, DATA, null);
    expect(rendered.ok && rendered.svg).toBe(renderSvg(withQrDefaults(options, DATA)));
    const big = renderDesign(options, DATA, null, 1024);
    expect(big.ok && big.svg).toBe(renderSvg({ ...withQrDefaults(options, DATA), width: 1024, height: 1024 }));
  });

  it('answers the API schema errors and render errors at their option path', () => {
    expect(renderDesign({ dotsOptions: { color: 'bluish' } }, DATA, null)).toEqual({
      ok: false,
      errors: { 'dotsOptions.color': 'Must be a CSS color or hex' },
    });
    expect(renderDesign({ margin: 150 }, DATA, null)).toMatchObject({
      ok: false,
      errors: { margin: expect.stringMatching(/less than one pixel per module/) },
    });
  });
});
