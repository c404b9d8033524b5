import { describe, it, expect } from 'vitest';
import { CSS_COLOR_NAMES, isCssColor, parseCssColor } from '#domain/qr/css-color.js';
import {
  QR_DEFAULTS,
  QR_MAX_COLOR_STOPS,
  QR_MAX_IMAGE_CHARS,
  qrOptionsSchema,
  withQrDefaults,
  type QrOptions,
} from '#domain/qr/options.js';

describe('parseCssColor', () => {
  it.each([
    ['#f00', { r: 255, g: 0, b: 0, a: 1 }],
    ['#F0a8', { r: 255, g: 0, b: 170, a: 0x88 / 255 }],
    ['#1e90ff', { r: 30, g: 144, b: 255, a: 1 }],
    ['#1E90FF80', { r: 30, g: 144, b: 255, a: 128 / 255 }],
    ['#00000000', { r: 0, g: 0, b: 0, a: 0 }],
  ])('parses hex %j', (input, expected) => {
    expect(parseCssColor(input)).toEqual(expected);
  });

  it.each([
    ['rgb(255,0,0)', { r: 255, g: 0, b: 0, a: 1 }],
    ['rgb( 10 , 20 , 30 )', { r: 10, g: 20, b: 30, a: 1 }],
    ['rgba(255, 0, 0, .5)', { r: 255, g: 0, b: 0, a: 0.5 }],
    ['rgba(255, 0, 0, 25%)', { r: 255, g: 0, b: 0, a: 0.25 }],
    ['rgb(100%, 50%, 0%)', { r: 255, g: 128, b: 0, a: 1 }],
    ['rgb(255 128 0)', { r: 255, g: 128, b: 0, a: 1 }],
    ['rgb(255 128 0 / 0.3)', { r: 255, g: 128, b: 0, a: 0.3 }],
    ['rgba(1 2 3/40%)', { r: 1, g: 2, b: 3, a: 0.4 }],
    ['rgb(100% 0 50% / 1)', { r: 255, g: 0, b: 128, a: 1 }],
    ['rgb(12.4, 12.5, 12.6)', { r: 12, g: 13, b: 13, a: 1 }],
    ['rgb(300, -5, 1e2)', { r: 255, g: 0, b: 100, a: 1 }],
    ['rgba(0, 0, 0, 2)', { r: 0, g: 0, b: 0, a: 1 }],
    ['RGBA(0, 0, 0, -1)', { r: 0, g: 0, b: 0, a: 0 }],
    ['rgb(0, 0, 0, 0.5)', { r: 0, g: 0, b: 0, a: 0.5 }],
  ])('parses rgb %j', (input, expected) => {
    expect(parseCssColor(input)).toEqual(expected);
  });

  it.each([
    ['hsl(0, 100%, 50%)', { r: 255, g: 0, b: 0, a: 1 }],
    ['hsl(120, 100%, 25%)', { r: 0, g: 128, b: 0, a: 1 }],
    ['hsl(240deg, 100%, 50%)', { r: 0, g: 0, b: 255, a: 1 }],
    ['hsla(60, 100%, 50%, 0.5)', { r: 255, g: 255, b: 0, a: 0.5 }],
    ['hsl(0.5turn 100% 50%)', { r: 0, g: 255, b: 255, a: 1 }],
    ['hsl(200grad 100% 50%)', { r: 0, g: 255, b: 255, a: 1 }],
    ['hsl(3.141592653589793rad 100% 50%)', { r: 0, g: 255, b: 255, a: 1 }],
    ['hsl(300 100 50 / 20%)', { r: 255, g: 0, b: 255, a: 0.2 }],
    ['hsl(-120, 100%, 50%)', { r: 0, g: 0, b: 255, a: 1 }],
    ['hsl(480, 100%, 50%)', { r: 0, g: 255, b: 0, a: 1 }],
    ['hsl(0, 0%, 50%)', { r: 128, g: 128, b: 128, a: 1 }],
    ['hsl(30, 50%, 60%)', { r: 204, g: 153, b: 102, a: 1 }],
    ['hsl(0, -10%, 100%)', { r: 255, g: 255, b: 255, a: 1 }],
  ])('parses hsl %j', (input, expected) => {
    expect(parseCssColor(input)).toEqual(expected);
  });

  it('parses named colors case-insensitively and trimmed, and transparent', () => {
    expect(parseCssColor('black')).toEqual({ r: 0, g: 0, b: 0, a: 1 });
    expect(parseCssColor('  RebeccaPurple\n')).toEqual({ r: 102, g: 51, b: 153, a: 1 });
    expect(parseCssColor('LightGoldenrodYellow')).toEqual({ r: 250, g: 250, b: 210, a: 1 });
    expect(parseCssColor('grey')).toEqual(parseCssColor('gray'));
    expect(parseCssColor('transparent')).toEqual({ r: 0, g: 0, b: 0, a: 0 });
    expect(parseCssColor('\t#FFF ')).toEqual({ r: 255, g: 255, b: 255, a: 1 });
  });

  it('knows exactly the 148 CSS named colors', () => {
    expect(CSS_COLOR_NAMES).toHaveLength(148);
    expect(new Set(CSS_COLOR_NAMES).size).toBe(148);
    for (const name of CSS_COLOR_NAMES) expect(isCssColor(name)).toBe(true);
  });

  it.each([
    '',
    '   ',
    'notacolor',
    '#',
    '#12',
    '#12345',
    '#1234567',
    '#123456789',
    '#ggg',
    '# fff',
    'fff',
    'rgb(1,2)',
    'rgb(1,2,3,4,5)',
    'rgb(1, 2%, 3)', // legacy form cannot mix numbers and percentages
    'rgb(1,2,3 / 1)',
    'rgb(1 2, 3)',
    'rgb(1 2 3 4)',
    'rgb(1 2 3 / 1 / 1)',
    'rgb(1 2 3 /)',
    'rgb(1,2,)',
    'rgb (1,2,3)',
    'rgb(1,2,3',
    'rgb(5.,0,0)',
    'rgb(10deg, 0, 0)',
    'rgb(calc(1), 0, 0)',
    'hsl(120, 100, 50)', // legacy form needs percentages
    'hsl(120%, 100%, 50%)',
    'hsl(120 100% 50% / 1deg)',
    'hwb(0 0% 0%)',
    'currentcolor',
    'none',
    'red blue',
    'constructor',
    '__proto__',
    'red\u00a0',
  ])('rejects %j', (input) => {
    expect(parseCssColor(input)).toBeNull();
    expect(isCssColor(input)).toBe(false);
  });

  it('rejects non-strings handed in from untyped JSON', () => {
    const untyped: string = JSON.parse('42');
    expect(parseCssColor(untyped)).toBeNull();
  });
});

