import { randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Job } from 'bullmq';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileBlobs, files, links } from '#domain/schema.js';
import {
  attachFiles,
  copyFiles,
  deleteFilesOfLink,
  detachFilesNotIn,
  fileUrl,
  findAccountFiles,
  storeUpload,
  sweepOrphanFiles,
  UNSUPPORTED_TYPE_MESSAGE,
} from '#domain/files/files.js';
import { sniff } from '#domain/files/sniff.js';
import { cssIsSafe, sanitizeSvg } from '#domain/files/svg-sanitize.js';
import type { MaintenanceJob } from '#domain/jobs/job-kinds.js';
import { startWorkers } from '#workers/index.js';
import { maintenanceProcessor } from '#workers/processors/maintenance.js';
import { multipart, pdfBytes, pngBytes, type Part } from '../../support/fixtures.js';
import { addKey, call, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';

// Real, minimal files of each accepted type.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const WEBP = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');
const PDF = pdfBytes();

/** The shared multipart builder, in the shape app.inject takes. */
function form(parts: Part[]): { payload: Buffer; headers: Record<string, string> } {
  const { body, contentType } = multipart(parts);
  return { payload: body, headers: { 'content-type': contentType } };
}

const fileForm = (data: Buffer | string, filename = 'upload.bin', contentType = 'application/octet-stream') =>
  form([{ name: 'file', filename, contentType, data }]);

function post(
  api: TestApi,
  key: string | null,
  body: { payload: Buffer | string; headers: Record<string, string> },
  url = '/api/v1/files',
) {
  return api.app.inject({
    method: 'POST',
    url,
    payload: body.payload,
    headers: { ...(key ? { authorization: `Basic ${key}` } : {}), ...body.headers },
  });
}

async function readObject(api: TestApi, key: string): Promise<Buffer | null> {
  const got = await api.ctx.storage.get(key);
  if (!got) return null;
  return Buffer.concat((await got.body.toArray()) as Buffer[]);
}

async function rowOf(api: TestApi, id: string) {
  const [row] = await api.ctx.db.select().from(files).where(eq(files.id, id));
  return row;
}

/** Where a file's bytes are stored (its blob's key), read through the same function the QR code uses. */
async function keyOf(api: TestApi, accountId: string, fileId: string): Promise<string> {
  const [file] = await findAccountFiles(api.ctx.db, accountId, [fileId]);
  if (!file) throw new Error(`no file ${fileId}`);
  return file.storageKey;
}

/** A PNG no other upload of the run has: its own blob, not shared with any other file. */
const uniquePng = () => pngBytes(3, 3, [...randomBytes(3)] as [number, number, number]);

async function blobOf(api: TestApi, fileId: string) {
  const [row] = await api.ctx.db
    .select({ blob: fileBlobs })
    .from(files)
    .innerJoin(fileBlobs, eq(fileBlobs.id, files.blobId))
    .where(eq(files.id, fileId));
  return row?.blob;
}

async function storedKeys(api: TestApi, accountId: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const o of api.ctx.storage.list(`accounts/${accountId}/files/`)) keys.push(o.key);
  return keys;
}

async function accountRows(api: TestApi, accountId: string) {
  return api.ctx.db.select().from(files).where(eq(files.accountId, accountId));
}

async function makeLink(api: TestApi, accountId: string) {
  const [link] = await api.ctx.db
    .insert(links)
    .values({ accountId, slug: `f${randomBytes(6).toString('hex')}`, name: 'l', type: 'image', metaData: {}, qrOptions: {} })
    .returning();
  return link!;
}

const VALIDATION = (message: string) => ({ code: 'validation_failed', message: 'Validation failed', errors: [{ path: 'file', message }] });

let api: TestApi;
let me: TestAccount;
let other: TestAccount;

beforeAll(async () => {
  api = await startTestApi();
  me = await createTestAccount(api.ctx);
  other = await createTestAccount(api.ctx);
});
afterAll(() => api.close());

