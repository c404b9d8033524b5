/**
 * POST /print-sheets: print sheets as jobs, checked as a print shop would: every page rasterised
 * by ghostscript at 300 dpi, every code on every page read at its printed size by zbarimg (whole
 * pages) and jsQR (each code's own area, from the sheet's layout), page sizes from the MediaBox,
 * captions and page numbers from ghostscript's text extraction.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers, type RunningWorkers } from '#workers/index.js';
import { gridLayout } from '#domain/qr/print/sheets.js';
import { call, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';
import { createTestPerson, signIn, callAs } from '../../support/people.js';
import {
  cropOf,
  jsQrIn,
  pageBoxes,
  pdfStreams,
  PT_PER_MM,
  rasterisePdf,
  zbarCrops,
  zbarPages,
  type GrayPage,
} from '../../support/pdf-print.js';
import { pollUntil } from '../../support/until.js';
import { makeLogoPng } from '../../support/qr-reference.js';

let api: TestApi;
let workers: RunningWorkers;
let me: TestAccount;
let other: TestAccount;
const SHORT = process.env.SHORT_URL_BASE ?? 'http://localhost:3001';
const SHORT_HOST = SHORT.replace(/^https?:\/\//, '');

beforeAll(async () => {
  api = await startTestApi();
  workers = await startWorkers(api.ctx);
  me = await createTestAccount(api.ctx);
  other = await createTestAccount(api.ctx);
});
afterAll(async () => {
  await workers?.close();
  await api?.close();
});

const sheets = (acct: TestAccount, body: unknown, headers: Record<string, string> = {}) =>
  call(api.app, acct.key, 'POST', '/api/v1/print-sheets', body, headers);

async function newLinks(acct: TestAccount, n: number, extra: Record<string, unknown> = {}): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await call(api.app, acct.key, 'POST', '/api/v1/links', {
      name: `Table ${i + 1}`,
      type: 'website',
      data: { url: `https://example.com/${i}` },
      ...extra,
    });
    expect(res.statusCode, res.body).toBe(200);
    ids.push(res.json().id);
  }
  return ids;
}

function finished(jobId: string, acct = me) {
  return pollUntil(
    async () => (await call(api.app, acct.key, 'GET', `/api/v1/jobs/${jobId}`)).json(),
    (j) => j.state === 'completed' || j.state === 'failed',
    180_000,
    100,
  );
}

function pdfText(pdf: Buffer): Promise<string> {
  return (async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sheet-text-'));
    try {
      await writeFile(join(dir, 'in.pdf'), pdf);
      return spawnSync('gs', ['-q', '-dNOPAUSE', '-dBATCH', '-dSAFER', '-sDEVICE=txtwrite', '-sOutputFile=-', join(dir, 'in.pdf')], {
        encoding: 'utf8',
        maxBuffer: 1 << 26,
      }).stdout;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  })();
}

/** Each code's own area of its page (300 dpi), where the sheet's layout put it: what a phone aimed at that code sees. */
function cells(pages: GrayPage[], layout: ReturnType<typeof gridLayout>, sizeMm: number, count: number) {
  const px = (mm: number) => (mm / 25.4) * 300;
  return Array.from({ length: count }, (_, i) => {
    const page = pages[Math.floor(i / layout.perPage)]!;
    const at = i % layout.perPage;
    const x = layout.leftMm + (at % layout.columns) * (sizeMm + layout.gapMm);
    const y = layout.topMm + Math.floor(at / layout.columns) * (layout.cellHeightMm + layout.gapMm);
    return { page, x: px(x), y: px(y), size: px(sizeMm) };
  });
}

/** Both decoders on every code's own area: jsQR and zbarimg, each must read each code. */
async function readCells(pages: GrayPage[], layout: ReturnType<typeof gridLayout>, sizeMm: number, count: number) {
  const areas = cells(pages, layout, sizeMm, count);
  const jsqr = areas.map((a) => jsQrIn(a.page, a.x, a.y, a.size, a.size));
  const zbar = await zbarCrops(areas.map((a) => cropOf(a.page, a.x, a.y, a.size, a.size)));
  return { jsqr, zbar };
}

