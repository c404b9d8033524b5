/**
 * GET /links/:id/qr?format=pdf (and sizeMm on PNG and SVG): vector print PDFs checked as a print
 * shop would: ghostscript rasterises them at 300 dpi, zbarimg and jsQR read the code at its
 * printed size, the page boxes give the physical size, the content stream the colour space.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';
import { makeLogoPng, pngSize } from '../../support/qr-reference.js';
import { infoEntry, jsQrIn, pageBoxes, pdfStreams, PT_PER_MM, rasterisePdf, zbarPages } from '../../support/pdf-print.js';

let api: TestApi;
let me: TestAccount;
let other: TestAccount;
const SHORT = process.env.SHORT_URL_BASE ?? 'http://localhost:3001';

beforeAll(async () => {
  api = await startTestApi();
  me = await createTestAccount(api.ctx);
  other = await createTestAccount(api.ctx);
});
afterAll(() => api.close());

async function newLink(acct: TestAccount, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await call(api.app, acct.key, 'POST', '/api/v1/links', {
    name: 'Aroma menu',
    type: 'website',
    data: { url: 'https://example.com' },
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id;
}
const qr = (acct: TestAccount, id: string, query = '', headers: Record<string, string> = {}) =>
  call(api.app, acct.key, 'GET', `/api/v1/links/${id}/qr${query}`, undefined, headers);

/** The one page's code, read by both decoders at 300 dpi; the page's size in pixels. */
async function readPdf(pdf: Buffer) {
  const pages = await rasterisePdf(pdf);
  expect(pages).toHaveLength(1);
  const page = pages[0]!;
  const [zbar] = await zbarPages(pages);
  return { zbar: zbar!, jsqr: jsQrIn(page, 0, 0, page.width, page.height), page };
}

const close = (a: number, b: number, tolerance = 0.01) => expect(Math.abs(a - b)).toBeLessThan(tolerance);

