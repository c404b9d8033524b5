/**
 * Compression over real HTTP (decision 0376): the console's files come in the coding the client
 * accepts, from the copies its build wrote; JSON answers over 1 KB are compressed, streamed lists
 * piece by piece; small answers, answers to clients that send no Accept-Encoding, and downloads
 * are sent exactly as before. Every compressed answer decodes to the identity answer's bytes.
 */
import { readFile } from 'node:fs/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, constants, gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_DIST_DIR } from '#console/build.js';
import { withQrDefaults } from '#domain/qr/options.js';
import { startConsoleApi } from '../../support/console.js';
import { createTestAccount, type TestAccount, type TestApi } from '../../support/harness.js';

let api: TestApi;
let base: string;
let me: TestAccount;

beforeAll(async () => {
  ({ api, base } = await startConsoleApi());
  me = await createTestAccount(api.ctx);
  // 30 landing links of ~3 KB each, with text that varies from link to link.
  await api.ctx.db.execute(sql`
    insert into links (account_id, slug, name, type, meta_data, qr_options, created_at)
    select ${me.accountId}, 'cz' || substr(md5(${me.accountId} || g::text), 1, 12), 'Compressed ' || g, 'landing',
      jsonb_build_object('landingHTML', (select string_agg('<p>' || md5(g::text || h::text) || '</p>', '') from generate_series(1, 80) h)),
      ${JSON.stringify(withQrDefaults({}, 'http://localhost:3001/xxxxxxx'))}::jsonb, now() - (g || ' seconds')::interval
    from generate_series(1, 30) g`);
}, 120_000);
afterAll(() => api?.close());

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The bytes as they came over the wire. */
  body: Buffer;
  /** The body in the pieces it arrived in. */
  pieces: Buffer[];
}

