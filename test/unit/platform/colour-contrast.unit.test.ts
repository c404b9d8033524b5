/** The colour maths every page and the console share: hex colours, WCAG luminance and contrast. */
import { describe, expect, it } from 'vitest';
import { contrastRatio, hexToRgb, isHexColor, longHex, over, relativeLuminance, textColorOn } from '#domain/colour-contrast.js';

describe('hex colours', () => {
  it('takes #rgb and #rrggbb in any case, nothing else', () => {
    for (const ok of ['#fff', '#FFF', '#1a2B3c', '#000000']) expect(isHexColor(ok)).toBe(true);
    for (const bad of ['fff', '#ffff', '#fffffff', '#12345g', '#ff000080', 'red', '', ' #fff', null, undefined])
      expect(isHexColor(bad)).toBe(false);
  });

  it('reads the channels of the short and the long form alike', () => {
    expect(hexToRgb('#1a2B3c')).toEqual({ r: 0x1a, g: 0x2b, b: 0x3c });
    expect(hexToRgb('#f80')).toEqual({ r: 255, g: 0x88, b: 0 });
    expect(hexToRgb('#f80')).toEqual(hexToRgb('#ff8800'));
    expect(hexToRgb('orange')).toBeNull();
  });

  it('writes #rgb as #rrggbb, lowercase', () => {
    expect(longHex('#F80')).toBe('#ff8800');
    expect(longHex('#A1B2C3')).toBe('#a1b2c3');
  });
});

describe('relative luminance', () => {
  it('is 0 for black, 1 for white, about 0.2159 for middle grey', () => {
    expect(relativeLuminance('#000')).toBe(0);
    expect(relativeLuminance('#ffffff')).toBeCloseTo(1, 10);
    expect(relativeLuminance({ r: 128, g: 128, b: 128 })).toBeCloseTo(0.2159, 4);
  });

  it('weighs green most and blue least', () => {
    expect(relativeLuminance('#f00')).toBeCloseTo(0.2126, 4);
    expect(relativeLuminance('#0f0')).toBeCloseTo(0.7152, 4);
    expect(relativeLuminance('#00f')).toBeCloseTo(0.0722, 4);
  });

  it('is linear below the sRGB threshold and a power curve above it', () => {
    // 10/255 ≈ 0.0392 is on the linear part, 11/255 ≈ 0.0431 on the curve.
    expect(relativeLuminance({ r: 10, g: 10, b: 10 })).toBeCloseTo(10 / 255 / 12.92, 10);
    expect(relativeLuminance({ r: 11, g: 11, b: 11 })).toBeCloseTo(((11 / 255 + 0.055) / 1.055) ** 2.4, 10);
  });

  it('refuses a string that is no hex colour', () => {
    expect(() => relativeLuminance('red')).toThrow(TypeError);
  });
});

describe('contrast ratio', () => {
  it('gives the known pairs', () => {
    expect(contrastRatio('#000', '#fff')).toBeCloseTo(21, 10);
    expect(contrastRatio('#fff', '#fff')).toBe(1);
    expect(contrastRatio('#777', '#fff')).toBeCloseTo(4.48, 2);
    expect(contrastRatio('#767676', '#fff')).toBeCloseTo(4.54, 2);
    expect(contrastRatio('#0000ff', '#ffffff')).toBeCloseTo(8.59, 2);
  });

  it('does not depend on the order, and takes channels or hex', () => {
    expect(contrastRatio('#fff', '#777')).toBe(contrastRatio('#777', '#fff'));
    expect(contrastRatio({ r: 119, g: 119, b: 119 }, '#ffffff')).toBe(contrastRatio('#777', '#fff'));
  });
});

describe('text on a colour', () => {
  it('picks whichever of black and white reads better', () => {
    expect(textColorOn('#fff')).toBe('#000');
    expect(textColorOn('#000')).toBe('#fff');
    expect(textColorOn('#ffd700')).toBe('#000');
    expect(textColorOn('#1e3a8a')).toBe('#fff');
    expect(textColorOn('#2563eb', { black: '#000000', white: '#ffffff' })).toBe('#ffffff');
  });
});

describe('over', () => {
  it('mixes a translucent colour into the opaque one under it', () => {
    expect(over({ r: 0, g: 0, b: 0, a: 0.5 }, { r: 255, g: 255, b: 255 })).toEqual({ r: 128, g: 128, b: 128, a: 1 });
    expect(over({ r: 10, g: 20, b: 30, a: 1 }, { r: 255, g: 255, b: 255 })).toEqual({ r: 10, g: 20, b: 30, a: 1 });
    expect(over({ r: 10, g: 20, b: 30, a: 0 }, { r: 1, g: 2, b: 3 })).toEqual({ r: 1, g: 2, b: 3, a: 1 });
  });
});
