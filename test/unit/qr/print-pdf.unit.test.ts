/**
 * The print decisions that need no PDF reader: the CMYK formula (black is pure K, grays are K
 * only), an SVG sized in mm, and the sheet grid's arithmetic (codes a quiet zone apart, inside the
 * margins, none when the size does not fit).
 */
import { describe, expect, it } from 'vitest';
import { rgbToCmyk } from '#platform/pdf/pdf-document.js';
import { withPhysicalSize } from '#domain/qr/render-task.js';
import { gridLayout, sheetPages } from '#domain/qr/print/sheets.js';

describe('rgbToCmyk', () => {
  it('makes black pure K, white no ink, gray K only, and a colour without K where it is saturated', () => {
    expect(rgbToCmyk([0, 0, 0])).toEqual([0, 0, 0, 100]);
    expect(rgbToCmyk([255, 255, 255])).toEqual([0, 0, 0, 0]);
    expect(rgbToCmyk([128, 128, 128])).toEqual([0, 0, 0, 49.8]);
    expect(rgbToCmyk([255, 0, 0])).toEqual([0, 100, 100, 0]);
    expect(rgbToCmyk([26, 35, 126])).toEqual([79.37, 72.22, 0, 50.59]);
  });
});

describe('withPhysicalSize', () => {
  it('sizes the root in mm and keeps the viewBox in the drawing units', () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="200" viewBox="0 0 300 200"><path d="M0 0h1"/></svg>';
    expect(withPhysicalSize(svg, 40, 26.6667)).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg" width="40mm" height="26.667mm" viewBox="0 0 300 200"><path d="M0 0h1"/></svg>',
    );
  });
});

describe('gridLayout', () => {
  it('fits 4 × 4 captioned codes of 40 mm on A4 with 10 mm margins, centred, 6.4 mm apart', () => {
    const layout = gridLayout({ paper: 'a4', sizeMm: 40, marginsMm: 10, caption: true });
    expect([layout.columns, layout.rows, layout.perPage]).toEqual([4, 4, 16]);
    expect(layout.gapMm).toBeCloseTo(6.4);
    const gridWidth = 4 * 40 + 3 * layout.gapMm;
    expect(layout.leftMm).toBeCloseTo((210 - gridWidth) / 2);
    expect(layout.leftMm).toBeGreaterThanOrEqual(10);
    expect(layout.topMm + layout.rows * layout.cellHeightMm + (layout.rows - 1) * layout.gapMm).toBeLessThanOrEqual(297 - 10 - 6);
    expect(sheetPages({ template: 'grid', paper: 'a4', sizeMm: 40, marginsMm: 10, caption: true }, 41)).toBe(3);
  });

  it('keeps at least 3 mm between small codes, and fits none when a code is wider than the page inside its margins', () => {
    expect(gridLayout({ paper: 'letter', sizeMm: 10, marginsMm: 5, caption: false }).gapMm).toBe(3);
    expect(gridLayout({ paper: 'a4', sizeMm: 200, marginsMm: 10, caption: true }).perPage).toBe(0);
    expect(sheetPages({ template: 'table-tent', paper: 'a4', sizeMm: 40, marginsMm: 10, caption: true }, 3)).toBe(3);
  });
});
