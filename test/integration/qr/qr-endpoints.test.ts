import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { closeQueues, createQueues, type Queues } from '#infra/jobs/queues.js';
import { enqueueAccountJob } from '#infra/jobs/account-jobs.js';
import { encodeScanBatch } from '#domain/scans/batch.js';
import { SCAN_JOB_OPTIONS } from '#infra/scans/scan-jobs.js';
import { startWorkers, type RunningWorkers } from '#workers/index.js';
import { addKey, call, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';
import { pngSize, unzip, zipMethods } from '../../support/images.js';
import { decodePng, decodesAll } from '../../support/qr-reference.js';
import { pngBytes, uploadFile } from '../../support/fixtures.js';

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
    name: 'qr',
    type: 'website',
    data: { url: 'https://example.com' },
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id;
}
const qr = (acct: TestAccount, id: string, query = '', headers: Record<string, string> = {}) =>
  call(api.app, acct.key, 'GET', `/api/v1/links/${id}/qr${query}`, undefined, headers);
/**
 * Whether a styled code scans to a link's short URL. Styling (classy dots, gradients, logos) puts
 * about one slug in a hundred past jsQR alone, so it counts as read when either decoder reads it.
 */
const scansToLink = async (png: Buffer, id: string) => (await decodesAll([png], `${SHORT}/${id}?q`))[0];

describe('GET /links/:id/qr', () => {
  it('answers a PNG (the default) that scans to the short URL', async () => {
    const id = await newLink(me);
    const res = await qr(me, id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(pngSize(res.rawPayload)).toEqual({ width: 300, height: 300 });
    expect(decodePng(res.rawPayload)).toBe(`${SHORT}/${id}?q`);
  });

  it('answers an SVG with format=svg', async () => {
    const id = await newLink(me);
    const res = await qr(me, id, '?format=svg');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.body).toMatch(/<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  });

  it('size sets the width and height', async () => {
    const id = await newLink(me);
    const res = await qr(me, id, '?size=512');
    expect(pngSize(res.rawPayload)).toEqual({ width: 512, height: 512 });
    expect(decodePng(res.rawPayload)).toBe(`${SHORT}/${id}?q`);
  });

  it('renders the stored styling (a gradient, classy dots, error level H) and still scans', async () => {
    const id = await newLink(me, {
      qrOptions: {
        qrOptions: { errorCorrectionLevel: 'H' },
        dotsOptions: {
          type: 'classy',
          gradient: {
            type: 'linear',
            rotation: 0.8,
            colorStops: [
              { offset: 0, color: '#1a237e' },
              { offset: 1, color: '#b71c1c' },
            ],
          },
        },
        cornersSquareOptions: { type: 'extra-rounded', color: '#004d40' },
        backgroundOptions: { color: '#fffde7' },
      },
    });
    expect(await scansToLink((await qr(me, id)).rawPayload, id)).toBe(true);
  });

  it('is cached by content: the same picture is a hit with the same ETag; If-None-Match gives 304; restyling changes it', async () => {
    const id = await newLink(me);
    const first = await qr(me, id);
    expect(first.headers['x-qr-cache']).toBe('miss');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    const second = await qr(me, id);
    expect(second.headers['x-qr-cache']).toBe('hit');
    expect(second.headers.etag).toBe(etag);
    expect(Buffer.compare(second.rawPayload, first.rawPayload)).toBe(0);
    const notModified = await qr(me, id, '', { 'if-none-match': etag });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.rawPayload.length).toBe(0);

    await call(api.app, me.key, 'PATCH', `/api/v1/links/${id}`, { qrCode: { dotsOptions: { type: 'dots', color: '#0d47a1' } } });
    const restyled = await qr(me, id, '', { 'if-none-match': etag });
    expect(restyled.statusCode).toBe(200);
    expect(restyled.headers.etag).not.toBe(etag);
    expect(restyled.headers['x-qr-cache']).toBe('miss');
    expect(await scansToLink(restyled.rawPayload, id)).toBe(true);
    // Another size is another picture.
    expect((await qr(me, id, '?size=200')).headers.etag).not.toBe(restyled.headers.etag);
  });

  it('deleting the link deletes its cached pictures', async () => {
    const id = await newLink(me);
    await qr(me, id);
    await qr(me, id, '?format=svg');
    const [row] = await api.ctx.database.pool.query('select id from links where slug = $1', [id]).then((r) => r.rows);
    const prefix = `qr-cache/${me.accountId}/link-${row.id}/`;
    const before: string[] = [];
    for await (const o of api.ctx.storage.list(prefix)) before.push(o.key);
    expect(before).toHaveLength(2);
    await call(api.app, me.key, 'DELETE', `/api/v1/links/${id}`);
    const after: string[] = [];
    for await (const o of api.ctx.storage.list(prefix)) after.push(o.key);
    expect(after).toEqual([]);
  });

  it.each([
    ['?format=gif', 'format'],
    ['?size=8', 'size'],
    ['?size=5000', 'size'],
    ['?size=big', 'size'],
    ['?colour=red', 'colour'],
  ])('bad query %s → 400 naming %s', async (q, path) => {
    const id = await newLink(me);
    const res = await qr(me, id, q);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  it('needs links.read; another account’s link is 404', async () => {
    const id = await newLink(me);
    const noRead = await addKey(api.ctx, me.accountId, ['links.create']);
    expect((await call(api.app, noRead.key, 'GET', `/api/v1/links/${id}/qr`)).statusCode).toBe(403);
    const res = await qr(other, id);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'link_not_found', message: 'Link not found' });
  });

  it('a burst of renders runs off the event loop: a cheap request finishes while they are still going', async () => {
    const ids = await Promise.all(Array.from({ length: 6 }, () => newLink(me)));
    let rendersDone = 0;
    const renders = ids.flatMap((id, i) =>
      [qr(me, id, `?size=${1200 + i * 10}`), qr(me, id, `?size=${1300 + i * 10}`)].map((p) => p.then((r) => (rendersDone++, r))),
    );
    await new Promise((r) => setImmediate(r));
    const health = await api.app.inject({ method: 'GET', url: '/health' });
    expect(health.statusCode).toBe(200);
    expect(rendersDone).toBeLessThan(renders.length);
    for (const r of await Promise.all(renders)) expect(r.statusCode).toBe(200);
  });
});

