import { randomBytes, randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildRedirectApp } from '#redirect/app.js';
import type { AppContext } from '#infra/context.js';
import { findAccountFiles, storeUpload } from '#domain/files/files.js';
import type { ObjectStorage } from '#platform/storage/index.js';
import { pdfBytes, pngBytes, uploadFile } from '../../support/fixtures.js';
import { call, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';
import { storageDrivers } from '../../support/s3rver.js';

const PNG = pngBytes(40, 30);
const PDF = pdfBytes('ranges and conditional requests');
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="red"/></svg>';
/** Every stored file, whatever its type, is a sandboxed document that may load nothing. */
const FILE_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";
const CACHE_FOREVER = 'public, max-age=31536000, immutable';

const DRIVERS = storageDrivers('qrlinks-redirect-files');

/** The context with its storage wrapped, so a test sees (and can break) what the route asks of storage. */
function withStorage(ctx: AppContext, wrap: (storage: ObjectStorage) => Partial<ObjectStorage>): AppContext {
  return { ...ctx, storage: { ...ctx.storage, ...wrap(ctx.storage) } };
}

describe.each(DRIVERS)('GET and HEAD /files/:id on the $name driver', (driver) => {
  let api: TestApi;
  let stop: () => Promise<void>;
  let account: TestAccount;
  let redirect: FastifyInstance;
  /** Every body stream storage handed out, to check none is left open. */
  const bodies: Readable[] = [];
  const ids = { png: '', pdf: '', svg: '' };

  beforeAll(async () => {
    const started = await driver.start();
    stop = started.stop;
    api = await startTestApi(started.env);
    account = await createTestAccount(api.ctx);
    ids.png = (await uploadFile(api.app, account.key, PNG, 'logo.png', 'image/png')).fileId;
    ids.pdf = (await uploadFile(api.app, account.key, PDF, "Menü (v2)'s *final*.pdf", 'application/pdf')).fileId;
    ids.svg = (await uploadFile(api.app, account.key, Buffer.from(SVG), 'icon.svg', 'image/svg+xml')).fileId;
    const counting = withStorage(api.ctx, (storage) => ({
      get: async (key, range) => {
        const got = await storage.get(key, range);
        if (got) bodies.push(got.body);
        return got;
      },
    }));
    redirect = await buildRedirectApp(counting);
    await redirect.ready();
  });

  afterAll(async () => {
    await redirect?.close();
    await api?.close();
    await stop?.();
  });

  const get = (id: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
    redirect.inject({ method, url: `/files/${id}`, headers });

  /** The body must be exactly the bytes Content-Range names. */
  function expectRange(res: LightMyRequestResponse, file: Buffer, start: number, end: number) {
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes ${start}-${end}/${file.length}`);
    expect(res.headers['content-length']).toBe(String(end - start + 1));
    expect(res.rawPayload).toEqual(file.subarray(start, end + 1));
  }

  describe('whole files', () => {
    it('serves a PNG with its type, length, bytes and caching headers', async () => {
      const res = await get(ids.png);
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload).toEqual(PNG);
      expect(res.headers).toMatchObject({
        'content-type': 'image/png',
        'content-length': String(PNG.length),
        'accept-ranges': 'bytes',
        etag: `"${ids.png}"`,
        'cache-control': CACHE_FOREVER,
        'x-content-type-options': 'nosniff',
        'content-disposition': "inline; filename*=UTF-8''logo.png",
      });
      const lastModified = Date.parse(String(res.headers['last-modified']));
      expect(Math.abs(Date.now() - lastModified)).toBeLessThan(5 * 60_000);
      expect(res.headers['content-security-policy']).toBe(FILE_CSP);
    });

    it('serves a PDF, with a non-ASCII original name encoded per RFC 8187', async () => {
      const res = await get(ids.pdf);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.rawPayload).toEqual(PDF);
      expect(res.headers['content-disposition']).toBe("inline; filename*=UTF-8''Men%C3%BC%20%28v2%29%27s%20%2Afinal%2A.pdf");
    });

    it('serves an SVG under a CSP that lets it run nothing', async () => {
      const res = await get(ids.svg);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/svg+xml');
      expect(res.headers['content-security-policy']).toBe(FILE_CSP);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.body).toContain('<rect');
    });

    it('sends an SVG compressed to clients that take it (brotli first), the same bytes either way; a range of it as stored', async () => {
      const plain = await get(ids.svg);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toBe('Accept-Encoding');
      for (const [accept, encoding, decode] of [
        ['gzip, deflate, br', 'br', brotliDecompressSync],
        ['gzip', 'gzip', gunzipSync],
      ] as const) {
        const res = await get(ids.svg, { 'accept-encoding': accept });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-encoding']).toBe(encoding);
        expect(res.headers['content-length']).toBeUndefined();
        expect(res.headers.etag).toBe(`"${ids.svg}.${encoding}"`);
        expect(decode(res.rawPayload).equals(plain.rawPayload)).toBe(true);
        // Its own ETag answers a revalidation of that representation.
        expect((await get(ids.svg, { 'accept-encoding': accept, 'if-none-match': res.headers.etag as string })).statusCode).toBe(304);
      }
      const ranged = await get(ids.svg, { 'accept-encoding': 'br', range: 'bytes=0-3' });
      expect(ranged.statusCode).toBe(206);
      expect(ranged.headers['content-encoding']).toBeUndefined();
      expect(ranged.rawPayload.toString()).toBe(plain.rawPayload.subarray(0, 4).toString());
      // Other types are sent as stored.
      expect((await get(ids.png, { 'accept-encoding': 'br' })).headers['content-encoding']).toBeUndefined();
    });

    it('serves every type sandboxed with nosniff, on GET, HEAD and ranges: a PDF with JavaScript, HTML after a PNG', async () => {
      const scripted = Buffer.from(
        '%PDF-1.4\n1 0 obj << /Type /Catalog /OpenAction << /S /JavaScript /JS (app.alert(document.cookie)) >> >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
        'latin1',
      );
      const polyglot = Buffer.concat([pngBytes(2, 2), Buffer.from('<html><script>alert(document.domain)</script></html>')]);
      const uploaded = [
        await uploadFile(api.app, account.key, scripted, 'open.pdf'),
        await uploadFile(api.app, account.key, polyglot, 'tail.png'),
      ];
      expect(uploaded.map((f) => f.contentType)).toEqual(['application/pdf', 'image/png']);
      for (const id of [...uploaded.map((f) => f.fileId), ids.png, ids.pdf, ids.svg]) {
        for (const res of [await get(id), await get(id, {}, 'HEAD'), await get(id, { range: 'bytes=0-3' })]) {
          expect(res.statusCode, id).toBeLessThan(300);
          expect(res.headers['content-security-policy'], id).toBe(FILE_CSP);
          expect(res.headers['x-content-type-options'], id).toBe('nosniff');
        }
      }
    });

    it('accepts the id in any letter case', async () => {
      const res = await get(ids.png.toUpperCase());
      expect(res.statusCode).toBe(200);
      expect(res.headers.etag).toBe(`"${ids.png}"`);
    });
  });

  describe('web-sized copies of a photo', () => {
    it('are made at upload (WebP 480/960/1600 and a JPEG 960, never wider than the photo), served under the file, and deleted with it', async () => {
      // A real 2000×1500 JPEG, made with the library the service uses (no copy is asked for here).
      const photo = await sharp({ create: { width: 2000, height: 1500, channels: 3, background: { r: 180, g: 90, b: 30 } } })
        .jpeg()
        .toBuffer();
      const { fileId } = await uploadFile(api.app, account.key, photo, 'IMG_2041.jpg', 'image/jpeg');
      const [stored] = await findAccountFiles(api.ctx.db, account.accountId, [fileId]);
      for (const [name, type, width, height] of [
        ['480.webp', 'image/webp', 480, 360],
        ['960.webp', 'image/webp', 960, 720],
        ['1600.webp', 'image/webp', 1600, 1200],
        ['960.jpg', 'image/jpeg', 960, 720],
      ] as const) {
        const res = await redirect.inject({ url: `/files/${fileId}/${name}` });
        expect(res.statusCode, name).toBe(200);
        expect(res.headers['content-type']).toBe(type);
        expect(res.headers['cache-control']).toBe(CACHE_FOREVER);
        expect(res.headers.etag).toBe(`"${fileId}.${name}"`);
        expect(res.headers['content-disposition']).toBeUndefined();
        const meta = await sharp(res.rawPayload).metadata();
        expect([meta.format, meta.width, meta.height]).toEqual([type === 'image/webp' ? 'webp' : 'jpeg', width, height]);
        expect(res.rawPayload.length).toBeLessThan(photo.length);
        expect((await redirect.inject({ method: 'HEAD', url: `/files/${fileId}/${name}` })).headers['content-length']).toBe(
          String(res.rawPayload.length),
        );
      }
      // No other width or name, and none for a picture smaller than the smallest copy.
      for (const name of ['2000.webp', '480.png', '480.webp.x', '..%2F..%2Fx'])
        expect((await redirect.inject({ url: `/files/${fileId}/${name}` })).statusCode, name).toBe(404);
      expect((await redirect.inject({ url: `/files/${ids.png}/480.webp` })).statusCode).toBe(404);

      // The link's page offers the copies by width, the JPEG copy as the fallback.
      const created = await call(api.app, account.key, 'POST', '/api/v1/links', {
        name: 'Terrace',
        type: 'image',
        data: { files: [{ fileId }] },
      });
      expect(created.statusCode, created.body).toBe(200);
      const slug = created.json().id as string;
      const page = (await redirect.inject({ url: `/${slug}` })).body;
      expect(page).toContain(`srcset="/files/${fileId}/480.webp 480w, /files/${fileId}/960.webp 960w, /files/${fileId}/1600.webp 1600w"`);
      expect(page).toContain(`src="/files/${fileId}/960.jpg"`);

      // Deleted with the file (its link deleted here), copies and all.
      const keys = [stored!.storageKey, ...['480.webp', '960.webp', '1600.webp', '960.jpg'].map((n) => `${stored!.storageKey}.${n}`)];
      for (const key of keys) expect(await api.ctx.storage.stat(key), key).not.toBeNull();
      expect((await call(api.app, account.key, 'DELETE', `/api/v1/links/${slug}`)).statusCode).toBe(200);
      for (const key of keys) expect(await api.ctx.storage.stat(key), key).toBeNull();
    });

    it('a PDF gets a 480 px picture of its first page (WebP and JPEG), which its page shows as a cover; a PDF pdf.js cannot draw gets none', async () => {
      const { fileId } = await uploadFile(api.app, account.key, pdfBytes('Lunch menu, first page'), 'lunch.pdf', 'application/pdf');
      const cover = await redirect.inject({ url: `/files/${fileId}/480.webp` });
      expect(cover.statusCode).toBe(200);
      const meta = await sharp(cover.rawPayload).metadata();
      expect([meta.format, meta.width]).toEqual(['webp', 480]);
      // Drawn, not blank: the page's text leaves dark pixels on the white page.
      const { channels } = await sharp(cover.rawPayload).stats();
      expect(channels[0]!.min).toBeLessThan(100);
      expect((await redirect.inject({ url: `/files/${fileId}/480.jpg` })).statusCode).toBe(200);
      const created = await call(api.app, account.key, 'POST', '/api/v1/links', {
        name: 'Lunch',
        type: 'pdf',
        data: { files: [{ fileId }] },
      });
      const page = (await redirect.inject({ url: `/${created.json().id as string}` })).body;
      expect(page).toContain(`<li class="card pdf-card-with-cover"><picture><source type="image/webp" srcset="/files/${fileId}/480.webp">`);
      // The file itself is unchanged.
      expect((await redirect.inject({ url: `/files/${fileId}` })).headers['content-type']).toBe('application/pdf');

      const broken = await uploadFile(
        api.app,
        account.key,
        Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n'),
        'broken.pdf',
        'application/pdf',
      );
      expect((await redirect.inject({ url: `/files/${broken.fileId}` })).statusCode).toBe(200);
      expect((await redirect.inject({ url: `/files/${broken.fileId}/480.webp` })).statusCode).toBe(404);
    });

    it('a photo narrower than a width gets only the narrower copies; a picture sharp cannot read is stored as it is', async () => {
      const narrow = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#336699' } })
        .png()
        .toBuffer();
      const { fileId } = await uploadFile(api.app, account.key, narrow, 'narrow.png', 'image/png');
      expect((await redirect.inject({ url: `/files/${fileId}/480.webp` })).statusCode).toBe(200);
      expect((await redirect.inject({ url: `/files/${fileId}/480.jpg` })).statusCode).toBe(200);
      expect((await redirect.inject({ url: `/files/${fileId}/960.webp` })).statusCode).toBe(404);
      // A JPEG signature and nothing a decoder can use.
      const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(4000)]);
      const stored = await uploadFile(api.app, account.key, broken, 'broken.jpg', 'image/jpeg');
      expect((await redirect.inject({ url: `/files/${stored.fileId}` })).statusCode).toBe(200);
      expect((await redirect.inject({ url: `/files/${stored.fileId}/480.webp` })).statusCode).toBe(404);
    });
  });

  describe('HEAD', () => {
    it('answers the headers of GET without a body, and without reading storage', async () => {
      const before = bodies.length;
      const res = await get(ids.pdf, {}, 'HEAD');
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.length).toBe(0);
      expect(res.headers).toMatchObject({
        'content-type': 'application/pdf',
        'content-length': String(PDF.length),
        'accept-ranges': 'bytes',
        etag: `"${ids.pdf}"`,
      });
      const ranged = await get(ids.pdf, { range: 'bytes=10-19' }, 'HEAD');
      expect(ranged.statusCode).toBe(206);
      expect(ranged.headers['content-range']).toBe(`bytes 10-19/${PDF.length}`);
      expect(ranged.headers['content-length']).toBe('10');
      expect(ranged.rawPayload.length).toBe(0);
      expect(bodies.length).toBe(before);
    });
  });

  describe('ranges', () => {
    it('serves bytes=a-b exactly', async () => {
      expectRange(await get(ids.pdf, { range: 'bytes=10-19' }), PDF, 10, 19);
      expectRange(await get(ids.pdf, { range: 'bytes=1-1' }), PDF, 1, 1);
      expectRange(await get(ids.pdf, { range: `bytes=${PDF.length - 1}-${PDF.length - 1}` }), PDF, PDF.length - 1, PDF.length - 1);
    });

    it('serves an open range bytes=a- to the last byte', async () => {
      expectRange(await get(ids.pdf, { range: 'bytes=100-' }), PDF, 100, PDF.length - 1);
    });

    it('serves a suffix range bytes=-n as the last n bytes, the whole file when n is larger', async () => {
      expectRange(await get(ids.pdf, { range: 'bytes=-25' }), PDF, PDF.length - 25, PDF.length - 1);
      expectRange(await get(ids.pdf, { range: `bytes=-${PDF.length * 2}` }), PDF, 0, PDF.length - 1);
    });

    it('clamps an end past the last byte', async () => {
      expectRange(await get(ids.png, { range: 'bytes=20-999999999999' }), PNG, 20, PNG.length - 1);
    });

    it('answers a range starting past the end, or -0, with 416 and the size', async () => {
      for (const range of [
        `bytes=${PDF.length}-`,
        `bytes=${PDF.length + 5}-${PDF.length + 10}`,
        'bytes=-0',
        'bytes=99999999999999999999999-',
      ]) {
        const res = await get(ids.pdf, { range });
        expect(res.statusCode, range).toBe(416);
        expect(res.headers['content-range'], range).toBe(`bytes */${PDF.length}`);
      }
    });

    it('ignores malformed and multi-range headers and sends the whole file', async () => {
      for (const range of ['bytes=5-2', 'bytes=0-1,4-5', 'bytes=-', 'bytes=abc', 'items=0-5', 'bytes 0-5', 'bytes=1.5-3']) {
        const res = await get(ids.png, { range });
        expect(res.statusCode, range).toBe(200);
        expect(res.headers['content-range'], range).toBeUndefined();
        expect(res.rawPayload, range).toEqual(PNG);
      }
    });

    it('keeps the range only when If-Range names this version', async () => {
      const head = await get(ids.png, {}, 'HEAD');
      const lastModified = String(head.headers['last-modified']);
      expectRange(await get(ids.png, { range: 'bytes=0-7', 'if-range': `"${ids.png}"` }), PNG, 0, 7);
      expectRange(await get(ids.png, { range: 'bytes=0-7', 'if-range': lastModified }), PNG, 0, 7);
      for (const ifRange of [`"${randomUUID()}"`, `W/"${ids.png}"`, 'Thu, 01 Jan 1970 00:00:00 GMT']) {
        const res = await get(ids.png, { range: 'bytes=0-7', 'if-range': ifRange });
        expect(res.statusCode, ifRange).toBe(200);
        expect(res.rawPayload).toEqual(PNG);
      }
    });
  });

  describe('conditional requests', () => {
    it('answers If-None-Match naming the ETag (weak or strong, in a list, or *) with 304 and no body', async () => {
      for (const ifNoneMatch of [`"${ids.png}"`, `W/"${ids.png}"`, `"${randomUUID()}", "${ids.png}"`, '*']) {
        const res = await get(ids.png, { 'if-none-match': ifNoneMatch });
        expect(res.statusCode, ifNoneMatch).toBe(304);
        expect(res.rawPayload.length).toBe(0);
        expect(res.headers.etag).toBe(`"${ids.png}"`);
        expect(res.headers['cache-control']).toBe(CACHE_FOREVER);
      }
    });

    it('serves the file when If-None-Match names another version', async () => {
      const res = await get(ids.png, { 'if-none-match': `"${randomUUID()}"` });
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload).toEqual(PNG);
    });

    it('answers 304 before looking at Range', async () => {
      const res = await get(ids.png, { 'if-none-match': `"${ids.png}"`, range: 'bytes=0-3' });
      expect(res.statusCode).toBe(304);
    });

    it('uses If-Modified-Since only without If-None-Match', async () => {
      const lastModified = String((await get(ids.png, {}, 'HEAD')).headers['last-modified']);
      expect((await get(ids.png, { 'if-modified-since': lastModified })).statusCode).toBe(304);
      expect((await get(ids.png, { 'if-modified-since': 'Thu, 01 Jan 1970 00:00:00 GMT' })).statusCode).toBe(200);
      expect((await get(ids.png, { 'if-modified-since': 'not a date' })).statusCode).toBe(200);
      const both = await get(ids.png, { 'if-modified-since': lastModified, 'if-none-match': `"${randomUUID()}"` });
      expect(both.statusCode).toBe(200);
    });
  });

  describe('not found', () => {
    it('answers an unknown id, a non-UUID id and an empty id with the 404 page', async () => {
      for (const id of [randomUUID(), 'not-a-uuid', "1' or '1'='1", '']) {
        const res = await get(encodeURIComponent(id));
        expect(res.statusCode, id).toBe(404);
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(res.body).toContain('not found');
      }
      const head = await get(randomUUID(), {}, 'HEAD');
      expect(head.statusCode).toBe(404);
      expect(head.rawPayload.length).toBe(0);
    });

    it('answers 404, not 500, when the row is there but the object is gone', async () => {
      const { fileId } = await uploadFile(api.app, account.key, pngBytes(3, 3), 'gone.png', 'image/png');
      const [file] = await findAccountFiles(api.ctx.db, account.accountId, [fileId]);
      await api.ctx.storage.delete(file!.storageKey);
      const res = await get(fileId);
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers.etag).toBeUndefined();
    });
  });

  it('destroys the storage stream when the client goes away mid-file', async () => {
    // Far more than the socket buffers hold, so the server is still sending when the client leaves.
    const big = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(16 * 1024 * 1024)]);
    const { fileId } = await storeUpload(api.ctx, account.accountId, { buffer: big, originalName: 'big.pdf' });
    await redirect.listen({ host: '127.0.0.1', port: 0 });
    const { port } = redirect.server.address() as AddressInfo;
    const before = bodies.length;
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: `/files/${fileId}` }, (res) => {
        expect(res.statusCode).toBe(200);
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
      req.end();
    });
    expect(bodies.length).toBe(before + 1);
    const body = bodies[before]!;
    await vi.waitFor(() => expect(body.destroyed).toBe(true), { timeout: 5000 });
    expect(body.readableEnded).toBe(false);
    // The server carries on.
    expect((await get(ids.png)).rawPayload).toEqual(PNG);
  });
});

describe('GET /files/:id when a dependency fails', () => {
  let api: TestApi;
  let fileId: string;
  const apps: FastifyInstance[] = [];

  beforeAll(async () => {
    api = await startTestApi();
    const account = await createTestAccount(api.ctx);
    fileId = (await uploadFile(api.app, account.key, PNG, 'logo.png', 'image/png')).fileId;
  });

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    await api?.close();
  });

  async function redirectWith(ctx: AppContext): Promise<FastifyInstance> {
    const app = await buildRedirectApp(ctx);
    apps.push(app);
    return app;
  }

  /** A 503 page that carries none of the file's headers (above all not a year of caching). */
  function expectUnavailable(res: LightMyRequestResponse) {
    expect(res.statusCode).toBe(503);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    for (const name of ['etag', 'content-range', 'content-disposition', 'last-modified', 'accept-ranges']) {
      expect(res.headers[name], name).toBeUndefined();
    }
    expect(res.body).not.toMatch(/Error|at .*\.ts/);
  }

  it('answers 503 when storage fails', async () => {
    const app = await redirectWith(
      withStorage(api.ctx, () => ({ get: async () => Promise.reject(new Error('ECONNREFUSED 10.0.0.1:9000')) })),
    );
    expectUnavailable(await app.inject({ url: `/files/${fileId}` }));
    expectUnavailable(await app.inject({ url: `/files/${fileId}`, headers: { range: 'bytes=0-3' } }));
  });

  it('answers 503 when the object stream fails before its first byte', async () => {
    const app = await redirectWith(
      withStorage(api.ctx, (storage) => ({
        get: async (key, range) => {
          const got = (await storage.get(key, range))!;
          got.body.destroy();
          // Like an S3 connection reset after the object's headers came and before its bytes.
          const failing = new Readable({ read: () => setImmediate(() => failing.destroy(new Error('socket hang up'))) });
          return { ...got, body: failing };
        },
      })),
    );
    expectUnavailable(await app.inject({ url: `/files/${fileId}`, headers: { range: 'bytes=0-3' } }));
  });

  it('answers 503 when Postgres fails', async () => {
    const brokenDb = new Proxy(api.ctx.db, {
      get: (db, name, receiver) =>
        name === 'select'
          ? () => {
              throw new Error('Connection terminated unexpectedly');
            }
          : Reflect.get(db, name, receiver),
    });
    const app = await redirectWith({ ...api.ctx, db: brokenDb });
    expectUnavailable(await app.inject({ url: `/files/${fileId}` }));
  });
});