describe('POST /files: accepted types, decided by content', () => {
  it.each([
    ['PNG', PNG, 'image/png'],
    ['JPEG', JPEG, 'image/jpeg'],
    ['WebP', WEBP, 'image/webp'],
    ['GIF', GIF, 'image/gif'],
    ['PDF', PDF, 'application/pdf'],
  ] as const)('%s → 200; stored as sent, unattached', async (_name, bytes, type) => {
    const res = await post(api, me.key, fileForm(bytes, 'original name.bin'));
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      fileId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: expect.any(String),
      contentType: type,
      size: bytes.length,
    });
    expect(body.url).toBe(`${api.ctx.config.SHORT_URL_BASE}/files/${body.fileId}`);

    const key = await keyOf(api, me.accountId, body.fileId);
    const blob = (await blobOf(api, body.fileId))!;
    expect(key).toBe(`accounts/${me.accountId}/files/${blob.id}`);
    expect((await readObject(api, key))!.equals(bytes)).toBe(true);
    expect(await api.ctx.storage.stat(key)).toMatchObject({ size: bytes.length, contentType: type });

    expect(await rowOf(api, body.fileId)).toMatchObject({
      accountId: me.accountId,
      linkId: null,
      attachedAt: null,
      blobId: blob.id,
      contentType: type,
      size: bytes.length,
      originalName: 'original name.bin',
    });
    expect(blob).toMatchObject({
      accountId: me.accountId,
      storageKey: key,
      contentType: type,
      size: bytes.length,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(blob.refCount).toBeGreaterThanOrEqual(1);
  });

  it('ignores the claimed type and name: a PNG sent as application/pdf named x.pdf is a PNG', async () => {
    const res = await post(api, me.key, fileForm(PNG, 'x.pdf', 'application/pdf'));
    expect(res.statusCode).toBe(200);
    expect(res.json().contentType).toBe('image/png');
    const { fileId } = res.json();
    expect(await api.ctx.storage.stat(await keyOf(api, me.accountId, fileId))).toMatchObject({ contentType: 'image/png' });
  });

  it.each([
    ['text claiming to be a PNG', 'just some text', 'logo.png', 'image/png'],
    ['an HTML page', '<!DOCTYPE html><html><body><script>alert(1)</script></body></html>', 'page.png', 'image/png'],
    ['HTML wrapping an svg', '<html><body><svg xmlns="http://www.w3.org/2000/svg"><rect/></svg></body></html>', 'x.svg', 'image/svg+xml'],
    ['an XML document that is not SVG', '<?xml version="1.0"?><note>hi</note>', 'x.svg', 'image/svg+xml'],
    ['a ZIP', Buffer.from('504b0304140000000800', 'hex'), 'x.gif', 'image/gif'],
    ['a PDF header after junk', Buffer.concat([Buffer.from('junk'), PDF]), 'x.pdf', 'application/pdf'],
    ['a truncated PNG signature', PNG.subarray(0, 6), 'x.png', 'image/png'],
    ['invalid UTF-8 text', Buffer.from([0x3c, 0x73, 0x76, 0x67, 0x20, 0xff, 0xfe, 0x3e]), 'x.svg', 'image/svg+xml'],
  ])('%s → 400 on file', async (_what, data, name, type) => {
    const before = (await storedKeys(api, me.accountId)).length;
    const res = await post(api, me.key, fileForm(data, name, type));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(VALIDATION(UNSUPPORTED_TYPE_MESSAGE));
    expect(res.json().errors[0].message).toBe('Unsupported file type; allowed: PNG, JPEG, WebP, GIF, PDF, SVG');
    expect((await storedKeys(api, me.accountId)).length).toBe(before);
  });
});

