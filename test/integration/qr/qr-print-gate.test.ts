/**
 * The print gate (domain/qr/print) against decoders it does not use the way it uses them.
 *
 * 1. By construction: the 18 reference styles and the console's looks scan well printed 3 cm
 *    wide and read from 30 cm, by the gate's verdict (both decoders on at least 7 of 8 captures).
 * 2. Agreement over 40+ designs: a design the gate calls "scans well" is read by an independent
 *    phone (sharp's resampling and blur, zbar or jsQR) in every one of its shots; one it calls
 *    "will fail" is read in none of them. "Risky" designs are counted, not held to either.
 * 3. Auto-fix: each failing design with a fix scans well with the fix applied, by the gate and by
 *    the independent phone.
 * 4. The api: the report at GET /links/:id/qr/report and POST /qr/report, `autoFix=true` on the
 *    image, bounds on sizes, other accounts' links.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withQrDefaults, type QrOptions } from '#domain/qr/options.js';
import { autoFix } from '#domain/qr/print/auto-fix.js';
import { applyPatch } from '#domain/qr/print/design-patch.js';
import { capturePxPerMm } from '#domain/qr/print/phone-capture.js';
import { gateDesign, type Verdict } from '#domain/qr/print/scannability.js';
import { renderPng, type QrImage } from '#domain/qr/render/index.js';
import { call, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';
import { CONSOLE_LOOKS, independentReads, REFERENCE_STYLES } from '../../support/print-designs.js';
import { decodePng, makeLogoPng } from '../../support/qr-reference.js';

const DATA = 'https://qr.example/k7F2qXa?q';
const SIZE_MM = 30;
const DISTANCE_MM = 300;
/** What the independent phone's camera gives a 3 cm code from 30 cm (the same lens as the gate's). */
const CODE_PX = Math.round(capturePxPerMm(DISTANCE_MM) * SIZE_MM);
const LOGO: QrImage = { data: makeLogoPng(64, 64), contentType: 'image/png', width: 64, height: 64 };

const mono = (color: string, background = 'white'): QrOptions => ({
  dotsOptions: { color },
  cornersSquareOptions: { color },
  cornersDotOptions: { color },
  backgroundOptions: { color: background },
});
const logo = (level: 'L' | 'M' | 'Q' | 'H', imageSize: number, hide = false): QrOptions => ({
  qrOptions: { errorCorrectionLevel: level },
  imageOptions: { imageSize, hideBackgroundDots: hide },
});

interface Design {
  name: string;
  options: QrOptions;
  logo?: QrImage;
  data?: string;
}

const DESIGNS: Design[] = [
  ...REFERENCE_STYLES,
  ...CONSOLE_LOOKS,
  ...['#333333', '#666666', '#888888', '#aaaaaa', '#bbbbbb', '#cccccc', '#dddddd', '#eeeeee'].map((c) => ({
    name: `grey ${c} on white`,
    options: mono(c),
  })),
  { name: 'white on black', options: mono('white', 'black') },
  { name: 'yellow on white', options: mono('#ffd400') },
  { name: 'navy on cream', options: mono('#1e3a8a', '#fdf6e3') },
  { name: 'no margin', options: { margin: 0 } },
  {
    name: 'a dark gradient',
    options: {
      dotsOptions: {
        gradient: {
          type: 'linear',
          rotation: 0.7,
          colorStops: [
            { offset: 0, color: '#1e3a8a' },
            { offset: 1, color: '#7c3aed' },
          ],
        },
      },
    },
  },
  {
    name: 'a gradient fading to pale',
    options: {
      dotsOptions: {
        gradient: {
          type: 'linear',
          colorStops: [
            { offset: 0, color: '#000000' },
            { offset: 1, color: '#d0d0d0' },
          ],
        },
      },
    },
  },
  ...(
    [
      ['L', 0.5, false],
      ['M', 0.5, false],
      ['M', 1, false],
      ['Q', 0.4, true],
      ['Q', 0.5, false],
      ['Q', 1, false],
      ['H', 0.5, true],
      ['H', 1, false],
    ] as const
  ).map(([level, size, hide]) => ({
    name: `a logo at ${size * 100} % of level ${level}${hide ? ', modules cleared' : ''}`,
    options: logo(level, size, hide),
    logo: LOGO,
  })),
  { name: 'a long URL (version 8) at 3 cm', options: { dotsOptions: { type: 'square' } }, data: `https://qr.example/${'x'.repeat(120)}?q` },
  { name: 'a very long URL (version 13) at 3 cm', options: {}, data: `https://qr.example/${'y'.repeat(300)}?q` },
];