describe('centre images', () => {
  const logo = `data:image/png;base64,${pngBytes(40, 40, [220, 40, 40]).toString('base64')}`;

  it('a data URI logo is drawn and the code still scans', async () => {
    const id = await newLink(me, {
      qrOptions: {
        image: logo,
        qrOptions: { errorCorrectionLevel: 'H' },
        imageOptions: { imageSize: 0.3, hideBackgroundDots: true, margin: 2 },
      },
    });
    const plain = await newLink(me, { qrOptions: { qrOptions: { errorCorrectionLevel: 'H' } } });
    const withLogo = await qr(me, id);
    expect(withLogo.statusCode).toBe(200);
    expect(await scansToLink(withLogo.rawPayload, id)).toBe(true);
    // The logo's red shows in the middle of the picture, and not in a code without it.
    const { PNG } = await import('pngjs');
    const redAtCentre = (png: Buffer) => {
      const img = PNG.sync.read(png);
      const i = (img.width * (img.height >> 1) + (img.width >> 1)) * 4;
      return img.data[i]! > 180 && img.data[i + 1]! < 90 && img.data[i + 2]! < 90;
    };
    expect(redAtCentre(withLogo.rawPayload)).toBe(true);
    expect(redAtCentre((await qr(me, plain)).rawPayload)).toBe(false);
  });

  it("an uploaded file of the account is used by its URL; another account's is refused", async () => {
    const file = await uploadFile(api.app, me.key, pngBytes(30, 30, [20, 20, 200]), 'logo.png');
    const id = await newLink(me, {
      qrOptions: { image: file.url, qrOptions: { errorCorrectionLevel: 'H' }, imageOptions: { imageSize: 0.25 } },
    });
    expect(await scansToLink((await qr(me, id)).rawPayload, id)).toBe(true);
    const res = await call(api.app, other.key, 'POST', '/api/v1/links', {
      name: 'x',
      type: 'website',
      data: { url: 'https://example.com' },
      qrOptions: { image: file.url },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ path: 'qrOptions.image', message: 'File not found' }]);
  });

  it.each([
    ['http://127.0.0.1/logo.png'],
    ['http://169.254.169.254/latest/meta-data'],
    ['http://[::1]/logo.png'],
    ['http://10.1.2.3/logo.png'],
  ])('an image URL to a non-public address (%s) is refused wherever options are written', async (url) => {
    const create = await call(api.app, me.key, 'POST', '/api/v1/links', {
      name: 'x',
      type: 'website',
      data: { url: 'https://example.com' },
      qrOptions: { image: url },
    });
    expect(create.statusCode).toBe(400);
    expect(create.json().errors[0].path).toBe('qrOptions.image');
    const id = await newLink(me);
    const patch = await call(api.app, me.key, 'PATCH', `/api/v1/links/${id}`, { qrCode: { image: url } });
    expect(patch.statusCode).toBe(400);
    expect(patch.json().errors[0].path).toBe('qrCode.image');
    const tpl = await call(api.app, me.key, 'POST', '/api/v1/templates', { name: 't', qrOptions: { image: url } });
    expect(tpl.statusCode).toBe(400);
    expect(tpl.json().errors[0].path).toBe('qrOptions.image');
  });
});