const HOSTILE_SVG = `\uFEFF<?xml version="1.0" encoding="UTF-8"?>
<!-- exported by hand -->
<?xml-stylesheet href="http://evil.example/x.xsl" type="text/xsl"?>
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10" onload="alert('onload')">
  <defs>
    <linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient>
    <path id="p" d="M0 0h5v5z"/>
  </defs>
  <script>alert('script')</script>
  <script xlink:href="https://evil.example/x.js"/>
  <style>@import url(https://evil.example/x.css); rect { fill: blue }</style>
  <style><![CDATA[ circle > title { fill: url(#g) } ]]></style>
  <a xlink:href="javascript:alert('xlink')"><rect width="5" height="5" fill="url(#g)" onclick="alert('click')"/></a>
  <a href=" JaVaScRiPt:alert('href')"><circle r="1" style="fill: url(https://evil.example/track.png)"/></a>
  <a href="https://example.com/ok"><text x="1" y="9">Tom &amp; Jerry</text></a>
  <use xlink:href="#p"/>
  <use href="https://evil.example/sprite.svg#icon"/>
  <image href="https://evil.example/pixel.png" width="1" height="1"/>
  <image href="data:image/svg+xml;base64,PHN2Zy8+" width="1" height="1"/>
  <image href="data:image/png;base64,${PNG.toString('base64')}" width="1" height="1"/>
  <foreignObject width="10" height="10"><div xmlns="http://www.w3.org/1999/xhtml" onclick="alert('fo')">html</div></foreignObject>
  <animate attributeName="href" to="javascript:alert('animate')"/>
  <set attributeName="onmouseover" to="alert('set')"/>
  <iframe xmlns="http://www.w3.org/1999/xhtml" src="javascript:alert('iframe')"/>
</svg>
`;

describe('POST /files: SVG is stored sanitized', () => {
  it('removes scripts, handlers, javascript: links, foreignObject and external references; keeps the drawing', async () => {
    const res = await post(api, me.key, fileForm(HOSTILE_SVG, 'logo.png', 'image/png'));
    expect(res.statusCode, res.body).toBe(200);
    const { fileId, contentType, size } = res.json();
    expect(contentType).toBe('image/svg+xml');
    const stored = (await readObject(api, await keyOf(api, me.accountId, fileId)))!;
    expect(size).toBe(stored.length);
    const text = stored.toString('utf8');

    for (const banned of [
      '<script',
      'alert',
      'onload',
      'onclick',
      'javascript',
      'foreignObject',
      '<div',
      'evil.example',
      '@import',
      'data:image/svg',
      '<animate ',
      '<set',
      'iframe',
      '<?xml',
      '<!--',
      'DOCTYPE',
    ]) {
      expect(text, banned).not.toContain(banned);
    }
    // What draws survives, with internal references intact.
    expect(text.startsWith('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">')).toBe(
      true,
    );
    expect(text).toContain('<linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient>');
    expect(text).toContain('<rect width="5" height="5" fill="url(#g)"/>');
    expect(text).toContain('<use xlink:href="#p"/>');
    expect(text).toContain('<a href="https://example.com/ok"><text x="1" y="9">Tom &amp; Jerry</text></a>');
    expect(text).toContain('circle &gt; title { fill: url(#g) }');
    expect(text).toContain(`href="data:image/png;base64,${PNG.toString('base64')}"`);
    expect(text).toContain('<circle r="1"/>');
    expect(text.trimEnd().endsWith('</svg>')).toBe(true);

    // Still a well-formed SVG: it sniffs as one, and sanitizing it again changes nothing.
    expect(sniff(stored)?.contentType).toBe('image/svg+xml');
    expect(await sanitizeSvg(text)).toMatchObject({ svg: text });
    expect(await api.ctx.storage.stat(await keyOf(api, me.accountId, fileId))).toMatchObject({ contentType: 'image/svg+xml' });
  });

  it('accepts an SVG without a namespace (hand-written) and stores it with one', async () => {
    const res = await post(api, me.key, fileForm('<svg viewBox="0 0 1 1"><rect width="1" height="1"/></svg>', 'a.svg', 'image/svg+xml'));
    expect(res.statusCode).toBe(200);
    const text = (await readObject(api, await keyOf(api, me.accountId, res.json().fileId)))!.toString();
    expect(text).toBe('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>');
  });

  it.each([
    [
      'nothing but a script',
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      'SVG has nothing left to show after sanitizing',
    ],
    [
      'nothing but a foreignObject',
      '<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><p xmlns="http://www.w3.org/1999/xhtml">x</p></foreignObject></svg>',
      'SVG has nothing left to show after sanitizing',
    ],
    ['not well-formed', '<svg xmlns="http://www.w3.org/2000/svg"><rect></svg>', expect.stringMatching(/^SVG is not well-formed XML/)],
    [
      'an external entity',
      '<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>',
      expect.stringMatching(/^SVG is not well-formed XML/),
    ],
  ])('%s → 400 on file, nothing stored', async (_what, svg, message) => {
    const before = (await storedKeys(api, me.accountId)).length;
    const res = await post(api, me.key, fileForm(svg, 'x.svg', 'image/svg+xml'));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'validation_failed', message: 'Validation failed', errors: [{ path: 'file', message }] });
    expect((await storedKeys(api, me.accountId)).length).toBe(before);
  });
});