async function gate(d: Design, sizeMm = SIZE_MM, distanceMm = DISTANCE_MM) {
  return gateDesign(withQrDefaults(d.options, d.data ?? DATA), d.logo ?? null, sizeMm, distanceMm);
}

describe('designs that pass by construction', () => {
  it.each([...REFERENCE_STYLES, ...CONSOLE_LOOKS])('$name scans well at 3 cm from 30 cm', async (d) => {
    const result = await gate(d);
    expect(result.verdict, JSON.stringify(result.captures)).toBe('scans-well');
  });
});

describe('the verdict against an independent phone', () => {
  it(`agrees on ${DESIGNS.length} designs: "scans well" reads in every shot, "will fail" in none`, async () => {
    expect(DESIGNS.length).toBeGreaterThanOrEqual(40);
    const tally: Record<Verdict, number> = { 'scans-well': 0, risky: 0, 'will-fail': 0 };
    const disagreements: string[] = [];
    for (const d of DESIGNS) {
      const data = d.data ?? DATA;
      const { verdict, score } = await gate(d);
      tally[verdict]++;
      const png = renderPng(withQrDefaults(d.options, data), d.logo ?? null);
      const phone = await independentReads(png, CODE_PX, data);
      if (verdict === 'scans-well' && phone.read < phone.of)
        disagreements.push(`${d.name}: scans well (${score}) but read in ${phone.read}/${phone.of}`);
      if (verdict === 'will-fail' && phone.read > 0)
        disagreements.push(`${d.name}: will fail (${score}) but read in ${phone.shots.join(', ')}`);
    }
    expect(disagreements).toEqual([]);
    // The set spans the verdicts, so agreement is not a set of easy cases.
    expect(tally['scans-well']).toBeGreaterThanOrEqual(25);
    expect(tally['will-fail']).toBeGreaterThanOrEqual(5);
  });

  it('gives the same score every time (captures are seeded)', async () => {
    const d = DESIGNS.find((x) => x.name.startsWith('a logo at 100 % of level M'))!;
    const [a, b] = [await gate(d), await gate(d)];
    expect(a).toEqual(b);
  });
});

describe('auto-fix', () => {
  const failing = DESIGNS.filter((d) => d.logo || d.name === 'no margin' || d.name.startsWith('grey #cc'));

  it('finds a change that scans well, by the gate and by the independent phone', async () => {
    let fixed = 0;
    for (const d of failing) {
      const opts = withQrDefaults(d.options, DATA);
      if ((await gateDesign(opts, d.logo ?? null, SIZE_MM, DISTANCE_MM)).verdict === 'scans-well') continue;
      const fix = await autoFix(opts, d.logo ?? null, SIZE_MM, DISTANCE_MM);
      expect(fix, d.name).not.toBeNull();
      const patched = withQrDefaults(applyPatch(d.options, fix!.qrOptionsPatch), DATA);
      expect((await gateDesign(patched, d.logo ?? null, SIZE_MM, DISTANCE_MM)).verdict, d.name).toBe('scans-well');
      const phone = await independentReads(renderPng(patched, d.logo ?? null), CODE_PX, DATA);
      expect(phone.read, `${d.name}: ${fix!.changes.map((c) => c.text).join('; ')}`).toBe(phone.of);
      fixed++;
    }
    expect(fixed).toBeGreaterThanOrEqual(3);
  });
});