describe('GET /templates/:id/preview', () => {
  it('renders the template on sample data, PNG and SVG', async () => {
    const tpl = (
      await call(api.app, me.key, 'POST', '/api/v1/templates', {
        name: 'p',
        qrOptions: { dotsOptions: { type: 'rounded', color: '#6a1b9a' } },
      })
    ).json();
    const png = await call(api.app, me.key, 'GET', `/api/v1/templates/${tpl.id}/preview`);
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(decodePng(png.rawPayload)).toBe(`${SHORT}/Preview?q`);
    const svg = await call(api.app, me.key, 'GET', `/api/v1/templates/${tpl.id}/preview?format=svg&size=256`);
    expect(svg.headers['content-type']).toBe('image/svg+xml');
    expect(svg.body).toContain('<svg');
  });

  it('needs templates.read; another account’s template is 404', async () => {
    const tpl = (await call(api.app, me.key, 'POST', '/api/v1/templates', { name: 'q', qrOptions: {} })).json();
    const noRead = await addKey(api.ctx, me.accountId, ['links.read']);
    expect((await call(api.app, noRead.key, 'GET', `/api/v1/templates/${tpl.id}/preview`)).statusCode).toBe(403);
    expect((await call(api.app, other.key, 'GET', `/api/v1/templates/${tpl.id}/preview`)).statusCode).toBe(404);
  });
});