describe('SVG sanitizer details', () => {
  it('judges CSS after escapes and comments', () => {
    expect(cssIsSafe('fill: url(#a); stroke: red')).toBe(true);
    expect(cssIsSafe('fill: url( "#a" )')).toBe(true);
    expect(cssIsSafe('background: url(data:image/png;base64,AAAA)')).toBe(true);
    for (const bad of [
      'background: url(https://x.example/a.png)',
      'background: \\75 rl(https://x.example/a.png)',
      'background: u\\rl(//x.example/a.png)',
      '@\\69mport "x.css";',
      '@import "x.css";',
      'background-image: image-set("https://x.example/a.png" 1x)',
      'fill: url(/*)*/#x)',
      'fill: url(data:image/svg+xml,<svg/>)',
      'behavior: url(x.htc)',
      'x: expression(alert(1))',
    ]) {
      expect(cssIsSafe(bad), bad).toBe(false);
    }
  });

  it('expands entities declared in the internal subset (Illustrator), within a bound', async () => {
    const illustrator = `<?xml version="1.0"?>
<!DOCTYPE svg [ <!ENTITY ns_svg "http://www.w3.org/2000/svg"> <!ENTITY ns_ai "http://ns.adobe.com/AdobeIllustrator/10.0/"> ]>
<svg xmlns="&ns_svg;" xmlns:i="&ns_ai;" i:viewOrigin="0 0"><i:pgf>junk</i:pgf><rect width="1" height="1"/></svg>`;
    expect(await sanitizeSvg(illustrator)).toMatchObject({
      svg: '<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>',
    });
    const bomb = `<!DOCTYPE svg [<!ENTITY a "${'a'.repeat(1000)}">]><svg xmlns="http://www.w3.org/2000/svg"><text>${'&a;'.repeat(2000)}</text></svg>`;
    expect(await sanitizeSvg(bomb)).toEqual({ error: 'SVG entities expand to too much text' });
  });

  it('refuses absurd nesting instead of recursing into it', async () => {
    const deep = `<svg xmlns="http://www.w3.org/2000/svg">${'<g>'.repeat(300)}<rect/>${'</g>'.repeat(300)}</svg>`;
    expect(await sanitizeSvg(deep)).toEqual({ error: 'SVG nests elements deeper than 256 levels' });
  });

  it('fixes attribute case and drops duplicates, so the output stays well-formed', async () => {
    const out = await sanitizeSvg('<svg xmlns="http://www.w3.org/2000/svg" viewbox="0 0 2 2" viewBox="0 0 9 9"><rect/></svg>');
    expect(out).toMatchObject({ svg: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 2 2"><rect/></svg>' });
  });
});

describe('POST /files: size limit', () => {
  let small: TestApi;
  let acct: TestAccount;
  beforeAll(async () => {
    small = await startTestApi({ FILE_SIZE_LIMIT_BYTES: '1000' });
    acct = await createTestAccount(small.ctx);
  });
  afterAll(() => small.close());

  it('a file over FILE_SIZE_LIMIT_BYTES → 413, and nothing is stored', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(1001 - PNG.length, 7)]);
    const res = await post(small, acct.key, fileForm(big, 'big.png', 'image/png'));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ code: 'file_too_large', message: 'File is too large' });
    expect(await accountRows(small, acct.accountId)).toEqual([]);
    expect(await storedKeys(small, acct.accountId)).toEqual([]);
  });

  it('a body declared far larger than the limit → 413 before it is read', async () => {
    const huge = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]);
    const res = await post(small, acct.key, fileForm(huge, 'huge.png', 'image/png'));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ code: 'file_too_large', message: 'File is too large' });
    expect(await accountRows(small, acct.accountId)).toEqual([]);
  });

  it('a file of exactly the limit is fine', async () => {
    const exact = Buffer.concat([PNG, Buffer.alloc(1000 - PNG.length, 7)]);
    const res = await post(small, acct.key, fileForm(exact, 'exact.png', 'image/png'));
    expect(res.statusCode).toBe(200);
    expect(res.json().size).toBe(1000);
  });

  it('storeUpload stops reading a stream past the limit and stores nothing', async () => {
    const before = await storedKeys(small, acct.accountId);
    const stream = Readable.from(
      (function* () {
        yield PNG;
        for (let i = 0; i < 100; i++) yield Buffer.alloc(100);
      })(),
    );
    await expect(storeUpload(small.ctx, acct.accountId, { stream })).rejects.toMatchObject({
      statusCode: 413,
      body: { message: 'File is too large' },
    });
    expect(stream.destroyed).toBe(true);
    expect(await storedKeys(small, acct.accountId)).toEqual(before);
  });
});