describe('GET /links/:id/qr?format=pdf', () => {
  it('is a one-page vector PDF exactly sizeMm wide that both decoders read at that size', async () => {
    const id = await newLink(me);
    const res = await qr(me, id, '?format=pdf&sizeMm=40');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="qr-${id}-40mm.pdf"`);
    expect(res.headers.etag).toMatch(/^"[0-9a-f]{64}"$/);
    const pdf = res.rawPayload;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const [media] = pageBoxes(pdf, 'MediaBox');
    close(media![2]!, 40 * PT_PER_MM);
    close(media![3]!, 40 * PT_PER_MM);
    const { zbar, jsqr, page } = await readPdf(pdf);
    // 40 mm at 300 dpi.
    expect(page.width).toBe(Math.round((40 / 25.4) * 300));
    expect(zbar).toEqual([`${SHORT}/${id}?q`]);
    expect(jsqr).toBe(`${SHORT}/${id}?q`);
    // Vector: the modules are paths, no picture is embedded.
    expect(pdf.toString('latin1')).not.toContain('/Subtype /Image');
    const content = pdfStreams(pdf).join('\n');
    expect(content).toMatch(/\d+ \d+ l\n/);
    expect(infoEntry(pdf, 'Title')).toBe('QR code: Aroma menu');
    expect(infoEntry(pdf, 'QrPrintedSizeMm')).toBe('40 x 40');
    expect(infoEntry(pdf, 'QrColorSpace')).toBe('DeviceRGB');
    expect(Number(infoEntry(pdf, 'QrModuleMm'))).toBeGreaterThan(1);
    // The print gate's verdict at this size travels with the file.
    expect(infoEntry(pdf, 'QrScanVerdict')).toBe('scans-well');
    expect(Number(infoEntry(pdf, 'QrScanScore'))).toBeGreaterThanOrEqual(0.875);
    expect(Number(infoEntry(pdf, 'QrReadsFromMm'))).toBeGreaterThan(400);
    expect(infoEntry(pdf, 'QrRuleOfTenMm')).toBe('400');
  });

  it('draws a frame around the code, taller than wide, and the code still reads at its size', async () => {
    const id = await newLink(me);
    const plain = await qr(me, id, '?format=pdf&sizeMm=50');
    const res = await qr(me, id, '?format=pdf&sizeMm=50&frame=ticket&frameText=Scan%20for%20the%20menu');
    expect(res.statusCode, res.body).toBe(200);
    const [media] = pageBoxes(res.rawPayload, 'MediaBox');
    close(media![2]!, 50 * PT_PER_MM);
    // The ticket's band under the code makes the page taller than wide.
    expect(media![3]!).toBeGreaterThan(media![2]! * 1.1);
    const { zbar, jsqr } = await readPdf(res.rawPayload);
    expect(zbar).toEqual([`${SHORT}/${id}?q`]);
    expect(jsqr).toBe(`${SHORT}/${id}?q`);
    // The code is smaller inside the frame than alone at the same width, and the facts say so.
    expect(Number(infoEntry(res.rawPayload, 'QrModuleMm'))).toBeLessThan(Number(infoEntry(plain.rawPayload, 'QrModuleMm')));
  });

  it('answers 304 to its ETag, and another size, colour space or bleed is another ETag', async () => {
    const id = await newLink(me);
    const first = await qr(me, id, '?format=pdf&sizeMm=40');
    const again = await qr(me, id, '?format=pdf&sizeMm=40', { 'if-none-match': first.headers.etag as string });
    expect(again.statusCode).toBe(304);
    const etags = new Set([first.headers.etag]);
    for (const q of [
      '?format=pdf&sizeMm=41',
      '?format=pdf&sizeMm=40&colorSpace=cmyk',
      '?format=pdf&sizeMm=40&bleedMm=3',
      '?format=pdf&sizeMm=40&cropMarks=true',
    ]) {
      const res = await qr(me, id, q);
      expect(res.statusCode, q).toBe(200);
      etags.add(res.headers.etag);
    }
    expect(etags.size).toBe(5);
  });

  it('CMYK: colours are DeviceCMYK and a black code is pure K', async () => {
    const id = await newLink(me, { qrOptions: { dotsOptions: { color: '#000000', type: 'square' } } });
    const res = await qr(me, id, '?format=pdf&sizeMm=30&colorSpace=cmyk');
    expect(res.statusCode, res.body).toBe(200);
    const content = pdfStreams(res.rawPayload).join('\n');
    expect(content).toContain('/DeviceCMYK cs');
    expect(content).not.toContain('/DeviceRGB');
    // pdfkit sets a colour as `cs` + `scn` (the same as `k`): black is 0 0 0 1, white no ink.
    expect(content).toMatch(/\/DeviceCMYK cs\n0 0 0 1 scn/);
    expect(content).toMatch(/\/DeviceCMYK cs\n0 0 0 0 scn/);
    expect(content).not.toMatch(/\/DeviceCMYK cs\n(?!0 0 0 [01] scn)[\d.]+ [\d.]+ [\d.]+ [\d.]+ scn/);
    expect(infoEntry(res.rawPayload, 'QrColorSpace')).toBe('DeviceCMYK');
    const { zbar, jsqr } = await readPdf(res.rawPayload);
    expect(zbar).toEqual([`${SHORT}/${id}?q`]);
    expect(jsqr).toBe(`${SHORT}/${id}?q`);
  });

  it('bleed and crop marks grow the page around a trim box of exactly sizeMm', async () => {
    const id = await newLink(me, { qrOptions: { backgroundOptions: { color: '#ffeecc' } } });
    const res = await qr(me, id, '?format=pdf&sizeMm=50&bleedMm=3&cropMarks=true');
    expect(res.statusCode, res.body).toBe(200);
    const [trim] = pageBoxes(res.rawPayload, 'TrimBox');
    const [bleed] = pageBoxes(res.rawPayload, 'BleedBox');
    const [media] = pageBoxes(res.rawPayload, 'MediaBox');
    close(trim![2]! - trim![0]!, 50 * PT_PER_MM);
    close(bleed![2]! - bleed![0]!, 56 * PT_PER_MM);
    expect(media![2]!).toBeGreaterThan(bleed![2]!);
    // Crop marks are hairlines: strokes in the slug.
    expect(pdfStreams(res.rawPayload).join('\n')).toMatch(/0\.25 w/);
    const { zbar } = await readPdf(res.rawPayload);
    expect(zbar).toEqual([`${SHORT}/${id}?q`]);
  });

  it('draws a PNG, an SVG and a WebP logo into the PDF, and the code still reads', async () => {
    const logoPng = `data:image/png;base64,${makeLogoPng(64, 64).toString('base64')}`;
    const logoSvg = `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" viewBox="0 0 10 10"><circle cx="5" cy="5" r="5" fill="#c0392b"/></svg>').toString('base64')}`;
    // WebP (and GIF) are not PDF image types: drawn by resvg into a PNG that is embedded.
    const sharp = (await import('sharp')).default;
    const webp = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#2e7d32' } })
      .webp()
      .toBuffer();
    const logoWebp = `data:image/webp;base64,${webp.toString('base64')}`;
    for (const [image, expectImage] of [
      [logoPng, true],
      [logoSvg, false],
      [logoWebp, true],
    ] as const) {
      const id = await newLink(me, { qrOptions: { image, qrOptions: { errorCorrectionLevel: 'H' } } });
      const res = await qr(me, id, '?format=pdf&sizeMm=40');
      expect(res.statusCode, res.body).toBe(200);
      const text = res.rawPayload.toString('latin1');
      // A PNG is embedded as an image; an SVG logo is drawn as paths (its red among the colours).
      expect(text.includes('/Subtype /Image')).toBe(expectImage);
      if (!expectImage) expect(pdfStreams(res.rawPayload).join('\n')).toMatch(/0\.75294\d* 0\.22352\d* 0\.16862\d* (rg|scn)/);
      const { zbar, page } = await readPdf(res.rawPayload);
      expect(zbar).toEqual([`${SHORT}/${id}?q`]);
      // The logo is there: the centre of the page holds the logo's colours, not only a code's black and white.
      let mids = 0;
      const box = Math.floor(page.width * 0.06);
      for (let y = page.height / 2 - box; y < page.height / 2 + box; y++)
        for (let x = page.width / 2 - box; x < page.width / 2 + box; x++) {
          const v = page.pixels[Math.floor(y) * page.width + Math.floor(x)]!;
          if (v > 40 && v < 215) mids++;
        }
      expect(mids / (4 * box * box)).toBeGreaterThan(0.3);
    }
  });

  it('sizeMm makes a PNG of that size at 300 dpi, saying so, and an SVG sized in mm', async () => {
    const id = await newLink(me);
    const png = await qr(me, id, '?sizeMm=40');
    expect(png.statusCode, png.body).toBe(200);
    expect(pngSize(png.rawPayload)).toEqual({ width: 472, height: 472 });
    // It says its size too, so a layout program places it 40 mm wide (472 px / 40 mm = 11,800 px/m).
    expect(pixelsPerMetre(png.rawPayload)).toBe(11_800);
    expect((await sharp(png.rawPayload).metadata()).density).toBe(300);
    expect((await sharp(png.rawPayload).stats()).isOpaque).toBe(true);
    const plain = await qr(me, id, '?size=472');
    expect(pixelsPerMetre(plain.rawPayload)).toBeNull();
    const framed = await qr(me, id, '?sizeMm=40&frame=bottom-banner');
    expect(pixelsPerMetre(framed.rawPayload)).toBe(11_800);
    const svg = await qr(me, id, '?format=svg&sizeMm=40');
    expect(svg.body).toMatch(/^<svg[^>]* width="40mm" height="40mm" viewBox="0 0 300 300"/);
  });

  it('refuses what it cannot make with a 400 naming the parameter', async () => {
    const id = await newLink(me);
    for (const [q, path] of [
      ['?format=pdf&sizeMm=5', 'sizeMm'],
      ['?format=pdf&sizeMm=1e9', 'sizeMm'],
      ['?format=pdf&bleedMm=11', 'bleedMm'],
      ['?format=pdf&bleedMm=-1', 'bleedMm'],
      ['?format=pdf&colorSpace=lab', 'colorSpace'],
      ['?format=pdf&cropMarks=yes', 'cropMarks'],
      ['?format=png&colorSpace=cmyk', 'colorSpace'],
      ['?format=svg&bleedMm=3', 'bleedMm'],
      ['?format=png&sizeMm=500', 'sizeMm'],
      ['?format=pdf&sizeMm=%00', 'sizeMm'],
    ] as const) {
      const res = await qr(me, id, q);
      expect(res.statusCode, `${q}: ${res.body}`).toBe(400);
      expect(res.json().code, q).toBe('validation_failed');
      expect(JSON.stringify(res.json()), q).toContain(path);
    }
  });

  it("another account's link is a 404, as for PNG", async () => {
    const id = await newLink(me);
    const res = await qr(other, id, '?format=pdf&sizeMm=40');
    expect(res.statusCode).toBe(404);
  });

  it('a template preview comes as a print PDF too', async () => {
    const created = await call(api.app, me.key, 'POST', '/api/v1/templates', {
      name: 'Cafe',
      qrOptions: { dotsOptions: { color: '#222222' } },
    });
    expect(created.statusCode, created.body).toBe(200);
    const res = await call(
      api.app,
      me.key,
      'GET',
      `/api/v1/templates/${created.json().data?.id ?? created.json().id}/preview?format=pdf&sizeMm=35`,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const [media] = pageBoxes(res.rawPayload, 'MediaBox');
    close(media![2]!, 35 * PT_PER_MM);
    const { zbar } = await readPdf(res.rawPayload);
    expect(zbar).toHaveLength(1);
  });
});

/** A PNG's pHYs density in pixels per metre (the same on both axes here), or null without one. */
function pixelsPerMetre(png: Buffer): number | null {
  const at = png.indexOf('pHYs', 8, 'latin1');
  if (at < 0) return null;
  expect(png.readUInt32BE(at + 4)).toBe(png.readUInt32BE(at + 8));
  expect(png[at + 12]).toBe(1);
  return png.readUInt32BE(at + 4);
}
