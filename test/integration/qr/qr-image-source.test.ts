/**
 * The QR centre-image loader and the SSRF-safe fetch behind it, over real sockets. Nothing here
 * reaches the internet: every URL is either refused before any connection (scheme, credentials,
 * port, address ranges) or points at the local test server on 127.0.0.1, which is allowed only
 * where the test sets QR_IMAGE_FETCH_ALLOW_CIDRS=127.0.0.1/32.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSecureContext, type SecureContext } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '#platform/config/index.js';
import { ConfigError, loadConfig } from '#platform/config/index.js';
import { fileUrl, storeUpload } from '#domain/files/files.js';
import { ValidationError } from '#domain/errors.js';
import { inRanges, isPublicAddress, parseCidrList } from '#platform/net/ip-ranges.js';
import { safeFetch, SafeFetchError } from '#platform/net/safe-fetch.js';
import {
  loadQrImage,
  ownFileId,
  QR_SVG_FILTERS_MESSAGE,
  QR_SVG_MAX_DEPTH,
  QR_SVG_MAX_MASKS,
  QR_SVG_TOO_COMPLEX_MESSAGE,
  type QrImageContext,
} from '#domain/qr/image-source.js';
import { pdfBytes, pngBytes } from '../../support/fixtures.js';
import { createTestAccount, startTestApi, type TestApi } from '../../support/harness.js';

// ---------------------------------------------------------------------------------------------
// Real images, plus headers built by hand to check each size parser with sizes other than 1 × 1.

const PNG = pngBytes(3, 5);
const JPEG_1x1 = Buffer.from(
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
  'base64',
);
const GIF_1x1 = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const WEBP_LOSSLESS_1x1 = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');

/** JFIF APP0, a baseline SOF0 of the given size, EOI. */
function jpegHeader(width: number, height: number): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, ...Buffer.from('JFIF\0', 'latin1'), 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const sof = Buffer.alloc(19);
  sof.set([0xff, 0xc0, 0x00, 0x11, 0x08]);
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  sof.set([3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1], 9);
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    app0,
    Buffer.from([0xff, 0xff]) /* fill bytes */,
    sof.subarray(1),
    Buffer.from([0xff, 0xd9]),
  ]);
}

function gifOfSize(width: number, height: number): Buffer {
  const gif = Buffer.from(GIF_1x1);
  gif.writeUInt16LE(width, 6);
  gif.writeUInt16LE(height, 8);
  return gif;
}

function riff(chunk: string, payload: Buffer): Buffer {
  const head = Buffer.alloc(20);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(12 + payload.length, 4);
  head.write('WEBP', 8, 'latin1');
  head.write(chunk, 12, 'latin1');
  head.writeUInt32LE(payload.length, 16);
  return Buffer.concat([head, payload]);
}

function webpExtended(width: number, height: number): Buffer {
  const p = Buffer.alloc(10);
  p.writeUIntLE(width - 1, 4, 3);
  p.writeUIntLE(height - 1, 7, 3);
  return riff('VP8X', p);
}

function webpLossy(width: number, height: number): Buffer {
  const p = Buffer.alloc(10);
  p.set([0x9d, 0x01, 0x2a], 3);
  p.writeUInt16LE(width, 6);
  p.writeUInt16LE(height, 8);
  return riff('VP8 ', p);
}