describe('POST /files: bad requests never store anything', () => {
  it.each([
    ['no file field, only text', () => form([{ name: 'name', data: 'hello' }]), 'A file is required in the field `file`'],
    ['an empty form', () => form([]), 'A file is required in the field `file`'],
    [
      'the file in another field',
      () => form([{ name: 'upload', filename: 'a.png', contentType: 'image/png', data: PNG }]),
      'A file is required in the field `file`',
    ],
    ['an empty file', () => fileForm(Buffer.alloc(0), 'empty.png', 'image/png'), 'File is empty'],
    [
      'two files',
      () =>
        form([
          { name: 'file', filename: 'a.png', contentType: 'image/png', data: PNG },
          { name: 'file', filename: 'b.gif', contentType: 'image/gif', data: GIF },
        ]),
      'Send exactly one file',
    ],
    [
      'a file in another field, then one in `file`',
      () =>
        form([
          { name: 'other', filename: 'a.png', contentType: 'image/png', data: PNG },
          { name: 'file', filename: 'b.gif', contentType: 'image/gif', data: GIF },
        ]),
      'Send exactly one file',
    ],
  ])('%s → 400 on file', async (_what, body, message) => {
    const before = (await accountRows(api, me.accountId)).length;
    const res = await post(api, me.key, body());
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual(VALIDATION(message));
    expect((await accountRows(api, me.accountId)).length).toBe(before);
  });

  it('no body at all → 400 on file', async () => {
    const res = await call(api.app, me.key, 'POST', '/api/v1/files');
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].path).toBe('file');
  });

  it('a truncated multipart body → 400, nothing stored', async () => {
    const before = (await accountRows(api, me.accountId)).length;
    const { payload, headers } = fileForm(PNG, 'a.png', 'image/png');
    const res = await post(api, me.key, { payload: payload.subarray(0, payload.length - 30), headers });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'validation_failed',
      message: 'Validation failed',
      errors: [{ path: '(body)', message: 'Malformed multipart body' }],
    });
    expect((await accountRows(api, me.accountId)).length).toBe(before);
  });

  it('multipart without a boundary → 400', async () => {
    const res = await post(api, me.key, { payload: 'x', headers: { 'content-type': 'multipart/form-data' } });
    expect(res.statusCode).toBe(400);
  });

  it.each([
    ['application/json', JSON.stringify({ file: 'aGVsbG8=' })],
    ['text/plain', 'hello'],
    ['application/x-www-form-urlencoded', 'file=hello'],
    ['image/png', PNG],
  ])('a %s body → 415', async (type, payload) => {
    const res = await post(api, me.key, { payload, headers: { 'content-type': type } });
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toMatch(/^Unsupported Content-Type/);
  });
});

describe('POST /files: auth', () => {
  it('no key → 401, before the body is read', async () => {
    const res = await post(api, null, fileForm(PNG));
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 'unauthorized', message: 'Unauthorized' });
  });

  it('a key without links.create → 403; with it → 200', async () => {
    const readOnly = await addKey(api.ctx, me.accountId, ['links.read', 'folders.create']);
    const res = await post(api, readOnly.key, fileForm(PNG));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ code: 'forbidden', message: 'You do not have permission to perform this action.' });
    const creator = await addKey(api.ctx, me.accountId, ['links.create']);
    expect((await post(api, creator.key, fileForm(PNG))).statusCode).toBe(200);
  });
});