const gradient = (color: string) => ({
  type: 'linear' as const,
  rotation: Math.PI / 4,
  colorStops: [
    { offset: 0, color },
    { offset: 1, color: '#000000' },
  ],
});

const FULL: QrOptions = {
  width: 512,
  height: 512,
  type: 'svg',
  shape: 'circle',
  data: 'https://example.com',
  image: 'https://cdn.example.com/logo.png',
  margin: 10,
  qrOptions: { typeNumber: 7, mode: 'Byte', errorCorrectionLevel: 'H' },
  dotsOptions: { type: 'dots', color: '#123456', gradient: gradient('red'), roundSize: false },
  cornersSquareOptions: { type: 'extra-rounded', color: 'rgb(1, 2, 3)', gradient: gradient('blue') },
  cornersDotOptions: {
    type: 'dot',
    color: 'hsl(10 50% 50%)',
    gradient: { type: 'radial', colorStops: [{ offset: 0.5, color: 'green' }] },
  },
  backgroundOptions: { color: 'transparent', round: 1, gradient: gradient('white') },
  imageOptions: { hideBackgroundDots: true, imageSize: 0.3, margin: 4, crossOrigin: 'use-credentials', saveAsBlob: false },
};

function issuesOf(input: unknown) {
  const result = qrOptionsSchema.safeParse(input);
  expect(result.success).toBe(false);
  return result.error!.issues;
}