/** A GET over HTTP that sends exactly `headers` (no Accept-Encoding unless given there). */
function get(path: string, headers: Record<string, string> = {}, key: string | null = me.key): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, base), { headers: { ...(key ? { authorization: `Basic ${key}` } : {}), ...headers } }, (res) => {
      const pieces: Buffer[] = [];
      res.on('data', (chunk: Buffer) => pieces.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(pieces), pieces }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function decoded(answer: Answer): Buffer {
  const coding = answer.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(answer.body);
  if (coding === 'gzip') return gunzipSync(answer.body);
  expect(coding).toBeUndefined();
  return answer.body;
}

const aSlug = async () =>
  (await api.ctx.db.execute<{ slug: string }>(sql`select slug from links where account_id = ${me.accountId} limit 1`)).rows[0]!.slug;

const varies = (answer: Answer) => /(^|,)\s*accept-encoding\s*(,|$)/i.test(String(answer.headers.vary ?? ''));

describe('the console', () => {
  it('comes in the coding the client accepts and decodes to exactly the built files', async () => {
    const html = await readFile(join(CONSOLE_DIST_DIR, 'index.html'), 'utf8');
    const assets = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
    expect(assets.some((a) => a.endsWith('.js'))).toBe(true);
    for (const path of ['index.html', ...assets]) {
      const file = await readFile(join(CONSOLE_DIST_DIR, path));
      const url = path === 'index.html' ? '/' : `/${path}`;
      for (const [accept, coding] of [
        ['gzip, deflate, br', 'br'],
        ['gzip', 'gzip'],
        ['br;q=0, gzip', 'gzip'],
        ['*', 'br'],
      ] as const) {
        const answer = await get(url, { 'accept-encoding': accept }, null);
        expect([path, accept, answer.status, answer.headers['content-encoding']]).toEqual([path, accept, 200, coding]);
        expect(varies(answer), path).toBe(true);
        expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
        expect(decoded(answer).equals(file), path).toBe(true);
        if (path.endsWith('.js')) expect(answer.body.length).toBeLessThan(file.length / 2);
      }
      for (const headers of [{}, { 'accept-encoding': 'identity' }] as Record<string, string>[]) {
        const plain = await get(url, headers, null);
        expect(plain.headers['content-encoding']).toBeUndefined();
        expect(plain.body.equals(file), path).toBe(true);
      }
    }
  });
});

describe('JSON answers', () => {
  it('one over 1 KB comes compressed and decodes to the identity answer', async () => {
    const id = await aSlug();
    const plain = await get(`/api/v1/links/${id}`);
    expect(plain.status).toBe(200);
    expect(plain.body.length).toBeGreaterThan(1024);
    for (const [accept, coding] of [
      ['br, gzip', 'br'],
      ['gzip', 'gzip'],
      ['deflate, gzip;q=0.5, br;q=0.2', 'gzip'],
    ] as const) {
      const answer = await get(`/api/v1/links/${id}`, { 'accept-encoding': accept });
      expect(answer.headers['content-encoding']).toBe(coding);
      expect(varies(answer)).toBe(true);
      expect(answer.body.length).toBeLessThan(plain.body.length * 0.8);
      expect(decoded(answer).equals(plain.body)).toBe(true);
    }
  });

  it('a small one, an error, and any answer to a client without Accept-Encoding are sent as they are', async () => {
    const small = await get('/api/v1/me', { 'accept-encoding': 'br, gzip' });
    expect([small.status, small.headers['content-encoding']]).toEqual([200, undefined]);
    expect(small.body.length).toBeLessThan(1024);
    // Its size may change with the account, so caches are told it depends on Accept-Encoding.
    expect(varies(small)).toBe(true);
    const missing = await get('/api/v1/links/no-such-link', { 'accept-encoding': 'br, gzip' });
    expect([missing.status, missing.headers['content-encoding'], JSON.parse(missing.body.toString()).code]).toEqual([
      404,
      undefined,
      'link_not_found',
    ]);
    for (const path of ['/api/v1/links?size=100', '/api/v1/me']) {
      const [plain, refused] = [await get(path), await get(path, { 'accept-encoding': 'identity, br;q=0, gzip;q=0' })];
      expect([plain.headers['content-encoding'], refused.headers['content-encoding']]).toEqual([undefined, undefined]);
      expect(varies(plain)).toBe(true);
      expect(refused.body.equals(plain.body)).toBe(true);
      JSON.parse(plain.body.toString('utf8'));
    }
  });

  it('a streamed list stays streamed, compressed piece by piece, and decodes to the identity bytes', async () => {
    const plain = await get('/api/v1/links?size=100');
    expect(JSON.parse(plain.body.toString('utf8')).data).toHaveLength(30);
    for (const coding of ['br', 'gzip'] as const) {
      const answer = await get('/api/v1/links?size=100', { 'accept-encoding': coding });
      expect([answer.status, answer.headers['content-encoding'], answer.headers['transfer-encoding']]).toEqual([200, coding, 'chunked']);
      expect(answer.headers['content-length']).toBeUndefined();
      expect(varies(answer)).toBe(true);
      // Each piece is flushed out as it is written: what came first decodes alone to the page's start.
      expect(answer.pieces.length).toBeGreaterThan(1);
      const start = (
        coding === 'br'
          ? brotliDecompressSync(answer.pieces[0]!, { finishFlush: constants.BROTLI_OPERATION_FLUSH })
          : gunzipSync(answer.pieces[0]!, { finishFlush: constants.Z_SYNC_FLUSH })
      ).toString('utf8');
      expect(start.startsWith('{"data":[')).toBe(true);
      expect(answer.body.length).toBeLessThan(plain.body.length * 0.8);
      expect(decoded(answer).equals(plain.body)).toBe(true);
    }
  });

  it("a link's QR code (PNG, SVG) is sent as it is, while the link's JSON is compressed", async () => {
    const id = await aSlug();
    const json = await get(`/api/v1/links/${id}`, { 'accept-encoding': 'br, gzip' });
    expect(json.headers['content-encoding']).toBe('br');
    for (const format of ['png', 'svg']) {
      const plain = await get(`/api/v1/links/${id}/qr?format=${format}`);
      const offered = await get(`/api/v1/links/${id}/qr?format=${format}`, { 'accept-encoding': 'br, gzip' });
      expect([offered.status, offered.headers['content-type']]).toEqual([200, plain.headers['content-type']]);
      expect(offered.headers['content-encoding']).toBeUndefined();
      expect(offered.body.equals(plain.body), format).toBe(true);
    }
  });
});