describe('multipart is accepted only where uploads are', () => {
  it('a multipart body to POST /folders → 415, not 500', async () => {
    const res = await post(
      api,
      me.key,
      form([
        { name: 'name', data: 'x' },
        { name: 'file', filename: 'a.png', contentType: 'image/png', data: PNG },
      ]),
      '/api/v1/folders',
    );
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toMatch(/^Unsupported Content-Type: multipart\/form-data/);
  });

  it('JSON routes still take JSON', async () => {
    expect((await call(api.app, me.key, 'POST', '/api/v1/folders', { name: 'still json' })).statusCode).toBe(200);
  });
});

describe('OpenAPI', () => {
  it('documents POST /files as multipart with a binary file field, and its answer', async () => {
    const doc = (await api.app.inject({ method: 'GET', url: '/api/v1/docs/json' })).json();
    const op = doc.paths['/api/v1/files']?.post;
    expect(op).toBeDefined();
    const schema = op.requestBody.content['multipart/form-data'].schema;
    expect(schema.properties.file).toMatchObject({ type: 'string', format: 'binary' });
    expect(op.requestBody.content['application/json']).toBeUndefined();
    const ok = op.responses['200'].content['application/json'].schema;
    expect(Object.keys(ok.properties).sort()).toEqual(['contentType', 'fileId', 'size', 'url']);
  });
});