describe('POST /print-sheets (grid)', () => {
  it('answers an A4 PDF whose every code reads at its printed size, with captions and page numbers', async () => {
    const ids = await newLinks(me, 14);
    const res = await sheets(me, { linkIds: ids, paper: 'a4', sizeMm: 40, cropMarks: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="print-sheet.pdf"');
    const pdf = res.rawPayload;
    const layout = gridLayout({ paper: 'a4', sizeMm: 40, marginsMm: 10, caption: true });
    const pagesExpected = Math.ceil(14 / layout.perPage);
    const media = pageBoxes(pdf, 'MediaBox');
    expect(media).toHaveLength(pagesExpected);
    for (const box of media) {
      expect(Math.abs(box[2]! - 210 * PT_PER_MM)).toBeLessThan(0.01);
      expect(Math.abs(box[3]! - 297 * PT_PER_MM)).toBeLessThan(0.01);
    }
    const pages = await rasterisePdf(pdf);
    expect(pages).toHaveLength(pagesExpected);
    const expected = ids.map((id) => `${SHORT}/${id}?q`);
    const zbar = (await zbarPages(pages)).flat();
    expect(new Set(zbar)).toEqual(new Set(expected));
    const read = await readCells(pages, layout, 40, 14);
    expect(read.jsqr).toEqual(expected);
    expect(read.zbar).toEqual(expected);
    const text = await pdfText(pdf);
    expect(text).toContain('Table 1');
    expect(text).toContain(`${SHORT_HOST}/${ids[0]}`);
    expect(text).toContain(`1 / ${pagesExpected}`);
    // Crop marks: hairlines in the margins.
    expect(pdfStreams(pdf).join('\n')).toMatch(/0\.25 w/);
  });

  it('Letter paper in CMYK: DeviceCMYK, black is pure K, logos embedded, and every code reads', async () => {
    const logo = `data:image/png;base64,${makeLogoPng(64, 64).toString('base64')}`;
    const ids = await newLinks(me, 3, {
      qrOptions: { image: logo, qrOptions: { errorCorrectionLevel: 'H' }, dotsOptions: { color: '#000000' } },
    });
    const res = await sheets(me, { linkIds: ids, paper: 'letter', sizeMm: 25, colorSpace: 'cmyk' });
    expect(res.statusCode, res.body).toBe(200);
    const [media] = pageBoxes(res.rawPayload, 'MediaBox');
    expect(Math.abs(media![2]! - 215.9 * PT_PER_MM)).toBeLessThan(0.01);
    const content = pdfStreams(res.rawPayload).join('\n');
    expect(content).toMatch(/\/DeviceCMYK cs\n0 0 0 1 scn/);
    expect(content).not.toContain('/DeviceRGB cs');
    expect(res.rawPayload.toString('latin1')).toContain('/Subtype /Image');
    const pages = await rasterisePdf(res.rawPayload);
    expect(new Set((await zbarPages(pages)).flat())).toEqual(new Set(ids.map((id) => `${SHORT}/${id}?q`)));
  });

  it('a client prints only its folders: a folder or link outside them is a 404, like another account’s', async () => {
    const folderA = (await call(api.app, me.key, 'POST', '/api/v1/folders', { name: 'A' })).json().id as string;
    const folderB = (await call(api.app, me.key, 'POST', '/api/v1/folders', { name: 'B' })).json().id as string;
    const inA = await newLinks(me, 2, { linkConfigurations: { folder_id: folderA } });
    const inB = await newLinks(me, 1, { linkConfigurations: { folder_id: folderB } });
    const person = await createTestPerson(api.ctx, me.accountId, 'client', { clientAccess: 'view', folderIds: [folderA] });
    const cookie = await signIn(api.app, person.email, person.password);
    const post = (body: unknown) => callAs(api.app, cookie, 'POST', '/api/v1/print-sheets', body);
    expect((await post({ folderId: folderB })).statusCode).toBe(404);
    expect((await post({ linkIds: [inA[0], inB[0]] })).statusCode).toBe(404);
    const own = await post({ folderId: folderA });
    expect(own.statusCode, own.body).toBe(200);
    const zbar = (await zbarPages(await rasterisePdf(own.rawPayload))).flat();
    expect(new Set(zbar)).toEqual(new Set(inA.map((id) => `${SHORT}/${id}?q`)));
    // Another account's links and folders: 404.
    expect((await sheets(other, { linkIds: inA })).statusCode).toBe(404);
    expect((await sheets(other, { folderId: folderA })).statusCode).toBe(404);
  });

  it('refuses a body it cannot print with a 400 naming the field', async () => {
    const [id] = await newLinks(me, 1);
    for (const [body, path] of [
      [{}, 'linkIds'],
      [{ linkIds: [id], folderId: '00000000-0000-4000-8000-000000000000' }, 'folderId'],
      [{ linkIds: [id], sizeMm: 300 }, 'sizeMm'],
      [{ linkIds: [id], sizeMm: 5 }, 'sizeMm'],
      [{ linkIds: [id], paper: 'a3' }, 'paper'],
      [{ linkIds: [id], marginsMm: 2 }, 'marginsMm'],
      [{ linkIds: [id], template: 'poster' }, 'template'],
      [{ linkIds: Array.from({ length: 1201 }, (_, i) => `x${i}`) }, 'linkIds'],
      [{ linkIds: ['\u0000bad'] }, 'linkIds[0]'],
    ] as const) {
      const res = await sheets(me, body);
      expect(res.statusCode, `${JSON.stringify(body).slice(0, 80)}: ${res.body}`).toBe(400);
      expect(JSON.stringify(res.json())).toContain(path);
    }
  });

  it('the same Idempotency-Key answers the same job', async () => {
    const ids = await newLinks(me, 2);
    const headers = { 'idempotency-key': `sheet-${Date.now()}`, prefer: 'respond-async' };
    const first = await sheets(me, { linkIds: ids }, headers);
    const again = await sheets(me, { linkIds: ids }, headers);
    expect(first.statusCode).toBe(202);
    expect(again.json().jobId).toBe(first.json().jobId);
    const job = await finished(first.json().jobId);
    expect(job.state).toBe('completed');
    expect(job.result).toMatchObject({ count: 2, pages: 1, skipped: 0, fileName: 'print-sheet.pdf' });
  });
});

describe('POST /print-sheets of a 1,200-link bulk job', () => {
  it('runs as a job with progress, and every one of the 1,200 codes reads on its page', { timeout: 600_000 }, async () => {
    const acct = await createTestAccount(api.ctx, { plan: 'enterprise' });
    const data = Array.from({ length: 1200 }, (_, i) => ({ name: `Menu ${i + 1}`, url: `https://example.com/m/${i}` }));
    const made = await call(api.app, acct.key, 'POST', '/api/v1/bulk-generate', { type: 'website', data }, { prefer: 'respond-async' });
    expect(made.statusCode, made.body).toBe(202);
    const bulkJobId = made.json().jobId as string;
    // The bulk job's links exist once its result has them (its ZIP may still be rendering).
    await pollUntil(
      async () => (await call(api.app, acct.key, 'GET', `/api/v1/jobs/${bulkJobId}`)).json(),
      (j) => j.result?.links?.length === 1200 || j.state === 'failed',
      300_000,
      200,
    );
    const started = Date.now();
    const res = await sheets(acct, { bulkJobId, sizeMm: 30, paper: 'a4' }, { prefer: 'respond-async' });
    expect(res.statusCode, res.body).toBe(202);
    const jobId = res.json().jobId as string;
    const seen = new Set<number>();
    const job = await pollUntil(
      async () => {
        const j = (await call(api.app, acct.key, 'GET', `/api/v1/jobs/${jobId}`)).json();
        seen.add(j.progress);
        return j;
      },
      (j) => j.state === 'completed' || j.state === 'failed',
      300_000,
      100,
    );
    expect(job.state, job.error).toBe('completed');
    const tookMs = Date.now() - started;
    // Progress was shown between start and end.
    expect([...seen].some((p) => p > 0 && p < 100)).toBe(true);
    const layout = gridLayout({ paper: 'a4', sizeMm: 30, marginsMm: 10, caption: true });
    expect(job.result).toMatchObject({ count: 1200, pages: Math.ceil(1200 / layout.perPage), skipped: 0 });
    const file = await call(api.app, acct.key, 'GET', `/api/v1/jobs/${jobId}/download`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    const pages = await rasterisePdf(file.rawPayload);
    expect(pages).toHaveLength(job.result.pages);
    const links = (await call(api.app, acct.key, 'GET', `/api/v1/jobs/${bulkJobId}`)).json().result.links as Array<{
      dynamicLinkId: string;
    }>;
    const expected = links.map((l) => `${SHORT}/${l.dynamicLinkId}?q`);
    // zbarimg on whole pages (it finds most codes of a 24-code page at once), then both decoders on each code's own area.
    const wholePages = new Set((await zbarPages(pages)).flat());
    const read = await readCells(pages, layout, 30, 1200);
    expect(read.jsqr.filter((d, i) => d !== expected[i])).toEqual([]);
    expect(read.zbar.filter((d, i) => d !== expected[i])).toEqual([]);
    console.log(`zbarimg on whole pages read ${[...wholePages].filter((d) => expected.includes(d)).length} of 1,200`);
    console.log(`1,200-code sheet job: ${tookMs} ms to completed, ${pages.length} pages, ${file.rawPayload.length} bytes`);
  });
});

describe('POST /print-sheets (table-tent)', () => {
  /** A cafe whose menu link is in a folder of its own, beside a Wi-Fi link: the slugs of both. */
  async function cafeWithWifi(cafe: { name: string; language?: string }, ssid: string) {
    const folder = (await call(api.app, me.key, 'POST', '/api/v1/folders', { name: `${cafe.name} venue` })).json().id as string;
    const made = await call(api.app, me.key, 'POST', '/api/v1/cafes', cafe);
    expect(made.statusCode, made.body).toBe(200);
    const menuId = made.json().data.link.dynamic_link_id as string;
    const moved = await call(api.app, me.key, 'PUT', `/api/v1/links/${menuId}/folder`, { folder_id: folder });
    expect(moved.statusCode, moved.body).toBe(200);
    const wifi = await call(api.app, me.key, 'POST', '/api/v1/links', {
      name: 'Guest Wi-Fi',
      type: 'wifi',
      data: { ssid, encryption: 'WPA', password: 'espresso123' },
      linkConfigurations: { folder_id: folder },
    });
    expect(wifi.statusCode, wifi.body).toBe(200);
    return { menuId, wifiId: wifi.json().id as string };
  }

  it("makes an A5 tent per cafe: its name, the menu code and the folder's Wi-Fi code, both faces readable", async () => {
    const { menuId, wifiId } = await cafeWithWifi({ name: 'Aroma Lisboa' }, 'AromaGuests');
    const [plain] = await newLinks(me, 1);
    const res = await sheets(me, { linkIds: [menuId, plain], template: 'table-tent', sizeMm: 40 });
    expect(res.statusCode, res.body).toBe(200);
    const [media] = pageBoxes(res.rawPayload, 'MediaBox');
    expect(Math.abs(media![2]! - 148 * PT_PER_MM)).toBeLessThan(0.01);
    expect(Math.abs(media![3]! - 210 * PT_PER_MM)).toBeLessThan(0.01);
    const pages = await rasterisePdf(res.rawPayload);
    expect(pages).toHaveLength(1);
    const [found] = await zbarPages(pages);
    // Both faces: the menu and the Wi-Fi code twice each (the back upside down).
    expect(found!.sort()).toEqual([`${SHORT}/${menuId}?q`, `${SHORT}/${menuId}?q`, `${SHORT}/${wifiId}?q`, `${SHORT}/${wifiId}?q`].sort());
    const text = await pdfText(res.rawPayload);
    expect(text).toContain('Aroma Lisboa');
    expect(text).toContain('Wi-Fi: AromaGuests');
    // A cafe of no language of its own: its guests' languages vary, the tent speaks English.
    expect(text).toContain('Scan for the menu');
  });

  it("speaks the cafe's language", async () => {
    const { menuId } = await cafeWithWifi({ name: 'Kaffeehaus Mitte', language: 'de' }, 'KaffeeGast');
    const res = await sheets(me, { linkIds: [menuId], template: 'table-tent', sizeMm: 40 });
    expect(res.statusCode, res.body).toBe(200);
    const text = await pdfText(res.rawPayload);
    expect(text).toContain('Scannen für die Speisekarte');
    expect(text).toContain('WLAN: KaffeeGast');
    expect(text).not.toContain('Scan for the menu');
  });
});