describe('qrOptionsSchema', () => {
  it('accepts a full object with gradients on all four parts, unchanged', () => {
    expect(qrOptionsSchema.parse(FULL)).toEqual(FULL);
  });

  it('accepts an empty object and null image', () => {
    expect(qrOptionsSchema.parse({})).toEqual({});
    expect(qrOptionsSchema.parse({ image: null })).toEqual({ image: null });
  });

  it('accepts the bounds themselves', () => {
    for (const ok of [
      { width: 16, height: 4096 },
      { margin: 0 },
      { margin: 1000 },
      { qrOptions: { typeNumber: 0 } },
      { qrOptions: { typeNumber: 40 } },
      { imageOptions: { imageSize: 0 } },
      { imageOptions: { imageSize: 1 } },
      { backgroundOptions: { round: 0.5 } },
    ]) {
      expect(qrOptionsSchema.safeParse(ok).success, JSON.stringify(ok)).toBe(true);
    }
  });

  it('accepts dot types for corners, as the library does', () => {
    expect(qrOptionsSchema.safeParse({ cornersSquareOptions: { type: 'classy-rounded' } }).success).toBe(true);
    expect(qrOptionsSchema.safeParse({ cornersDotOptions: { type: 'extra-rounded' } }).success).toBe(true);
  });

  it('accepts image data URIs', () => {
    for (const image of ['data:image/png;base64,iVBORw0KGgo=', 'DATA:image/svg+xml;base64,PHN2Zz4=', 'data:image/png;base64,iVBORw0KGg']) {
      expect(qrOptionsSchema.safeParse({ image }).success, image).toBe(true);
    }
  });

  it('rejects dotsOptions.type hexagon, listing the allowed values', () => {
    const [issue, ...rest] = issuesOf({ dotsOptions: { type: 'hexagon' } });
    expect(rest).toEqual([]);
    expect(issue!.path).toEqual(['dotsOptions', 'type']);
    expect(issue!.message).toBe('Must be one of: square, dots, rounded, extra-rounded, classy, classy-rounded');
  });

  it('rejects imageOptions.imageSize 2', () => {
    const [issue] = issuesOf({ imageOptions: { imageSize: 2 } });
    expect(issue!.path).toEqual(['imageOptions', 'imageSize']);
    expect(issue!.message).toBe('Must be a number between 0 and 1');
  });

  it('rejects margin -1 and 1001', () => {
    for (const margin of [-1, 1001]) {
      const [issue] = issuesOf({ margin });
      expect(issue!.path).toEqual(['margin']);
      expect(issue!.message).toBe('Must be a number between 0 and 1000');
    }
  });

  it('rejects typeNumber 41 and 1.5 with one issue each', () => {
    for (const typeNumber of [41, 1.5, -1]) {
      const issues = issuesOf({ qrOptions: { typeNumber } });
      expect(issues).toHaveLength(1);
      expect(issues[0]!.path).toEqual(['qrOptions', 'typeNumber']);
      expect(issues[0]!.message).toBe('Must be an integer between 0 and 40 (0 = auto-size)');
    }
  });

  it('rejects width/height outside 16..4096 or fractional', () => {
    for (const width of [15, 4097, 300.5, '300']) {
      const issues = issuesOf({ width });
      expect(issues).toHaveLength(1);
      expect(issues[0]!.message).toBe('Must be an integer between 16 and 4096');
    }
  });

  it('rejects an unknown member as unrecognized_keys at its object', () => {
    const [issue] = issuesOf({ dotsOptions: { foo: 1 } });
    expect(issue!.code).toBe('unrecognized_keys');
    expect(issue!.path).toEqual(['dotsOptions']);
    expect((issue as { keys: string[] }).keys).toEqual(['foo']);
  });

  it('rejects unknown members at the top and inside gradients', () => {
    expect(issuesOf({ colour: 'red' })[0]).toMatchObject({ code: 'unrecognized_keys', path: [] });
    const bad = { ...gradient('red'), angle: 1 };
    expect(issuesOf({ dotsOptions: { gradient: bad } })[0]).toMatchObject({
      code: 'unrecognized_keys',
      path: ['dotsOptions', 'gradient'],
    });
  });

  it('a gradient has at most 10 color stops', () => {
    const stops = (n: number) => Array.from({ length: n }, (_, i) => ({ offset: i / n, color: '#123456' }));
    expect(QR_MAX_COLOR_STOPS).toBe(10);
    expect(qrOptionsSchema.safeParse({ dotsOptions: { gradient: { type: 'linear', colorStops: stops(10) } } }).success).toBe(true);
    for (const n of [11, 6000]) {
      const [issue] = issuesOf({ backgroundOptions: { gradient: { type: 'linear', colorStops: stops(n) } } });
      expect(issue).toMatchObject({ path: ['backgroundOptions', 'gradient', 'colorStops'], message: 'Must have at most 10 color stops' });
    }
  });

  it('rejects members that only exist in-process', () => {
    expect(issuesOf({ jsdom: {} })[0]!.code).toBe('unrecognized_keys');
    expect(issuesOf({ nodeCanvas: {} })[0]!.code).toBe('unrecognized_keys');
  });

  it('rejects a bad color', () => {
    const [issue] = issuesOf({ cornersDotOptions: { color: 'notacolor' } });
    expect(issue!.path).toEqual(['cornersDotOptions', 'color']);
    expect(issue!.message).toBe('Must be a CSS color or hex');
    expect(issuesOf({ backgroundOptions: { color: 5 } })[0]!.message).toBe('Must be a CSS color or hex');
  });

  it('rejects a gradient stop with offset 2, a bad stop color, and no stops', () => {
    const offset = issuesOf({ dotsOptions: { gradient: { type: 'linear', colorStops: [{ offset: 2, color: 'red' }] } } });
    expect(offset[0]!.path).toEqual(['dotsOptions', 'gradient', 'colorStops', 0, 'offset']);
    expect(offset[0]!.message).toBe('Must be a number between 0 and 1');

    const color = issuesOf({ backgroundOptions: { gradient: { type: 'radial', colorStops: [{ offset: 0, color: 'nope' }] } } });
    expect(color[0]!.path).toEqual(['backgroundOptions', 'gradient', 'colorStops', 0, 'color']);

    const empty = issuesOf({ cornersSquareOptions: { gradient: { type: 'linear', colorStops: [] } } });
    expect(empty[0]!.path).toEqual(['cornersSquareOptions', 'gradient', 'colorStops']);
    expect(empty[0]!.message).toBe('Must have at least one color stop');

    const type = issuesOf({ dotsOptions: { gradient: { type: 'conic', colorStops: [{ offset: 0, color: 'red' }] } } });
    expect(type[0]!.message).toBe('Must be one of: linear, radial');
  });

  it('rejects image ftp://x and other non-image references', () => {
    for (const image of [
      'ftp://x',
      '',
      'logo.png',
      'javascript:alert(1)',
      ' https://x.com/a.png',
      'https://x.com/a b.png',
      'http://',
      'data:text/html;base64,PGI+',
      'data:image/png,rawbytes',
      'data:image/png;base64,',
      'data:image/png;base64,iVBORw0KG',
      'data:image/png;base64,iVBO=Rw0K',
    ]) {
      const [issue] = issuesOf({ image });
      expect(issue!.path, image).toEqual(['image']);
      expect(issue!.message).toBe('Must be null, an http(s) URL or a data:image/...;base64, URI');
    }
  });

  it('rejects an image over 2 MB', () => {
    const image = 'data:image/png;base64,' + 'A'.repeat(QR_MAX_IMAGE_CHARS);
    const issues = issuesOf({ image });
    expect(issues).toHaveLength(1);
    expect(issues[0]!.message).toBe('Must be at most 2097152 characters (2 MiB)');
  });

  it('rejects other enum values with their allowed list', () => {
    expect(issuesOf({ type: 'png' })[0]!.message).toBe('Must be one of: canvas, svg');
    expect(issuesOf({ qrOptions: { errorCorrectionLevel: 'X' } })[0]!.message).toBe('Must be one of: L, M, Q, H');
    expect(issuesOf({ imageOptions: { crossOrigin: 'foo' } })[0]!.message).toBe('Must be one of: anonymous, use-credentials');
    expect(issuesOf({ cornersDotOptions: { type: 'hexagon' } })[0]!.message).toBe(
      'Must be one of: square, dot, dots, rounded, extra-rounded, classy, classy-rounded',
    );
  });

  it('says "Must be an object" for a non-object section', () => {
    expect(issuesOf({ dotsOptions: 'red' })[0]).toMatchObject({ path: ['dotsOptions'], message: 'Must be an object' });
  });
});