describe('file functions for the link service', () => {
  const upload = async (acct: TestAccount, bytes: Buffer = PNG, name = 'a.png') =>
    (await storeUpload(api.ctx, acct.accountId, { buffer: bytes, originalName: name })).fileId;

  it('storeUpload takes a buffer or a stream and answers like the route', async () => {
    const fromBuffer = await storeUpload(api.ctx, me.accountId, { buffer: GIF, originalName: '../../etc/x.gif' });
    expect(fromBuffer).toMatchObject({ contentType: 'image/gif', size: GIF.length, url: fileUrl(api.ctx.config, fromBuffer.fileId) });
    expect((await rowOf(api, fromBuffer.fileId))!.originalName).toBe('x.gif');
    const fromStream = await storeUpload(api.ctx, me.accountId, { stream: Readable.from([WEBP.subarray(0, 5), WEBP.subarray(5)]) });
    expect(fromStream).toMatchObject({ contentType: 'image/webp', size: WEBP.length });
    expect((await readObject(api, await keyOf(api, me.accountId, fromStream.fileId)))!.equals(WEBP)).toBe(true);
    expect((await rowOf(api, fromStream.fileId))!.originalName).toBeNull();
  });

  it('fileUrl joins SHORT_URL_BASE and the id without doubling slashes', () => {
    expect(fileUrl({ SHORT_URL_BASE: 'https://qr.example/' }, 'abc')).toBe('https://qr.example/files/abc');
    expect(fileUrl({ SHORT_URL_BASE: 'https://qr.example' }, 'abc')).toBe('https://qr.example/files/abc');
  });

  it("findAccountFiles finds only the account's own files; ids that are not UUIDs are simply absent", async () => {
    const mine = await upload(me, PDF, 'doc.pdf');
    const theirs = await upload(other);
    const found = await findAccountFiles(api.ctx.db, me.accountId, [
      mine,
      theirs,
      'not-a-uuid',
      '',
      '00000000-0000-4000-8000-000000000000',
    ]);
    expect(found).toEqual([
      {
        id: mine,
        contentType: 'application/pdf',
        size: PDF.length,
        linkId: null,
        storageKey: (await blobOf(api, mine))!.storageKey,
        originalName: 'doc.pdf',
      },
    ]);
    expect(await findAccountFiles(api.ctx.db, me.accountId, ['nope'])).toEqual([]);
    expect(await findAccountFiles(api.ctx.db, me.accountId, [])).toEqual([]);
    expect((await findAccountFiles(api.ctx.db, other.accountId, [mine, theirs])).map((f) => f.id)).toEqual([theirs]);
  });

  it('attachFiles attaches only the account’s files, also inside a transaction; detachFilesNotIn releases the rest', async () => {
    const link = await makeLink(api, me.accountId);
    const [a, b, c] = [await upload(me), await upload(me), await upload(me)];
    const theirs = await upload(other);

    const attached = await api.ctx.db.transaction((tx) => attachFiles(tx, me.accountId, link.id, [a, b, c, theirs, 'junk']));
    expect(attached).toEqual(new Map([a, b, c].map((id) => [id, id])));
    for (const id of [a, b, c]) {
      const row = (await rowOf(api, id))!;
      expect(row.linkId).toBe(link.id);
      expect(row.attachedAt).toBeInstanceOf(Date);
    }
    expect(await rowOf(api, theirs)).toMatchObject({ linkId: null, attachedAt: null });
    expect((await findAccountFiles(api.ctx.db, me.accountId, [a]))[0]!.linkId).toBe(link.id);

    expect(await api.ctx.db.transaction((tx) => detachFilesNotIn(tx, link.id, [a, 'junk']))).toBe(2);
    expect(await rowOf(api, a)).toMatchObject({ linkId: link.id });
    for (const id of [b, c]) expect(await rowOf(api, id)).toMatchObject({ linkId: null, attachedAt: null });

    expect(await detachFilesNotIn(api.ctx.db, link.id, [])).toBe(1);
    expect(await rowOf(api, a)).toMatchObject({ linkId: null, attachedAt: null });
    expect((await attachFiles(api.ctx.db, me.accountId, link.id, [])).size).toBe(0);
  });

  it('copyFiles makes new unattached files on the same stored bytes; another account’s file is a 404', async () => {
    const link = await makeLink(api, me.accountId);
    const source = await upload(me, uniquePng(), 'photo.png');
    await attachFiles(api.ctx.db, me.accountId, link.id, [source]);
    const key = await keyOf(api, me.accountId, source);
    const copies = await api.ctx.db.transaction((tx) => copyFiles(tx, me.accountId, [source, source.toUpperCase()]));
    expect([...copies.keys()]).toEqual([source]);
    const copy = copies.get(source)!;
    expect(copy).not.toBe(source);
    const sourceRow = (await rowOf(api, source))!;
    expect(await rowOf(api, copy)).toMatchObject({
      accountId: me.accountId,
      linkId: null,
      attachedAt: null,
      blobId: sourceRow.blobId,
      contentType: 'image/png',
      size: sourceRow.size,
      originalName: 'photo.png',
    });
    expect((await blobOf(api, source))!.refCount).toBe(2);
    // Deleting the source leaves the copy whole: the bytes stay while a file uses them.
    await deleteFilesOfLink(api.ctx, link.id);
    expect(await rowOf(api, source)).toBeUndefined();
    expect((await blobOf(api, copy))!.refCount).toBe(1);
    expect(await api.ctx.storage.stat(key)).not.toBeNull();

    const theirs = await upload(other);
    await expect(api.ctx.db.transaction((tx) => copyFiles(tx, me.accountId, [copy, theirs]))).rejects.toMatchObject({
      statusCode: 404,
      body: { message: 'File not found' },
    });
    expect((await blobOf(api, copy))!.refCount).toBe(1);
    expect(await api.ctx.db.transaction((tx) => copyFiles(tx, me.accountId, ['not-a-uuid']))).toEqual(new Map());
  });

  it('deleteFilesOfLink deletes the link’s files, and the objects no other file uses', async () => {
    const link = await makeLink(api, me.accountId);
    const otherLink = await makeLink(api, me.accountId);
    const ids = [await upload(me, uniquePng()), await upload(me, pdfBytes(`x ${randomUUID()}`), 'x.pdf')];
    const keep = await upload(me, uniquePng());
    const sharedBytes = uniquePng();
    const [shared, sharedKept] = [await upload(me, sharedBytes), await upload(me, sharedBytes)];
    await attachFiles(api.ctx.db, me.accountId, link.id, [...ids, shared]);
    await attachFiles(api.ctx.db, me.accountId, otherLink.id, [keep, sharedKept]);
    const keys = await Promise.all(ids.map((id) => keyOf(api, me.accountId, id)));
    // One object already gone: deleting is idempotent.
    await api.ctx.storage.delete(keys[0]!);

    expect(await deleteFilesOfLink(api.ctx, link.id)).toBe(3);
    expect(
      await api.ctx.db
        .select()
        .from(files)
        .where(inArray(files.id, [...ids, shared])),
    ).toEqual([]);
    for (const key of keys) expect(await api.ctx.storage.stat(key)).toBeNull();
    expect(await rowOf(api, keep)).toMatchObject({ linkId: otherLink.id });
    expect(await api.ctx.storage.stat(await keyOf(api, me.accountId, keep))).not.toBeNull();
    expect(await api.ctx.storage.stat(await keyOf(api, me.accountId, sharedKept))).not.toBeNull();
    expect((await blobOf(api, sharedKept))!.refCount).toBe(1);
    expect(await deleteFilesOfLink(api.ctx, link.id)).toBe(0);
  });
});

