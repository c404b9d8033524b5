/**
 * Frames with a call to action (domain/qr/print/frames.ts): every style, as PNG and as SVG
 * (rasterised by resvg), with short, long, localised and hostile texts, must still read as the
 * link's short URL with both jsQR and zbar; and the API takes `frameOptions`, `frame` and
 * `frameText` as documented.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAME_STYLES, withQrDefaults, type FrameStyle } from '#domain/qr/options.js';
import { frameCodeBox, geometry } from '#domain/qr/print/frame-geometry.js';
import { FRAME_LANGUAGES, defaultFrameText, framedSvg, renderFramed, resolveFrame } from '#domain/qr/print/frames.js';
import { renderSvg } from '#domain/qr/render/index.js';
import { call, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';
import { pngSize } from '../../support/images.js';
import { decodePng, decodeQr, HAS_ZBAR, makeLogoPng, pngOnWhite, RESVG_OPTIONS } from '../../support/qr-reference.js';
import type { QrImage } from '#domain/qr/render/index.js';

const DATA = 'https://qrl.example/k7F2q?q';
const LONG = 'Scannen Sie für die Speisekarte, bitte!'; // 39 characters
const FORTY = 'Ω'.repeat(40);
const HOSTILE = `<b>&amp; "quoted" 'x' ]]> -->`;

/** Pixels of an SVG, as resvg draws it; resvg's XML parser is strict, so broken SVG throws here. */
function svgToPng(svg: string): Buffer {
  return new Resvg(svg, RESVG_OPTIONS).render().asPng();
}

/**
 * zbarimg's reading of each PNG, in one run (null where it found no code). A transparent picture
 * is put on white first, as on a page or paper: zbar reads transparency as black, and fails an
 * unframed transparent code just the same.
 */