function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A throwaway self-signed certificate for "localhost", made for this run only. */
function selfSignedLocalhost(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'qr-image-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const dataUri = (type: string, bytes: Buffer | string) => `data:${type};base64,${Buffer.from(bytes).toString('base64')}`;

const SVG_NS = 'http://www.w3.org/2000/svg';
const svg = (attrs: string, body = '<rect width="10" height="10"/>') => `<svg xmlns="${SVG_NS}" ${attrs}>${body}</svg>`;

// ---------------------------------------------------------------------------------------------
// A local server on 127.0.0.1 playing every kind of image host.

let server: http.Server;
let port = 0;
let requests: string[] = [];
let rawServer: net.Server;
let rawPort = 0;
let hugeAborted: Promise<boolean>;
let markHugeAborted: (v: boolean) => void;

function route(req: http.IncomingMessage, res: http.ServerResponse): void {
  const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
  requests.push(url.pathname);
  const chain = /^\/chain\/(\d+)$/.exec(url.pathname);
  if (chain) {
    const n = Number(chain[1]);
    if (n === 0) return void res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    return void res.writeHead(302, { location: `/chain/${n - 1}` }).end();
  }
  switch (url.pathname) {
    case '/logo.png':
      res.writeHead(200, { 'content-type': 'image/png', 'x-seen-host': req.headers.host ?? '' }).end(PNG);
      return;
    case '/logo.svg':
      res.writeHead(200, { 'content-type': 'image/svg+xml' }).end(svg('viewBox="0 0 40 20"', '<script>alert(1)</script><circle r="5"/>'));
      return;
    case '/host':
      res.writeHead(200, { 'content-type': 'text/plain' }).end(req.headers.host ?? '');
      return;
    case '/redirect':
      res.writeHead(302, { location: url.searchParams.get('to') ?? '' }).end();
      return;
    case '/fake.png':
      res.writeHead(200, { 'content-type': 'image/png' }).end('<!doctype html><html><body>not a picture</body></html>');
      return;
    case '/missing.png':
      res.writeHead(404, { 'content-type': 'text/plain' }).end('nope');
      return;
    case '/huge': {
      // 64 MB, chunked, no Content-Length: only the byte count can stop it. Far more than the
      // kernel's loopback socket buffers hold (a few MB each way), so the server can only finish
      // writing it if the client keeps reading: with 5 MB, a busy machine's client could be slow
      // enough for the whole body to fit in the buffers before its abort, and the test failed.
      res.writeHead(200, { 'content-type': 'image/png' });
      const chunk = Buffer.concat([PNG, Buffer.alloc(64 * 1024 - PNG.length)]);
      let sent = 0;
      let finished = false;
      res.on('close', () => markHugeAborted(!finished));
      const pump = () => {
        while (sent < 64 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        finished = true;
        res.end();
      };
      pump();
      return;
    }
    case '/huge-declared':
      // Says 5 MB up front; sends only a little and then waits (the client must not wait for the rest).
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(5 * 1024 * 1024) });
      res.write(PNG);
      return;
    case '/short':
      // Promises 1000 bytes, sends the PNG and hangs up.
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': '1000' });
      res.write(PNG);
      setTimeout(() => res.socket?.destroy(), 20);
      return;
    case '/slow-headers':
      return; // never answers
    case '/slow-body':
      res.writeHead(200, { 'content-type': 'image/png' });
      res.write(PNG.subarray(0, 10));
      return; // never ends
    case '/drip': {
      // Each chunk comes within the timeout, but the whole body does not.
      res.writeHead(200, { 'content-type': 'image/png' });
      const timer = setInterval(() => res.write(Buffer.alloc(16)), 50);
      res.on('close', () => clearInterval(timer));
      return;
    }
    default:
      res.writeHead(404).end();
  }
}

