/**
 * The cover of an uploaded PDF is drawn in a process of its own with bounded pixels, images and
 * memory (platform/images/pdf-preview.ts): hostile PDFs built here from a few bytes either get a
 * bounded cover or none, and never cost the calling process their memory.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { PDF_PREVIEW_MAX_PIXELS, renderPdfFirstPage } from '#platform/images/pdf-preview.js';
import { pdfBytes, pdfPage } from '../../support/fixtures.js';

const size = async (png: Buffer | null) => {
  const meta = await sharp(png!).metadata();
  return { width: meta.width, height: meta.height };
};

describe('the first page of a PDF', () => {
  it('is drawn within a time limit, in a process that is killed past it', async () => {
    const pdf = pdfBytes('A page');
    expect((await size(await renderPdfFirstPage(pdf, 200))).width).toBe(200);
    // No time at all: the render is abandoned, and nothing is drawn.
    expect(await renderPdfFirstPage(pdf, 200, 1)).toBeNull();
    expect(await renderPdfFirstPage(Buffer.from('not a pdf'), 200)).toBeNull();
  });

  it('of a page 25 × 14,400 pt is drawn narrower, within the pixel limit (960 px wide it would be 2 GB)', async () => {
    const drawn = await size(await renderPdfFirstPage(pdfPage({ width: 25, height: 14_400 }), 960));
    expect(drawn.width * drawn.height).toBeLessThanOrEqual(PDF_PREVIEW_MAX_PIXELS);
    expect(drawn.height / drawn.width).toBeCloseTo(14_400 / 25, -1);
  });

  it('is drawn without an image of 60,000 × 20,000 pixels (4.8 GB decoded), whose process stays small', async () => {
    const pdf = pdfPage({ width: 600, height: 200, image: { width: 60_000, height: 20_000 } });
    const rssBefore = process.memoryUsage().rss;
    expect(pdf.length).toBeLessThan(1.5 * 2 ** 20);
    expect(await size(await renderPdfFirstPage(pdf, 960))).toEqual({ width: 960, height: 320 });
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(256 * 2 ** 20);
  });

  it('gets no cover when drawing it takes more than the memory limit, long before the time limit', async () => {
    // Forty images just under the image limit: 4 GB decoded.
    const pdf = pdfPage({ width: 600, height: 800, image: { width: 4_330, height: 5_770, count: 40 } });
    expect(await renderPdfFirstPage(pdf, 960, 60_000)).toBeNull();
  });
});