describe('the api', () => {
  let api: TestApi;
  let me: TestAccount;
  let other: TestAccount;
  beforeAll(async () => {
    api = await startTestApi();
    me = await createTestAccount(api.ctx);
    other = await createTestAccount(api.ctx);
  });
  afterAll(() => api.close());

  async function newLink(qrOptions: QrOptions = {}) {
    const res = await call(api.app, me.key, 'POST', '/api/v1/links', {
      name: 'print',
      type: 'website',
      data: { url: 'https://example.com' },
      qrOptions,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().id as string;
  }

  it('answers the print report of a link at a size', async () => {
    const id = await newLink();
    const res = await call(api.app, me.key, 'GET', `/api/v1/links/${id}/qr/report?sizeMm=30`);
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json().data;
    expect(r).toMatchObject({ sizeMm: 30, errorCorrectionLevel: 'Q', distances: { askedMm: 300, ruleOfTenMm: 300 } });
    expect(r.version).toBeGreaterThanOrEqual(2);
    expect(r.modules).toBe(17 + 4 * r.version);
    expect(r.moduleMm).toBeCloseTo(r.codeSizeMm / r.modules, 1);
    expect(r.contrastRatio).toBe(21);
    expect(r.gate.captures).toHaveLength(8);
    expect(r.gate.decoders).toEqual(['jsQR', 'zxing-cpp']);
    expect(r.distances.gateMm).toBeGreaterThan(0);
  });

  it('reads a small code from less far than a big one', async () => {
    const id = await newLink();
    const at = async (mm: number) => (await call(api.app, me.key, 'GET', `/api/v1/links/${id}/qr/report?sizeMm=${mm}`)).json().data;
    const [small, big] = [await at(20), await at(60)];
    expect(big.distances.gateMm).toBeGreaterThan(small.distances.gateMm * 2);
    expect(big.moduleMm).toBeGreaterThan(small.moduleMm * 2.5);
  });

  it('proposes a fix for a logo too big, and autoFix=true draws it', async () => {
    const logoUri = `data:image/png;base64,${Buffer.from(LOGO.data).toString('base64')}`;
    const id = await newLink({ image: logoUri, qrOptions: { errorCorrectionLevel: 'M' }, imageOptions: { imageSize: 1 } });
    const report = (await call(api.app, me.key, 'GET', `/api/v1/links/${id}/qr/report?sizeMm=30`)).json().data;
    expect(report.gate.verdict).not.toBe('scans-well');
    expect(report.warnings.map((w: { code: string }) => w.code)).toContain('LOGO_TOO_BIG');
    expect(report.fix.verdict).toBe('scans-well');
    expect(report.fix.changes.length).toBeGreaterThan(0);

    const plain = await call(api.app, me.key, 'GET', `/api/v1/links/${id}/qr`);
    const fixed = await call(api.app, me.key, 'GET', `/api/v1/links/${id}/qr?autoFix=true&sizeMm=30`);
    expect(fixed.statusCode).toBe(200);
    expect(fixed.headers['content-type']).toBe('image/png');
    expect(fixed.headers.etag).not.toBe(plain.headers.etag);
    const data = decodePng(fixed.rawPayload);
    expect(data).toMatch(new RegExp(`/${id}\\?q$`));
    const phone = await independentReads(fixed.rawPayload, CODE_PX, data!);
    expect(phone.read).toBe(phone.of);
  });

  it('judges a design not saved yet', async () => {
    const res = await call(api.app, me.key, 'POST', '/api/v1/qr/report', { qr_options: mono('#eeeeee'), sizeMm: 30 });
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json().data;
    expect(r.gate.verdict).toBe('will-fail');
    expect(r.warnings.map((w: { code: string }) => w.code)).toContain('LOW_CONTRAST');
  });

  it('judges a framed code at its own printed size, smaller than the picture', async () => {
    const report = async (qr_options: QrOptions) =>
      (await call(api.app, me.key, 'POST', '/api/v1/qr/report', { qr_options, sizeMm: 40 })).json().data;
    const [plain, framed] = [await report({}), await report({ frameOptions: { style: 'bottom-banner', text: 'Scan me' } })];
    expect(framed.moduleMm).toBeLessThan(plain.moduleMm * 0.95);
    expect(framed.codeSizeMm).toBeLessThan(plain.codeSizeMm);
    expect(framed.heightMm).toBeGreaterThan(framed.sizeMm);
    expect(framed.distances.ruleOfTenMm).toBeLessThan(plain.distances.ruleOfTenMm);
    // The frame's band of background adds to the code's own margin, and the note says what is near.
    const bare = await report({ margin: 0, frameOptions: { style: 'bottom-banner', text: 'Scan me' } });
    expect(bare.quietZoneModules).toBeGreaterThan(0.5);
    expect(bare.quietZoneModules).toBeLessThan(framed.quietZoneModules);
    const note = bare.warnings.find((w: { code: string }) => w.code === 'QUIET_ZONE');
    expect(note.text).toMatch(/^The frame comes within [\d.]+ modules of the code.*Raise the margin/);
  });

  it('draws a design not saved yet, framed, as SVG or PNG', async () => {
    const body = { qr_options: { frameOptions: { style: 'ticket', text: 'Scan for the menu' } }, data: 'https://qr.example/Abc1234?q' };
    const svg = await call(api.app, me.key, 'POST', '/api/v1/qr/preview', body);
    expect(svg.statusCode, svg.body.slice(0, 300)).toBe(200);
    expect(svg.headers['content-type']).toBe('image/svg+xml');
    expect(svg.body).toMatch(/^<svg/);
    const png = await call(api.app, me.key, 'POST', '/api/v1/qr/preview', { ...body, format: 'png', size: 400 });
    expect(png.headers['content-type']).toBe('image/png');
    expect(decodePng(png.rawPayload)).toBe(body.data);
    const tooBig = await call(api.app, me.key, 'POST', '/api/v1/qr/preview', { ...body, size: 5000 });
    expect(tooBig.statusCode).toBe(400);
    const badText = await call(api.app, me.key, 'POST', '/api/v1/qr/preview', {
      qr_options: { frameOptions: { style: 'ticket', text: 'a\u0007b' } },
    });
    expect(badText.statusCode).toBe(400);
  });

  it.each([
    ['sizeMm=5', 'sizeMm'],
    ['sizeMm=abc', 'sizeMm'],
    ['sizeMm=2000', 'sizeMm'],
    ['distanceMm=0', 'distanceMm'],
    ['sizeMm=30&colour=red', ''],
  ])('refuses %s with a 400', async (query, field) => {
    const id = await newLink();
    const res = await call(api.app, me.key, 'GET', `/api/v1/links/${id}/qr/report?${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation_failed');
    if (field) expect(res.body).toContain(field);
  });

  it("judges a template's design, and its preview draws the fix", async () => {
    const created = await call(api.app, me.key, 'POST', '/api/v1/templates', {
      name: 'pale',
      qrOptions: { margin: 0, ...mono('#eeeeee') },
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().id ?? created.json().data?.id;
    const report = await call(api.app, me.key, 'GET', `/api/v1/templates/${id}/report?sizeMm=40`);
    expect(report.statusCode, report.body).toBe(200);
    const r = report.json().data;
    expect(r.gate.verdict).toBe('will-fail');
    expect(r.fix.changes.map((c: { path: string }) => c.path)).toEqual(['margin', 'dotsOptions.color']);
    const preview = await call(api.app, me.key, 'GET', `/api/v1/templates/${id}/preview?autoFix=true&sizeMm=40`);
    expect(preview.statusCode).toBe(200);
    expect(decodePng(preview.rawPayload)).toMatch(/\/Preview\?q$/);
    expect((await call(api.app, other.key, 'GET', `/api/v1/templates/${id}/report`)).statusCode).toBe(404);
  });

  it("answers 404 for another account's link", async () => {
    const id = await newLink();
    const res = await call(api.app, other.key, 'GET', `/api/v1/links/${id}/qr/report`);
    expect(res.statusCode).toBe(404);
  });
});