beforeAll(async () => {
  hugeAborted = new Promise((r) => (markHugeAborted = r));
  server = http.createServer(route);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;

  // A server that lies: Content-Length says the PNG's size, then 5 MB more follow on the socket.
  rawServer = net.createServer((socket) => {
    socket.on('error', () => {});
    socket.once('data', () => {
      socket.write(`HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: ${PNG.length}\r\n\r\n`);
      socket.write(PNG);
      socket.end(Buffer.alloc(5 * 1024 * 1024, 0x41));
    });
  });
  await new Promise<void>((r) => rawServer.listen(0, '127.0.0.1', r));
  rawPort = (rawServer.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await new Promise((r) => rawServer.close(r));
});

// ---------------------------------------------------------------------------------------------

let api: TestApi;
let base: Config;
let accountId: string;
let otherAccountId: string;

beforeAll(async () => {
  api = await startTestApi({
    QR_IMAGE_FETCH_ALLOW_CIDRS: '',
    QR_IMAGE_FETCH_TIMEOUT_MS: '5000',
    QR_IMAGE_MAX_BYTES: String(2 * 1024 * 1024),
  });
  base = api.ctx.config;
  accountId = (await createTestAccount(api.ctx)).accountId;
  otherAccountId = (await createTestAccount(api.ctx)).accountId;
});

afterAll(async () => {
  await api?.close();
});

/** The api's context with some config overridden. */
function ctxWith(overrides: Partial<Config> = {}): QrImageContext {
  return { db: api.ctx.db, storage: api.ctx.storage, config: { ...base, ...overrides } };
}
const open = () => ctxWith({ QR_IMAGE_FETCH_ALLOW_CIDRS: '' });
const allowLocal = (overrides: Partial<Config> = {}) => ctxWith({ QR_IMAGE_FETCH_ALLOW_CIDRS: '127.0.0.1/32', ...overrides });

/** The single field error a call fails with. */
async function refusal(promise: Promise<unknown>): Promise<{ path: string; message: string }> {
  const err = await promise.then(
    () => {
      throw new Error('expected a refusal');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ValidationError);
  const v = err as ValidationError;
  expect(v.statusCode).toBe(400);
  expect(v.errors).toHaveLength(1);
  return v.errors[0]!;
}

const refusedWith = async (promise: Promise<unknown>, message: string | RegExp, path = 'image') => {
  const e = await refusal(promise);
  expect(e.path).toBe(path);
  if (typeof message === 'string') expect(e.message).toBe(message);
  else expect(e.message).toMatch(message);
};

const local = (path: string) => `http://127.0.0.1:${port}${path}`;

describe('loadQrImage: empty values', () => {
  it.each([null, undefined, ''])('%o → null', async (value) => {
    expect(await loadQrImage(open(), accountId, value)).toBeNull();
  });
});

describe('loadQrImage: data URIs', () => {
  it.each([
    ['PNG', 'image/png', PNG, 3, 5],
    ['JPEG (progressive, real)', 'image/jpeg', JPEG_1x1, 1, 1],
    ['JPEG (SOF0 after fill bytes)', 'image/jpeg', jpegHeader(640, 480), 640, 480],
    ['GIF (real)', 'image/gif', GIF_1x1, 1, 1],
    ['GIF', 'image/gif', gifOfSize(300, 77), 300, 77],
    ['WebP lossless (real)', 'image/webp', WEBP_LOSSLESS_1x1, 1, 1],
    ['WebP extended', 'image/webp', webpExtended(1000, 3), 1000, 3],
    ['WebP lossy', 'image/webp', webpLossy(17, 9), 17, 9],
  ] as const)('%s: bytes, type and natural size', async (_name, type, bytes, width, height) => {
    const image = await loadQrImage(open(), accountId, dataUri(type, bytes));
    expect(image).toEqual({ data: bytes, contentType: type, width, height });
  });

  it.each([
    ['width and height', svg('width="120" height="80"'), 120, 80],
    ['units', svg('width="1in" height="2.54cm"'), 96, 96],
    ['viewBox only', svg('viewBox="0 0 64 32"'), 64, 32],
    ['width and viewBox ratio', svg('width="100" viewBox="0 0 50 25"'), 100, 50],
    ['percentages fall back to the viewBox', svg('width="100%" height="100%" viewBox="0,0,30,45"'), 30, 45],
    ['nothing: 300 × 150 like a browser', svg(''), 300, 150],
  ])('SVG, %s', async (_name, doc, width, height) => {
    const image = await loadQrImage(open(), accountId, dataUri('image/svg+xml', doc));
    expect(image).toMatchObject({ contentType: 'image/svg+xml', width, height });
  });

  it('returns an SVG sanitized by the upload sanitizer', async () => {
    const doc = svg(
      'width="10" height="10"',
      '<script>alert(1)</script><rect width="5" height="5" onclick="x()"/><image href="http://evil.example/t.png"/>',
    );
    const image = (await loadQrImage(open(), accountId, dataUri('image/svg+xml', doc)))!;
    const text = Buffer.from(image.data).toString('utf8');
    expect(text).toContain('<rect');
    expect(text).not.toMatch(/script|onclick|evil\.example/);
  });

  // Filters cost the render thread by the drawn size: over a minute per code.
  it.each([
    [
      'the reported filters',
      '<filter id="f"><feTurbulence baseFrequency="0.05" numOctaves="10"/><feMorphology radius="85"/><feGaussianBlur stdDeviation="50"/></filter><rect width="5" height="5" filter="url(#f)"/>',
    ],
    ['a filter element alone', '<filter id="f"><feGaussianBlur stdDeviation="2"/></filter><rect width="5" height="5"/>'],
    ['a filter function as an attribute', '<rect width="5" height="5" filter="blur(40px)"/>'],
    ['a filter in a style attribute, escaped', '<rect width="5" height="5" style="fill:red;f\\69lter : blur(40px)"/>'],
    ['a filter in a stylesheet', '<style>.a{filter:blur(40px)}</style><rect class="a" width="5" height="5"/>'],
  ])('refuses an SVG logo with %s', async (_name, body) => {
    await refusedWith(
      loadQrImage(open(), accountId, dataUri('image/svg+xml', svg('width="10" height="10"', body))),
      QR_SVG_FILTERS_MESSAGE,
    );
  });

  // Masks and nesting are layers held at once: a chain of n masks, n layers of the drawn size.
  const maskChain = (n: number) =>
    `<mask id="m0"><rect width="5" height="5" fill="#fff"/></mask>${Array.from({ length: n - 1 }, (_, i) => `<mask id="m${i + 1}"><rect width="5" height="5" fill="#fff" mask="url(#m${i})"/></mask>`).join('')}<rect width="5" height="5" mask="url(#m${n - 1})"/>`;
  /** Elements nested `depth` deep, the root counted: groups with opacity around one shape. */
  const nested = (depth: number) => `${'<g opacity="0.9">'.repeat(depth - 2)}<rect width="5" height="5"/>${'</g>'.repeat(depth - 2)}`;
  it('refuses an SVG logo with more masks and clip paths, or deeper nesting, than a logo needs', async () => {
    const doc = (body: string) => dataUri('image/svg+xml', svg('width="10" height="10"', body));
    expect(await loadQrImage(open(), accountId, doc(maskChain(QR_SVG_MAX_MASKS)))).toMatchObject({ contentType: 'image/svg+xml' });
    await refusedWith(loadQrImage(open(), accountId, doc(maskChain(QR_SVG_MAX_MASKS + 1))), QR_SVG_TOO_COMPLEX_MESSAGE);
    await refusedWith(
      loadQrImage(open(), accountId, doc(`<clipPath id="c"><rect width="5" height="5"/></clipPath>${maskChain(QR_SVG_MAX_MASKS)}`)),
      QR_SVG_TOO_COMPLEX_MESSAGE,
    );
    expect(await loadQrImage(open(), accountId, doc(nested(QR_SVG_MAX_DEPTH)))).toMatchObject({ contentType: 'image/svg+xml' });
    await refusedWith(loadQrImage(open(), accountId, doc(nested(QR_SVG_MAX_DEPTH + 1))), QR_SVG_TOO_COMPLEX_MESSAGE);
  });

  it('accepts an SVG logo whose filter is none, or that only names one in text', async () => {
    const doc = svg(
      'width="10" height="10"',
      '<rect width="5" height="5" filter="none" style="filter: none"/><text>filter: blur(4px)</text>',
    );
    expect(await loadQrImage(open(), accountId, dataUri('image/svg+xml', doc))).toMatchObject({ contentType: 'image/svg+xml' });
  });

  it('refuses an SVG that is not well-formed', async () => {
    await refusedWith(
      loadQrImage(open(), accountId, dataUri('image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg"><rect></svg>')),
      /./,
    );
  });

  it('refuses bytes that are not an image (400 at the given path)', async () => {
    await refusedWith(
      loadQrImage(open(), accountId, dataUri('image/png', 'hello, world'), { path: 'qrOptions.image' }),
      'Not an image',
      'qrOptions.image',
    );
    await refusedWith(loadQrImage(open(), accountId, dataUri('image/png', pdfBytes())), 'Not an image');
  });

  it('refuses content of another image type than claimed', async () => {
    await refusedWith(loadQrImage(open(), accountId, dataUri('image/png', JPEG_1x1)), 'Image content is not image/png');
    await refusedWith(loadQrImage(open(), accountId, dataUri('image/svg+xml', PNG)), 'Image content is not image/svg+xml');
  });

  it('refuses other image types, broken headers, bad base64 and oversized data', async () => {
    await refusedWith(loadQrImage(open(), accountId, dataUri('image/bmp', 'BM....')), 'Image must be PNG, JPEG, GIF, WebP or SVG');
    await refusedWith(loadQrImage(open(), accountId, dataUri('image/png', PNG.subarray(0, 16))), 'Image could not be read');
    await refusedWith(loadQrImage(open(), accountId, 'data:image/png;base64,iVBORw0K='), 'Image data is not valid base64');
    await refusedWith(loadQrImage(open(), accountId, 'data:text/html;base64,PGI+'), 'Must be a data:image/...;base64, URI');
    const small = ctxWith({ QR_IMAGE_MAX_BYTES: 1024 });
    await refusedWith(
      loadQrImage(small, accountId, dataUri('image/png', Buffer.concat([PNG, Buffer.alloc(2000)]))),
      'Image is larger than 1 KB',
    );
  });

  it('refuses raster images with absurd dimensions (decompression bombs)', async () => {
    await refusedWith(
      loadQrImage(open(), accountId, dataUri('image/png', pngHeaderOnly(100_000, 100_000))),
      /more than 4,194,304 pixels \(2048 × 2048\)/,
    );
    // Decoded pixels count, not sides: 8000 × 8000 passed a per-side limit of 8192 and cost seconds per render.
    await refusedWith(loadQrImage(open(), accountId, dataUri('image/png', pngHeaderOnly(8000, 8000))), /more than 4,194,304 pixels/);
    await refusedWith(loadQrImage(open(), accountId, dataUri('image/png', pngHeaderOnly(2049, 2048))), /more than 4,194,304 pixels/);
    expect(await loadQrImage(open(), accountId, dataUri('image/png', pngHeaderOnly(2048, 2048)))).toMatchObject({
      width: 2048,
      height: 2048,
    });
    expect(await loadQrImage(open(), accountId, dataUri('image/png', pngHeaderOnly(4096, 1024)))).toMatchObject({
      width: 4096,
      height: 1024,
    });
  });
});

function pngHeaderOnly(width: number, height: number): Buffer {
  const png = Buffer.from(PNG);
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  return png;
}

describe('loadQrImage: our own file URLs', () => {
  it('loads a file of the account from storage', async () => {
    const stored = await storeUpload(api.ctx, accountId, { buffer: PNG, originalName: 'logo.png' });
    requests = [];
    const image = await loadQrImage(open(), accountId, stored.url);
    expect(image).toEqual({ data: PNG, contentType: 'image/png', width: 3, height: 5 });
    expect(stored.url).toBe(fileUrl(base, stored.fileId));
  });

  it('loads an uploaded SVG with its size', async () => {
    const stored = await storeUpload(api.ctx, accountId, { buffer: Buffer.from(svg('viewBox="0 0 20 10"')) });
    expect(await loadQrImage(open(), accountId, stored.url)).toMatchObject({ contentType: 'image/svg+xml', width: 20, height: 10 });
  });

  it("refuses another account's file, an unknown id and a file that is not an image", async () => {
    const stored = await storeUpload(api.ctx, otherAccountId, { buffer: PNG });
    await refusedWith(loadQrImage(open(), accountId, stored.url, { path: 'qrOptions.image' }), 'File not found', 'qrOptions.image');
    await refusedWith(loadQrImage(open(), accountId, fileUrl(base, '00000000-0000-4000-8000-000000000000')), 'File not found');
    await refusedWith(loadQrImage(open(), accountId, fileUrl(base, 'not-a-uuid')), 'File not found');
    const pdf = await storeUpload(api.ctx, accountId, { buffer: pdfBytes() });
    await refusedWith(loadQrImage(open(), accountId, pdf.url), 'Not an image');
  });

  it('refuses a stored file over QR_IMAGE_MAX_BYTES', async () => {
    const stored = await storeUpload(api.ctx, accountId, { buffer: PNG });
    await refusedWith(loadQrImage(ctxWith({ QR_IMAGE_MAX_BYTES: 10 }), accountId, stored.url), 'Image is larger than 10 bytes');
  });

  it('recognises file URLs under SHORT_URL_BASE only', () => {
    const id = '0b5b5d3e-6a4e-4c5e-9a53-1f0f3c6f3a11';
    const config = { SHORT_URL_BASE: 'https://qr.example.com/s/' };
    expect(ownFileId(config, `https://qr.example.com/s/files/${id}`)).toBe(id);
    expect(ownFileId(config, `https://QR.example.com:443/s/files/${id}?v=2#x`)).toBe(id);
    expect(ownFileId(config, `http://qr.example.com/s/files/${id}`)).toBe(id);
    expect(ownFileId(config, `https://qr.example.com:8443/s/files/${id}`)).toBeNull();
    expect(ownFileId(config, `https://qr.example.com/files/${id}`)).toBeNull();
    expect(ownFileId(config, `https://other.example.com/s/files/${id}`)).toBeNull();
    expect(ownFileId(config, `https://qr.example.com/s/files/${id}/more`)).toBeNull();
  });
});

describe('loadQrImage: fetching an URL (allow-list 127.0.0.1/32)', () => {
  it('fetches a PNG and reads its size, with the Host of the URL', async () => {
    const image = await loadQrImage(allowLocal(), accountId, local('/logo.png'));
    expect(image).toEqual({ data: PNG, contentType: 'image/png', width: 3, height: 5 });
    const res = await safeFetch(local('/host'), { maxBytes: 1000, timeoutMs: 2000, allowCidrs: '127.0.0.1/32' });
    expect(res.body.toString()).toBe(`127.0.0.1:${port}`);
  });

  it('connects to the address it checked (pinned), with the name as Host', async () => {
    // A second server on 127.0.0.2; the system resolves "localhost" to 127.0.0.1 (or ::1), so only a
    // pinned connection can reach 127.0.0.2.
    const other = http.createServer((req, res) => res.end(`pinned ${req.headers.host}`));
    await new Promise<void>((r) => other.listen(port, '127.0.0.2', r));
    try {
      let calls = 0;
      const res = await safeFetch(`http://localhost:${port}/anything`, {
        maxBytes: 1000,
        timeoutMs: 2000,
        allowCidrs: '127.0.0.2/32',
        resolve: async () => (++calls === 1 ? [{ address: '127.0.0.2', family: 4 }] : [{ address: '10.0.0.1', family: 4 }]),
      });
      expect(res.body.toString()).toBe(`pinned localhost:${port}`);
      expect(calls).toBe(1);
    } finally {
      other.closeAllConnections();
      await new Promise((r) => other.close(r));
    }
  });

  it('refuses a name when any of its addresses is not allowed', async () => {
    requests = [];
    const fail = await safeFetch(`http://images.test:${port}/logo.png`, {
      maxBytes: 1000,
      timeoutMs: 2000,
      allowCidrs: '127.0.0.1/32',
      resolve: async () => [
        { address: '127.0.0.1', family: 4 },
        { address: '169.254.169.254', family: 4 },
      ],
    }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(fail).toMatchObject({ code: 'non_public_address' });
    expect(requests).toEqual([]);
  });

  it.skipIf(!hasOpenssl())('https: sends the name as SNI and verifies the certificate', async () => {
    const { key, cert } = selfSignedLocalhost();
    let servername: string | undefined;
    const context = createSecureContext({ key, cert });
    const SNICallback = (name: string, cb: (err: Error | null, ctx?: SecureContext) => void) => {
      servername = name;
      cb(null, context);
    };
    const tlsServer = https.createServer({ key, cert, SNICallback }, (_req, res) => res.end(PNG));
    await new Promise<void>((r) => tlsServer.listen(0, '127.0.0.1', r));
    const tlsPort = (tlsServer.address() as AddressInfo).port;
    try {
      const fail = await safeFetch(`https://localhost:${tlsPort}/logo.png`, {
        maxBytes: 1000,
        timeoutMs: 3000,
        allowCidrs: '127.0.0.1/32',
        resolve: async () => [{ address: '127.0.0.1', family: 4 }],
      }).then(
        () => null,
        (e: unknown) => e,
      );
      // Self-signed: refused, so certificate checks are on; the error says nothing about why.
      expect(fail).toMatchObject({ code: 'network', message: 'connection failed' });
      expect(servername).toBe('localhost');
    } finally {
      tlsServer.closeAllConnections();
      await new Promise((r) => tlsServer.close(r));
    }
  });

  it('sanitizes a fetched SVG', async () => {
    const image = (await loadQrImage(allowLocal(), accountId, local('/logo.svg')))!;
    expect(image).toMatchObject({ contentType: 'image/svg+xml', width: 40, height: 20 });
    expect(image.data.toString()).not.toContain('script');
  });

  it('follows up to 3 redirects and refuses a 4th', async () => {
    expect(await loadQrImage(allowLocal(), accountId, local('/chain/3'))).toMatchObject({ width: 3, height: 5 });
    requests = [];
    await refusedWith(loadQrImage(allowLocal(), accountId, local('/chain/4')), 'Image URL redirects too many times');
    expect(requests).toEqual(['/chain/4', '/chain/3', '/chain/2', '/chain/1']);
  });

  it.each([
    ['http://10.0.0.1/logo.png'],
    ['http://169.254.169.254/latest/meta-data'],
    ['http://[::1]:PORT/logo.png'],
    ['http://[::ffff:10.0.0.1]:PORT/logo.png'],
    ['http://[::ffff:169.254.169.254]/'],
    ['http://[fd00::1]/'],
    ['http://192.168.0.1:PORT/'],
    ['http://0.0.0.0:PORT/logo.png'],
  ])('re-checks every hop: a redirect to %s is refused', async (target) => {
    requests = [];
    const to = target.replace('PORT', String(port));
    await refusedWith(
      loadQrImage(allowLocal(), accountId, local(`/redirect?to=${encodeURIComponent(to)}`)),
      'Image URL must resolve to a public address',
    );
    expect(requests).toEqual(['/redirect']);
  });

  it('refuses a redirect to another scheme or to credentials', async () => {
    await refusedWith(
      loadQrImage(allowLocal(), accountId, local(`/redirect?to=${encodeURIComponent('ftp://127.0.0.1/x.png')}`)),
      'Image URL must be http or https',
    );
    await refusedWith(
      loadQrImage(allowLocal(), accountId, local(`/redirect?to=${encodeURIComponent(`http://a:b@127.0.0.1:${port}/logo.png`)}`)),
      'Image URL must not contain a user name or password',
    );
    await refusedWith(loadQrImage(allowLocal(), accountId, local('/redirect?to=')), 'Image URL redirects to an invalid location');
  });

  it('refuses an HTML page served as image/png', async () => {
    await refusedWith(loadQrImage(allowLocal(), accountId, local('/fake.png')), 'Not an image');
  });

  it('reports an HTTP error status', async () => {
    await refusedWith(loadQrImage(allowLocal(), accountId, local('/missing.png')), 'Image could not be fetched: HTTP 404');
  });

  it('stops a body past QR_IMAGE_MAX_BYTES while it streams', async () => {
    // No clock: the server sends 64 MB and never less, so only the byte count can have stopped it.
    await refusedWith(loadQrImage(allowLocal(), accountId, local('/huge')), 'Image is larger than 2 MB');
    expect(await hugeAborted).toBe(true); // the server saw the connection go before it sent all 64 MB
  });

  it('refuses a Content-Length over the cap before reading the body', async () => {
    // The body never comes: only the declared length can have refused it (else: a timeout).
    await refusedWith(loadQrImage(allowLocal(), accountId, local('/huge-declared')), 'Image is larger than 2 MB');
  });

  it('reads no more than Content-Length when the server sends more (a lie)', async () => {
    const url = `http://127.0.0.1:${rawPort}/lie.png`;
    const res = await safeFetch(url, { maxBytes: 2 * 1024 * 1024, timeoutMs: 3000, allowCidrs: '127.0.0.1/32' });
    expect(res.body).toEqual(PNG);
    expect(await loadQrImage(allowLocal(), accountId, url)).toMatchObject({ width: 3, height: 5 });
  });

  it('fails when the server hangs up before the promised Content-Length', async () => {
    await refusedWith(loadQrImage(allowLocal(), accountId, local('/short')), 'Image could not be fetched: connection failed');
  });

  it.each(['/slow-headers', '/slow-body', '/drip'])('times out on %s (one deadline for the whole fetch)', async (path) => {
    const started = Date.now();
    await refusedWith(
      loadQrImage(allowLocal({ QR_IMAGE_FETCH_TIMEOUT_MS: 300 }), accountId, local(path)),
      'Image could not be fetched: timeout',
    );
    // Not before the deadline. (These servers never finish, so any answer at all shows the
    // deadline ended the fetch; no upper bound, which would only measure the machine.)
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
  });

  it('reports a refused connection without details', async () => {
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    await refusedWith(
      loadQrImage(allowLocal(), accountId, `http://127.0.0.1:${deadPort}/x.png`),
      'Image could not be fetched: connection failed',
    );
  });
});

describe('loadQrImage: SSRF refusals with an empty allow-list', () => {
  const cases: Array<[string, string]> = [
    ['http://127.0.0.1:PORT/logo.png', 'Image URL must resolve to a public address'],
    ['http://localhost:PORT/', 'Image URL must resolve to a public address'],
    ['http://10.0.0.1/', 'Image URL must resolve to a public address'],
    ['http://172.16.5.4/', 'Image URL must resolve to a public address'],
    ['http://192.168.1.1/', 'Image URL must resolve to a public address'],
    ['http://100.64.0.1/', 'Image URL must resolve to a public address'],
    ['http://169.254.169.254/latest/meta-data', 'Image URL must resolve to a public address'],
    ['http://0.0.0.0:PORT/', 'Image URL must resolve to a public address'],
    ['http://255.255.255.255/', 'Image URL must resolve to a public address'],
    ['http://224.0.0.1/', 'Image URL must resolve to a public address'],
    ['http://[::1]:PORT/', 'Image URL must resolve to a public address'],
    ['http://[::]:PORT/', 'Image URL must resolve to a public address'],
    ['http://[::ffff:127.0.0.1]:PORT/', 'Image URL must resolve to a public address'],
    ['http://[::ffff:a9fe:a9fe]/', 'Image URL must resolve to a public address'],
    ['http://[64:ff9b::7f00:1]/', 'Image URL must resolve to a public address'],
    ['http://[2002:7f00:1::1]/', 'Image URL must resolve to a public address'],
    ['http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', 'Image URL must resolve to a public address'],
    ['http://[fd00::1]/', 'Image URL must resolve to a public address'],
    ['http://[fe80::1]/', 'Image URL must resolve to a public address'],
    ['http://2130706433:PORT/', 'Image URL must resolve to a public address'],
    ['http://0177.0.0.1/', 'Image URL must resolve to a public address'],
    ['http://0x7f.1:PORT/', 'Image URL must resolve to a public address'],
    ['http://127.1:PORT/', 'Image URL must resolve to a public address'],
    ['ftp://example.com/x.png', 'Image URL must be http or https'],
    ['file:///etc/passwd', 'Image URL must be http or https'],
    ['gopher://127.0.0.1:PORT/', 'Image URL must be http or https'],
    ['http://user:pass@example.com/', 'Image URL must not contain a user name or password'],
    ['http://user@example.com/', 'Image URL must not contain a user name or password'],
    ['http://example.com:25/', 'Image URL port is not allowed'],
    ['http://example.com:0/', 'Image URL port is not allowed'],
    ['not a url', 'Image URL is not valid'],
  ];

  it.each(cases)('%s → %s, before any connection', async (raw, message) => {
    requests = [];
    await refusedWith(loadQrImage(open(), accountId, raw.replace('PORT', String(port))), message);
    expect(requests).toEqual([]);
  });

  it('safeFetch reports the same refusals as SafeFetchError codes', async () => {
    const fail = (url: string) =>
      safeFetch(url, { maxBytes: 100, timeoutMs: 1000 }).then(
        () => null,
        (e: unknown) => e,
      );
    expect(await fail(local('/logo.png'))).toMatchObject({ code: 'non_public_address' });
    expect(await fail('ftp://example.com/')).toBeInstanceOf(SafeFetchError);
  });
});

describe('isPublicAddress', () => {
  it.each([
    // IPv4 public
    ['8.8.8.8', true],
    ['1.1.1.1', true],
    ['93.184.216.34', true],
    ['100.63.255.255', true],
    ['100.128.0.0', true],
    ['172.15.255.255', true],
    ['172.32.0.0', true],
    ['192.0.1.1', true],
    ['223.255.255.255', true],
    // IPv4 not public
    ['0.0.0.0', false],
    ['0.1.2.3', false],
    ['10.0.0.1', false],
    ['100.64.0.1', false],
    ['100.127.255.255', false],
    ['127.0.0.1', false],
    ['127.255.255.254', false],
    ['169.254.169.254', false],
    ['172.16.0.1', false],
    ['172.31.255.255', false],
    ['192.0.0.8', false],
    ['192.0.2.1', false],
    ['192.88.99.1', false],
    ['192.168.0.1', false],
    ['198.18.0.1', false],
    ['198.19.255.255', false],
    ['198.51.100.7', false],
    ['203.0.113.9', false],
    ['224.0.0.1', false],
    ['239.255.255.250', false],
    ['240.0.0.1', false],
    ['255.255.255.255', false],
    // IPv6 public
    ['2606:4700:4700::1111', true],
    ['2001:4860:4860::8888', true],
    ['[2606:4700:4700::1111]', true],
    ['::ffff:8.8.8.8', true],
    ['64:ff9b::808:808', true],
    ['2002:808:808::1', true],
    // IPv6 not public
    ['::', false],
    ['::1', false],
    ['[::1]', false],
    ['::127.0.0.1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:7f00:1', false],
    ['::ffff:10.0.0.1', false],
    ['::ffff:169.254.169.254', false],
    ['::ffff:0:127.0.0.1', false],
    ['64:ff9b::127.0.0.1', false],
    ['64:ff9b::a9fe:a9fe', false],
    ['64:ff9b:1::808:808', false],
    ['2002:7f00:1::', false],
    ['2002:c0a8:101::1', false],
    ['2001::1', false],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', false],
    ['2001:db8::1', false],
    ['3fff::1', false],
    ['fc00::1', false],
    ['fd12:3456:789a::1', false],
    ['fe80::1', false],
    ['fe80::1%eth0', false],
    ['fec0::1', false],
    ['ff02::1', false],
    ['100::1', false],
    // not addresses at all
    ['', false],
    ['localhost', false],
    ['2130706433', false],
    ['0177.0.0.1', false],
    ['0x7f.0.0.1', false],
    ['1.2.3', false],
    ['example.com', false],
  ] as const)('%s → %s', (ip, expected) => {
    expect(isPublicAddress(ip)).toBe(expected);
  });
});

describe('QR_IMAGE_FETCH_ALLOW_CIDRS', () => {
  it('parses CIDRs and bare addresses, and matches mapped IPv4', () => {
    const ranges = parseCidrList(' 127.0.0.1/32, 10.0.0.0/8 ,fd00::/8, 192.168.1.5 ');
    expect(inRanges('127.0.0.1', ranges)).toBe(true);
    expect(inRanges('127.0.0.2', ranges)).toBe(false);
    expect(inRanges('10.200.3.4', ranges)).toBe(true);
    expect(inRanges('::ffff:10.1.1.1', ranges)).toBe(true);
    expect(inRanges('fd00::5', ranges)).toBe(true);
    expect(inRanges('192.168.1.5', ranges)).toBe(true);
    expect(inRanges('192.168.1.6', ranges)).toBe(false);
    expect(parseCidrList('')).toEqual([]);
  });

  it('defaults to empty, with 2 MB and 5 s', () => {
    expect(loadConfig({})).toMatchObject({
      QR_IMAGE_FETCH_ALLOW_CIDRS: '',
      QR_IMAGE_MAX_BYTES: 2 * 1024 * 1024,
      QR_IMAGE_FETCH_TIMEOUT_MS: 5000,
    });
  });

  it.each(['10.0.0.0/33', 'nonsense', '10.0.0.0/8/1', '0177.0.0.1/32', '::1/129'])('refuses %s at start-up', (value) => {
    expect(() => loadConfig({ QR_IMAGE_FETCH_ALLOW_CIDRS: value })).toThrow(ConfigError);
    expect(() => loadConfig({ QR_IMAGE_FETCH_ALLOW_CIDRS: value })).toThrow(/QR_IMAGE_FETCH_ALLOW_CIDRS/);
  });
});