describe('qr-render job: a batch of links into PNG and SVG files and one ZIP', () => {
  let workers: RunningWorkers;
  let queues: Queues;
  beforeAll(async () => {
    // Queues of their own, so that only this worker takes these jobs and sees these scans (other
    // test files run workers on the shared prefix at the same time). Bulk work paces itself from
    // the first scan a second: the pacing test needs only a trickle of scans.
    const prefix = `${api.ctx.config.REDIS_NAMESPACE}:paced`;
    queues = createQueues(api.ctx.redis, prefix);
    workers = await startWorkers({
      ...api.ctx,
      queues,
      config: { ...api.ctx.config, REDIS_NAMESPACE: prefix, BULK_PACE_SCANS_PER_SEC: 1 },
    });
  });
  afterAll(async () => {
    await workers.close();
    await closeQueues(queues);
  });

  async function linkIdsOf(slugs: string[]): Promise<string[]> {
    const rows = (await api.ctx.database.pool.query('select id, slug from links where slug = any($1)', [slugs])).rows;
    const bySlug = new Map(rows.map((r) => [r.slug, r.id]));
    return slugs.map((s) => bySlug.get(s));
  }
  async function finished(acct: TestAccount, jobId: string) {
    let job: { state: string; progress: number; result?: { zipKey: string; count: number; bytes: number } } = {
      state: 'queued',
      progress: 0,
    };
    for (let i = 0; i < 600 && job.state !== 'completed' && job.state !== 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      job = (await call(api.app, acct.key, 'GET', `/api/v1/jobs/${jobId}`)).json();
    }
    return job;
  }
  async function storedZip(zipKey: string): Promise<Buffer> {
    const zip = await api.ctx.storage.get(zipKey);
    const chunks: Buffer[] = [];
    for await (const c of zip!.body) chunks.push(c as Buffer);
    return Buffer.concat(chunks);
  }

  it('renders every link twice into one ZIP whose PNGs scan, with progress to 100', async () => {
    const acct = await createTestAccount(api.ctx);
    const slugs: string[] = [];
    for (let i = 0; i < 12; i++) slugs.push(await newLink(acct));
    const jobId = await enqueueAccountJob(
      api.ctx.db,
      queues['qr-render'],
      {
        accountId: acct.accountId,
        type: 'qr-render',
        payload: { linkIds: await linkIdsOf(slugs) },
      },
      api.ctx.config.JOB_ACCOUNT_QUEUE,
    );
    const job = await finished(acct, jobId);
    expect(job.state).toBe('completed');
    expect(job.progress).toBe(100);
    expect(job.result).toMatchObject({ count: 12, zipKey: `accounts/${acct.accountId}/exports/${jobId}/qr-codes.zip` });
    const zip = await storedZip(job.result!.zipKey);
    const entries = await unzip(zip);
    expect([...entries.keys()].sort()).toEqual(slugs.flatMap((s) => [`${s}.png`, `${s}.svg`]).sort());
    // The download route serves the same ZIP.
    const download = await call(api.app, acct.key, 'GET', `/api/v1/jobs/${jobId}/download`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/zip');
    expect(download.headers['content-disposition']).toBe('attachment; filename="qr-codes.zip"');
    expect(download.rawPayload.equals(zip)).toBe(true);
    // PNGs are deflated already and go in stored; SVG text is deflated.
    for (const [name, method] of await zipMethods(zip)) expect([name, method]).toEqual([name, name.endsWith('.png') ? 0 : 8]);
    for (const s of slugs) {
      expect(decodePng(entries.get(`${s}.png`)!)).toBe(`${SHORT}/${s}?q`);
      expect(entries.get(`${s}.svg`)!.toString()).toContain('<svg');
    }
    // The renders also filled the cache GET /links/:id/qr reads.
    expect((await qr(acct, slugs[0]!)).headers['x-qr-cache']).toBe('hit');
    // No scans were arriving: the job never paused for them.
    expect((await queues['qr-render'].getJobLogs(jobId)).logs).toEqual([]);
  });

  it('while scans arrive it paces itself (logged on the job) and still delivers every code', async () => {
    const acct = await createTestAccount(api.ctx);
    const slugs: string[] = [];
    for (let i = 0; i < 6; i++) slugs.push(await newLink(acct));
    const ids = await linkIdsOf(slugs);
    // A trickle of real scan batches through the same worker, for as long as the job runs.
    let scanning = true;
    const scans = (async () => {
      while (scanning) {
        const batch = encodeScanBatch([
          {
            id: randomUUID(),
            linkId: ids[0]!,
            accountId: acct.accountId,
            at: Date.now(),
            browserName: null,
            deviceType: null,
            deviceVendor: null,
            osName: null,
            countryName: null,
            region: null,
            city: null,
            isBot: false,
          },
        ]);
        await queues.scans.add('scans', batch, { ...SCAN_JOB_OPTIONS, jobId: randomUUID() });
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    await new Promise((r) => setTimeout(r, 500));
    const jobId = await enqueueAccountJob(
      api.ctx.db,
      queues['qr-render'],
      { accountId: acct.accountId, type: 'qr-render', payload: { linkIds: ids } },
      api.ctx.config.JOB_ACCOUNT_QUEUE,
    );
    const job = await finished(acct, jobId);
    scanning = false;
    await scans;
    expect(job.state).toBe('completed');
    expect(job.result?.count).toBe(6);
    const entries = await unzip(await storedZip(job.result!.zipKey));
    expect([...entries.keys()].sort()).toEqual(slugs.flatMap((s) => [`${s}.png`, `${s}.svg`]).sort());
    for (const s of slugs) expect(decodePng(entries.get(`${s}.png`)!)).toBe(`${SHORT}/${s}?q`);
    const { logs } = await queues['qr-render'].getJobLogs(jobId);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(/^paused \d+ ms in all while scans were arriving/);
  });

  it("draws a frame's default text in the language of the link's page, as GET …/qr does", async () => {
    const acct = await createTestAccount(api.ctx);
    const cafe = await call(api.app, acct.key, 'POST', '/api/v1/cafes', { name: 'Pastelaria', language: 'pt-PT' });
    expect(cafe.statusCode, cafe.body).toBe(200);
    const menu = cafe.json().data.link.dynamic_link_id as string;
    const framed = await call(api.app, acct.key, 'PATCH', `/api/v1/links/${menu}`, { qrCode: { frameOptions: { style: 'table-tent' } } });
    expect(framed.statusCode, framed.body).toBe(200);
    const jobId = await enqueueAccountJob(
      api.ctx.db,
      queues['qr-render'],
      { accountId: acct.accountId, type: 'qr-render', payload: { linkIds: await linkIdsOf([menu]) } },
      api.ctx.config.JOB_ACCOUNT_QUEUE,
    );
    const job = await finished(acct, jobId);
    expect(job.state).toBe('completed');
    const svg = (await unzip(await storedZip(job.result!.zipKey))).get(`${menu}.svg`)!.toString();
    // The text is drawn as outlines: the same picture as one asked with the Portuguese words.
    expect(svg).toBe((await qr(acct, menu, '?format=svg')).body);
    expect(svg).toBe((await qr(acct, menu, `?format=svg&frameText=${encodeURIComponent('Leia para ver o menu')}`)).body);
    expect(svg).not.toBe((await qr(acct, menu, `?format=svg&frameText=${encodeURIComponent('Scan for the menu')}`)).body);
  });

  it("renders only the job account's links", async () => {
    const acct = await createTestAccount(api.ctx);
    const mine = await newLink(acct);
    const theirs = await newLink(other);
    const jobId = await enqueueAccountJob(
      api.ctx.db,
      queues['qr-render'],
      {
        accountId: acct.accountId,
        type: 'qr-render',
        payload: { linkIds: await linkIdsOf([mine, theirs]) },
      },
      api.ctx.config.JOB_ACCOUNT_QUEUE,
    );
    const job = await finished(acct, jobId);
    expect(job.result?.count).toBe(1);
    expect([...(await unzip(await storedZip(job.result!.zipKey))).keys()].sort()).toEqual([`${mine}.png`, `${mine}.svg`]);
  });
});

describe('options that can never encode the short URL are refused when written', () => {
  it.each([
    [{ qrOptions: { mode: 'Numeric' } }, 'qrOptions.qrOptions.mode'],
    [{ qrOptions: { mode: 'Kanji' } }, 'qrOptions.qrOptions.mode'],
    [{ qrOptions: { typeNumber: 1, errorCorrectionLevel: 'H' } }, 'qrOptions.qrOptions.typeNumber'],
  ])('%o → 400 at %s (create), and at qrCode… (PATCH)', async (qrOptions, path) => {
    const create = await call(api.app, me.key, 'POST', '/api/v1/links', {
      name: 'x',
      type: 'website',
      data: { url: 'https://example.com' },
      qrOptions,
    });
    expect(create.statusCode).toBe(400);
    expect(create.json().errors[0].path).toBe(path);
    const id = await newLink(me);
    const patch = await call(api.app, me.key, 'PATCH', `/api/v1/links/${id}`, { qrCode: qrOptions });
    expect(patch.statusCode).toBe(400);
    expect(patch.json().errors[0].path).toBe(path.replace(/^qrOptions\./, 'qrCode.'));
  });

  it('a typeNumber large enough is fine', async () => {
    const id = await newLink(me, { qrOptions: { qrOptions: { typeNumber: 6, errorCorrectionLevel: 'M' } } });
    expect(decodePng((await qr(me, id)).rawPayload)).toBe(`${SHORT}/${id}?q`);
  });
});