describe('orphan sweep', () => {
  /** Files made to look old enough; a date no other suite uses keeps this test's sweep to its own rows. */
  const LONG_AGO = new Date('2001-01-01T00:00:00Z');
  const age = async (ids: string[]) => api.ctx.db.update(files).set({ createdAt: LONG_AGO }).where(inArray(files.id, ids));
  const upload = async (bytes = uniquePng()) => (await storeUpload(api.ctx, me.accountId, { buffer: bytes })).fileId;

  it('deletes old unattached files, objects and rows, in batches; leaves recent and attached ones', async () => {
    const link = await makeLink(api, me.accountId);
    const [old1, old2, oldGone, recent, oldAttached] = [await upload(), await upload(), await upload(), await upload(), await upload()];
    // An old orphan whose bytes an attached file also has: the file goes, the bytes stay.
    const sharedBytes = uniquePng();
    const [oldShared, attachedShared] = [await upload(sharedBytes), await upload(sharedBytes)];
    await attachFiles(api.ctx.db, me.accountId, link.id, [oldAttached, attachedShared]);
    await age([old1, old2, oldGone, oldAttached, oldShared, attachedShared]);
    const keys = new Map<string, string>();
    for (const id of [old1, old2, oldGone, recent, oldAttached, oldShared]) keys.set(id, await keyOf(api, me.accountId, id));
    await api.ctx.storage.delete(keys.get(oldGone)!); // a missing object is fine

    const deleted = await sweepOrphanFiles(api.ctx, new Date(LONG_AGO.getTime() + 1000), 2);
    expect(deleted).toBe(4);
    for (const id of [old1, old2, oldGone, oldShared]) expect(await rowOf(api, id)).toBeUndefined();
    for (const id of [old1, old2, oldGone]) expect(await api.ctx.storage.stat(keys.get(id)!)).toBeNull();
    for (const id of [recent, oldAttached, attachedShared]) expect(await rowOf(api, id)).toBeDefined();
    for (const id of [recent, oldAttached, oldShared]) expect(await api.ctx.storage.stat(keys.get(id)!)).not.toBeNull();
    expect((await blobOf(api, attachedShared))!.refCount).toBe(1);
    expect(await sweepOrphanFiles(api.ctx, new Date(LONG_AGO.getTime() + 1000))).toBe(0);
  });

  it('runs as the maintenance kind sweep-orphan-files with the ORPHAN_FILE_TTL_MS cut-off', async () => {
    const [old, recent] = [await upload(), await upload()];
    await age([old]);
    const result = await maintenanceProcessor(api.ctx)({ data: { kind: 'sweep-orphan-files' } } as Job<MaintenanceJob>);
    expect(result).toMatchObject({ deleted: expect.any(Number) });
    expect(await rowOf(api, old)).toBeUndefined();
    expect(await rowOf(api, recent)).toBeDefined();
  });

  it('is registered as a job scheduler on the maintenance queue when workers start', async () => {
    const own = await startTestApi({ REDIS_NAMESPACE: `qrlinks-test-files-${process.pid}`, ORPHAN_SWEEP_MS: '1234567' });
    const workers = await startWorkers(own.ctx);
    try {
      const scheduler = await own.ctx.queues.maintenance.getJobScheduler('sweep-orphan-files');
      expect(scheduler).toMatchObject({ key: 'sweep-orphan-files', every: 1234567 });
      expect(scheduler?.template?.data).toEqual({ kind: 'sweep-orphan-files' });
      const keys = (await own.ctx.queues.maintenance.getJobSchedulers()).map((s) => s.key);
      expect(keys).toEqual(expect.arrayContaining(['expire-api-keys', 'sweep-orphan-files']));
    } finally {
      await workers.close();
      await own.close();
    }
  });
});