async function zbarAll(pngs: Buffer[]): Promise<Array<string | null>> {
  const dir = await mkdtemp(join(tmpdir(), 'qr-frames-'));
  try {
    const files = await Promise.all(
      pngs.map(async (png, i) => {
        const file = join(dir, `${i}.png`);
        await writeFile(file, png[25] === 6 ? pngOnWhite(png).render().asPng() : png);
        return file;
      }),
    );
    const run = spawnSync('zbarimg', ['--xml', '-q', ...files], { encoding: 'utf8', maxBuffer: 1 << 26 });
    const read = new Map<string, string>();
    for (const m of (run.stdout ?? '').matchAll(/<source href='([^']+)'>([\s\S]*?)<\/source>/g)) {
      const d = /<data><!\[CDATA\[([\s\S]*?)\]\]><\/data>/.exec(m[2]!);
      if (d) read.set(m[1]!, d[1]!);
    }
    return files.map((f) => read.get(f) ?? null);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

interface Case {
  name: string;
  png: Buffer;
}

function framedCases(
  style: FrameStyle,
  text: string | undefined,
  label: string,
  extra: Record<string, unknown> = {},
  logo: QrImage | null = null,
): Case[] {
  const design = withQrDefaults(
    { dotsOptions: { color: '#1a3d7c' }, frameOptions: { style, text: text ?? defaultFrameText(style, 'en') }, ...extra },
    DATA,
  );
  const png = renderFramed('png', design, logo);
  const svg = renderFramed('svg', design, logo).toString();
  return [
    { name: `${style} ${label} png`, png },
    { name: `${style} ${label} svg`, png: svgToPng(svg) },
  ];
}

describe('framed codes decode with jsQR and zbar', () => {
  const cases: Case[] = [];
  for (const style of FRAME_STYLES) {
    cases.push(...framedCases(style, undefined, 'default'), ...framedCases(style, LONG, 'long'), ...framedCases(style, HOSTILE, 'hostile'));
  }
  for (const language of FRAME_LANGUAGES) {
    for (const style of ['table-tent', 'speech-bubble'] as const)
      cases.push(...framedCases(style, defaultFrameText(style, language), language));
  }
  cases.push(...framedCases('ticket', FORTY, '40 Greek letters'));
  // A design of its own colours: the frame follows the dots, the text picks its contrast.
  cases.push(...framedCases('bottom-banner', 'Ça marche', 'styled', { dotsOptions: { color: '#7a1f5c', type: 'rounded' }, margin: 12 }));
  // A transparent background (the PNG keeps its alpha), a gradient, and a centre logo at level H.
  const logo: QrImage = { data: makeLogoPng(), contentType: 'image/png', width: 64, height: 64 };
  for (const style of ['rounded-badge', 'phone', 'caption'] as const) {
    const gradient = {
      type: 'linear',
      rotation: 0.8,
      colorStops: [
        { offset: 0, color: '#0f766e' },
        { offset: 1, color: '#1a3d7c' },
      ],
    };
    const extra = {
      backgroundOptions: { color: 'transparent' },
      dotsOptions: { gradient, type: 'classy' },
      qrOptions: { errorCorrectionLevel: 'H' },
      imageOptions: { imageSize: 0.3, hideBackgroundDots: true },
    };
    cases.push(...framedCases(style, 'Scan for the menu', 'gradient, logo, transparent', extra, logo));
  }

  it('every style, PNG and SVG, short, long, localised and hostile texts: jsQR reads the short URL', () => {
    expect(cases.length).toBeGreaterThanOrEqual(8 * 3 * 2);
    const failed = cases.filter((c) => decodePng(c.png) !== DATA).map((c) => c.name);
    expect(failed).toEqual([]);
  });

  it.skipIf(!HAS_ZBAR)('the same pictures: zbar reads the short URL', async () => {
    const read = await zbarAll(cases.map((c) => c.png));
    const failed = cases.filter((_, i) => read[i] !== DATA).map((c) => c.name);
    expect(failed).toEqual([]);
  });

  it('keeps the asked width; the code shrinks inside the frame and lies wholly inside the picture', () => {
    for (const style of FRAME_STYLES) {
      for (const width of [120, 300, 1000]) {
        const design = withQrDefaults({ width, height: width, frameOptions: { style, text: 'Scan me' } }, DATA);
        const png = renderFramed('png', design, null);
        const size = pngSize(png);
        expect(size.width, style).toBe(width);
        expect(size.height, style).toBeGreaterThan(width);
        const box = frameCodeBox(style, width);
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(width);
        expect(box.y + box.height).toBeLessThanOrEqual(size.height);
      }
    }
  });

  it("keeps the band of background its geometry's `clear` says between the code and the frame", () => {
    const width = 1000;
    for (const style of FRAME_STYLES) {
      const design = withQrDefaults({ width, height: width, frameOptions: { style, text: 'Scan for the menu' } }, DATA);
      const drawn = new Resvg(renderFramed('svg', design, null).toString(), RESVG_OPTIONS).render();
      const pixels = drawn.pixels; // a getter that copies: read once
      const box = frameCodeBox(style, width);
      const [right, bottom] = [box.x + box.width, box.y + box.height];
      // The picture's edge bounds the band too; then every dark pixel outside the code's square.
      let nearest = Math.min(box.x, box.y, drawn.width - right, drawn.height - bottom);
      for (let y = 0; y < drawn.height; y++) {
        for (let x = 0; x < drawn.width; x++) {
          if (pixels[(y * drawn.width + x) * 4]! >= 128) continue;
          const dx = Math.max(box.x - (x + 1), x - right, 0);
          const dy = Math.max(box.y - (y + 1), y - bottom, 0);
          if (dx > 0 || dy > 0) nearest = Math.min(nearest, Math.hypot(dx, dy));
        }
      }
      const { clear } = geometry(style, width);
      expect(nearest, style).toBeGreaterThanOrEqual(clear - 1.5);
      // Not a cautious guess either: within a hundredth of the width.
      expect(nearest, style).toBeLessThanOrEqual(clear + width / 100);
    }
  });

  it('draws text as outlines: no <text>, no font, the hostile characters nowhere in the markup', () => {
    for (const style of FRAME_STYLES) {
      const design = withQrDefaults({ frameOptions: { style, text: HOSTILE } }, DATA);
      const svg = renderFramed('svg', design, null).toString();
      expect(svg).not.toMatch(/<text|font-family|@font-face/);
      expect(svg).not.toContain('<b>');
      expect(svg).not.toContain(']]>');
      expect(() => svgToPng(svg)).not.toThrow();
    }
  });

  it('framedSvg says where the code sits: the code drawn there alone reads as the picture does', () => {
    const design = withQrDefaults({ width: 400, height: 400, frameOptions: { style: 'phone', text: 'Scan me' } }, DATA);
    const frame = resolveFrame(design.frameOptions!, design, 'Scan me');
    const codeSvg = renderSvg({ ...design, width: 200, height: 200 }, null);
    const out = framedSvg(codeSvg, 200, 200, frame, design);
    expect(out.width).toBe(400);
    // The code square is the frame's box, scaled from the 200 px code.
    expect(out.code).toEqual(frameCodeBox('phone', 400));
    const r = new Resvg(out.svg, RESVG_OPTIONS).render();
    expect(r.height).toBe(out.height);
    expect(decodeQr({ width: r.width, height: r.height, pixels: r.pixels })).toBe(DATA);
  });

  it('a transparent design stays transparent around the frame (RGBA PNG)', () => {
    const design = withQrDefaults({ backgroundOptions: { color: 'transparent' }, frameOptions: { style: 'speech-bubble' } }, DATA);
    const png = renderFramed('png', design, null);
    expect(png[25]).toBe(6); // colour type: RGBA
    const opaque = renderFramed('png', withQrDefaults({ frameOptions: { style: 'speech-bubble' } }, DATA), null);
    expect(opaque[25]).toBe(2); // RGB
  });

  it('colours: the frame takes the dots colour; text is white on a dark frame, black on a light one', () => {
    const dark = withQrDefaults({ dotsOptions: { color: '#1a3d7c' }, frameOptions: { style: 'bottom-banner' } }, DATA);
    const light = withQrDefaults({ dotsOptions: { color: '#ffcc00' }, frameOptions: { style: 'bottom-banner' } }, DATA);
    const caption = withQrDefaults({ dotsOptions: { color: '#ffcc00' }, frameOptions: { style: 'caption' } }, DATA);
    const chosen = withQrDefaults({ frameOptions: { style: 'ticket', color: 'rebeccapurple', textColor: '#00ff00' } }, DATA);
    expect(resolveFrame(dark.frameOptions!, dark, 'x')).toMatchObject({
      color: { r: 0x1a, g: 0x3d, b: 0x7c },
      textColor: { r: 255, g: 255, b: 255 },
    });
    expect(resolveFrame(light.frameOptions!, light, 'x').textColor).toMatchObject({ r: 0, g: 0, b: 0 });
    // Yellow text on white would not read: the caption falls back to black.
    expect(resolveFrame(caption.frameOptions!, caption, 'x').textColor).toMatchObject({ r: 0, g: 0, b: 0 });
    expect(resolveFrame(chosen.frameOptions!, chosen, 'x')).toMatchObject({
      color: { r: 0x66, g: 0x33, b: 0x99 },
      textColor: { r: 0, g: 255, b: 0 },
    });
  });
});

describe('the API: frameOptions, frame and frameText', () => {
  let api: TestApi;
  let me: TestAccount;
  const SHORT = process.env.SHORT_URL_BASE ?? 'http://localhost:3001';

  beforeAll(async () => {
    api = await startTestApi();
    me = await createTestAccount(api.ctx);
  });
  afterAll(() => api.close());

  async function newLink(extra: Record<string, unknown> = {}): Promise<string> {
    const res = await call(api.app, me.key, 'POST', '/api/v1/links', {
      name: 'framed',
      type: 'website',
      data: { url: 'https://example.com' },
      ...extra,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().id;
  }
  const qr = (id: string, query = '') => call(api.app, me.key, 'GET', `/api/v1/links/${id}/qr${query}`);
  const paths = (res: { json(): { errors?: Array<{ path: string }> } }) => (res.json().errors ?? []).map((e) => e.path);

  it('a stored frame is drawn; the picture keeps its width and scans to the short URL', async () => {
    const id = await newLink({ qrOptions: { frameOptions: { style: 'ticket', text: 'Scan for the menu' } } });
    const res = await qr(id, '?size=400');
    expect(res.statusCode, res.body).toBe(200);
    const size = pngSize(res.rawPayload);
    expect(size.width).toBe(400);
    expect(size.height).toBeGreaterThan(400);
    expect(decodePng(res.rawPayload)).toBe(`${SHORT}/${id}?q`);
    const svg = await qr(id, '?format=svg');
    expect(svg.statusCode).toBe(200);
    expect(decodePng(svgToPng(svg.body))).toBe(`${SHORT}/${id}?q`);
  });

  it('frame and frameText override the stored design, and the ETag follows them', async () => {
    const id = await newLink();
    const plain = await qr(id);
    expect(pngSize(plain.rawPayload)).toEqual({ width: 300, height: 300 });
    const framed = await qr(id, '?frame=phone');
    const worded = await qr(id, `?frame=phone&frameText=${encodeURIComponent('Menü & Wi-Fi')}`);
    const alone = await qr(id, `?frameText=${encodeURIComponent('Olá')}`);
    for (const res of [framed, worded, alone]) {
      expect(res.statusCode, res.body).toBe(200);
      expect(pngSize(res.rawPayload).height).toBeGreaterThan(300);
      expect(decodePng(res.rawPayload)).toBe(`${SHORT}/${id}?q`);
    }
    const etags = new Set([plain, framed, worded, alone].map((r) => r.headers.etag));
    expect(etags.size).toBe(4);
    // frame=none takes a stored frame away again.
    const stored = await newLink({ qrOptions: { frameOptions: { style: 'caption' } } });
    expect(pngSize((await qr(stored, '?frame=none')).rawPayload)).toEqual({ width: 300, height: 300 });
  });

  it("the default text speaks the link page's language", async () => {
    const pt = await newLink({ pageStyle: { language: 'pt-PT' }, qrOptions: { frameOptions: { style: 'table-tent' } } });
    const en = await newLink({ qrOptions: { frameOptions: { style: 'table-tent' } } });
    const ptSvg = (await qr(pt, '?format=svg')).body;
    const enSvg = (await qr(en, '?format=svg')).body;
    const explicit = (await qr(en, `?format=svg&frameText=${encodeURIComponent(defaultFrameText('table-tent', 'pt'))}`)).body;
    // Same text, same outlines: the Portuguese default is what the Portuguese page's code says.
    const textPath = (svg: string) => /<path transform="translate[^>]*>/.exec(svg)?.[0];
    expect(textPath(ptSvg)).toBe(textPath(explicit));
    expect(textPath(ptSvg)).not.toBe(textPath(enSvg));
  });

  it("a menu link's default text speaks its cafe's language", async () => {
    const cafe = await call(api.app, me.key, 'POST', '/api/v1/cafes', { name: 'Café Kranzler', language: 'de' });
    expect(cafe.statusCode, cafe.body).toBe(200);
    const slug = cafe.json().data.link.dynamic_link_id as string;
    const textPath = (svg: string) => /<path transform="translate[^>]*>/.exec(svg)?.[0];
    const byDefault = (await qr(slug, '?format=svg&frame=table-tent')).body;
    const german = (await qr(slug, `?format=svg&frame=table-tent&frameText=${encodeURIComponent(defaultFrameText('table-tent', 'de'))}`))
      .body;
    expect(textPath(byDefault)).toBeDefined();
    expect(textPath(byDefault)).toBe(textPath(german));
  });

  it.each([
    [`?frameText=${encodeURIComponent('Scan\nme')}`, 'frameText'],
    [`?frameText=${encodeURIComponent('tab\there')}`, 'frameText'],
    [`?frameText=${encodeURIComponent('x'.repeat(41))}`, 'frameText'],
    ['?frameText=%20%20', 'frameText'],
    [`?frameText=${encodeURIComponent('Scan 😀')}`, 'frameText'],
    [`?frameText=${encodeURIComponent('סרוק אותי')}`, 'frameText'],
    [`?frameText=${encodeURIComponent('\u202Eevil')}`, 'frameText'],
    ['?frame=banner', 'frame'],
  ])('hostile query %s → 400 at %s', async (query, path) => {
    const id = await newLink();
    const res = await qr(id, query);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().code).toBe('validation_failed');
    expect(paths(res)).toContain(path);
  });

  it('stored frameOptions are checked like the rest of qr_options, on links and templates', async () => {
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ style: 'wavy' }, 'qrOptions.frameOptions.style'],
      [{ style: 'ticket', text: 'a\u0000b' }, 'qrOptions.frameOptions.text'],
      [{ style: 'ticket', text: '🍕 menu' }, 'qrOptions.frameOptions.text'],
      [{ style: 'ticket', color: 'not-a-colour' }, 'qrOptions.frameOptions.color'],
      [{ style: 'ticket', font: 'Comic Sans' }, 'qrOptions.frameOptions'],
      [{ text: 'no style' }, 'qrOptions.frameOptions.style'],
    ];
    for (const [frameOptions, path] of bad) {
      const link = await call(api.app, me.key, 'POST', '/api/v1/links', {
        name: 'framed',
        type: 'website',
        data: { url: 'https://example.com' },
        qrOptions: { frameOptions },
      });
      expect(link.statusCode, JSON.stringify(frameOptions)).toBe(400);
      expect(
        paths(link).some((p: string) => p.startsWith(path)),
        `${JSON.stringify(frameOptions)} ${link.body}`,
      ).toBe(true);
      const template = await call(api.app, me.key, 'POST', '/api/v1/templates', { name: 'framed', qrOptions: { frameOptions } });
      expect(template.statusCode, template.body).toBe(400);
    }
  });

  it('a template preview takes the frame and its overrides', async () => {
    const created = await call(api.app, me.key, 'POST', '/api/v1/templates', {
      name: 'tent',
      qrOptions: { frameOptions: { style: 'table-tent', text: 'Scan for the menu' } },
    });
    expect(created.statusCode, created.body).toBe(200);
    const preview = (q = '') => call(api.app, me.key, 'GET', `/api/v1/templates/${created.json().id}/preview${q}`);
    const framed = await preview();
    expect(framed.statusCode, framed.body).toBe(200);
    expect(pngSize(framed.rawPayload).height).toBeGreaterThan(300);
    expect(decodePng(framed.rawPayload)).toMatch(/\/Preview\?q$/);
    const other = await preview('?frame=speech-bubble&frameText=Hi');
    expect(other.headers.etag).not.toBe(framed.headers.etag);
    expect(pngSize((await preview('?frame=none')).rawPayload)).toEqual({ width: 300, height: 300 });
  });
});