describe('withQrDefaults', () => {
  it('fills everything with the API contract’s defaults and sets data', () => {
    expect(withQrDefaults({}, 'https://s.example/abc')).toEqual({
      width: 300,
      height: 300,
      type: 'canvas',
      shape: 'square',
      data: 'https://s.example/abc',
      image: null,
      margin: 8,
      qrOptions: { typeNumber: 0, mode: 'Byte', errorCorrectionLevel: 'Q' },
      dotsOptions: { type: 'classy-rounded', color: 'black', roundSize: true },
      cornersSquareOptions: { type: 'square', color: 'black' },
      cornersDotOptions: { type: 'square', color: 'black' },
      backgroundOptions: { color: 'white', round: 0 },
      imageOptions: { hideBackgroundDots: false, imageSize: 0.5, margin: 0, crossOrigin: 'anonymous', saveAsBlob: true },
    });
  });

  it('keeps every given value, including gradients, and overrides data', () => {
    expect(withQrDefaults(FULL, 'https://s.example/abc')).toEqual({ ...FULL, data: 'https://s.example/abc' });
  });

  it('merges partial sections member by member', () => {
    const parsed = qrOptionsSchema.parse({ width: undefined, dotsOptions: { color: 'red' }, imageOptions: { imageSize: 0 } });
    const resolved = withQrDefaults(parsed, 'x');
    expect(resolved.width).toBe(300);
    expect(resolved.dotsOptions).toEqual({ type: 'classy-rounded', color: 'red', roundSize: true });
    expect(resolved.imageOptions.imageSize).toBe(0);
    expect(resolved.imageOptions.margin).toBe(0);
    expect('gradient' in resolved.dotsOptions).toBe(false);
    expect('gradient' in resolved.backgroundOptions).toBe(false);
  });

  it('returns fresh objects and keeps QR_DEFAULTS frozen', () => {
    const a = withQrDefaults({}, 'x');
    a.dotsOptions.color = 'red';
    expect(withQrDefaults({}, 'x').dotsOptions.color).toBe('black');
    expect(QR_DEFAULTS.dotsOptions.color).toBe('black');
    expect(Object.isFrozen(QR_DEFAULTS.dotsOptions)).toBe(true);

    const opts: QrOptions = { dotsOptions: { gradient: gradient('red') } };
    const b = withQrDefaults(opts, 'x');
    b.dotsOptions.gradient!.colorStops[0]!.color = 'blue';
    expect(opts.dotsOptions!.gradient!.colorStops[0]!.color).toBe('red');
  });
});
