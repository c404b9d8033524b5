/**
 * GET /links is streamed: the page is read from Postgres a chunk of links at a time as the client
 * takes the answer, so a page of big links never sits whole in the api's memory. Over real HTTP:
 * the bytes are exactly what serializing the whole page with the route's response schema gives,
 * a big page is valid JSON with every item, and a client that stops reading stops the reading
 * of rows (a link changed after the first bytes arrived shows its change further down the page).
 */
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { links } from '#domain/schema.js';
import { getLink } from '#domain/links/links.js';
import { wholeAccount } from '#domain/links/scope.js';
import { pageMeta } from '#api/schemas.js';
import { linkResponse } from '#api/routes/links/schemas.js';
import { linkView } from '#api/routes/links/view.js';
import { withQrDefaults } from '#domain/qr/options.js';
import { pngBytes, uploadFile } from '../../support/fixtures.js';
import { call, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';
import { streamedGet } from '../../support/streamed-get.js';

let api: TestApi;
let origin: string;

beforeAll(async () => {
  api = await startTestApi();
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}/api/v1`;
});
afterAll(() => api?.close());

/** A GET over HTTP; `onFirstBytes` runs (with the response paused) when the first body bytes arrive. */
function get(acct: TestAccount, path: string, onFirstBytes?: () => Promise<void>) {
  return streamedGet(`${origin}${path}`, acct.key, onFirstBytes);
}

/** `count` landing links of `htmlBytes` each, inserted at once; the first is the newest. */
async function seedLandingLinks(acct: TestAccount, count: number, htmlBytes: number, prefix: string): Promise<void> {
  const qr = JSON.stringify(withQrDefaults({}, 'http://localhost:3001/xxxxxxx'));
  await api.ctx.db.execute(sql`
    insert into links (account_id, slug, name, type, meta_data, qr_options, created_at)
    select ${acct.accountId}, ${prefix} || substr(md5(${acct.accountId} || g::text), 1, 12), ${prefix} || ' ' || g, 'landing',
      jsonb_build_object('landingHTML', left(repeat('<p>' || md5(g::text) || '</p>', ${Math.ceil(htmlBytes / 39)}), ${htmlBytes})),
      ${qr}::jsonb, now() - (g || ' seconds')::interval
    from generate_series(1, ${count}) g`);
}

// What the route's response schema made of the whole page before it streamed (Fastify's serializer
// for the zod type provider): the reference the stream must equal byte for byte.
const serializePage = serializerCompiler({
  schema: z.object({ data: z.array(linkResponse), meta: pageMeta }),
  method: 'GET',
  url: '/links',
});

describe('GET /links streams the page', () => {
  it('writes exactly the JSON the whole page serializes to, for every sort and page', async () => {
    const me = await createTestAccount(api.ctx);
    const logo = await uploadFile(api.app, me.key, pngBytes(4, 4), 'a.png');
    const folder = (await call(api.app, me.key, 'POST', '/api/v1/folders', { name: 'F' })).json();
    const bodies = [
      { name: 'b Site', type: 'website', data: { url: 'https://example.com/a?b=1' } },
      { name: 'A image', type: 'image', data: { files: [{ fileId: logo.fileId }] }, linkConfigurations: { folder_id: folder.id } },
      { name: 'c "quoted" <html> ünïcödé ✓', type: 'landing', data: { landingHTML: '<h1>Hi "there"</h1>\n<p>\u2028 é 😀</p>' } },
      {
        name: 'd locked',
        type: 'website',
        data: { url: 'https://example.com' },
        linkConfigurations: { passwordProtectedActive: true, password: 'secret12' },
      },
      {
        name: 'E scheduled',
        type: 'sms',
        data: { phone: '+1 555 0100', message: 'hi' },
        linkConfigurations: {
          scheduleActive: true,
          startDate: '2030-01-01',
          endDate: '2030-02-01',
          scheduleTimezone: 'Europe/Berlin',
          scanLimitActive: true,
          scanLimit: 5,
        },
      },
    ];
    for (const body of bodies) expect((await call(api.app, me.key, 'POST', '/api/v1/links', body)).statusCode).toBe(200);

    const cases = [
      { query: 'size=20', order: [desc(links.createdAt), desc(links.id)], offset: 0, size: 20 },
      { query: 'size=2&page=2&sort_by=name', order: [asc(sql`lower(${links.name})`), asc(links.id)], offset: 2, size: 2 },
      { query: 'size=3&page=9', order: [desc(links.createdAt), desc(links.id)], offset: 24, size: 3 },
    ];
    for (const c of cases) {
      const { res, body } = await get(me, `/links?${c.query}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      const slugs = await api.ctx.db
        .select({ slug: links.slug })
        .from(links)
        .where(eq(links.accountId, me.accountId))
        .orderBy(...c.order)
        .limit(c.size)
        .offset(c.offset);
      const data = await Promise.all(
        slugs.map(async (r) => linkView(await getLink(api.ctx, wholeAccount(me.accountId), r.slug), api.ctx.config)),
      );
      const expected = serializePage({
        data,
        meta: { currentPage: Number(/page=(\d+)/.exec(c.query)?.[1] ?? 1), totalPages: Math.ceil(bodies.length / c.size) },
      });
      expect(body.toString('utf8')).toBe(expected);
    }
  });

  it('a page of big links is valid JSON with every item, sent in pieces', async () => {
    const me = await createTestAccount(api.ctx);
    await seedLandingLinks(me, 120, 100_000, 'big');
    const { res, body } = await get(me, '/links?size=1000');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBeUndefined();
    expect(res.headers['transfer-encoding']).toBe('chunked');
    const page = JSON.parse(body.toString('utf8'));
    expect(page.meta).toEqual({ currentPage: 1, totalPages: 1 });
    expect(page.data.map((l: { name: string }) => l.name)).toEqual(Array.from({ length: 120 }, (_, i) => `big ${i + 1}`));
    for (const link of page.data) expect(link.meta_data.landingHTML).toHaveLength(100_000);
  });

  it('rows are read as the client reads: a client that pauses holds the rest of the page back', async () => {
    const me = await createTestAccount(api.ctx);
    // 32 MB of JSON: far more than the socket buffers between the api and this client hold.
    await seedLandingLinks(me, 80, 400_000, 'paused');
    const lastSlug = (
      await api.ctx.db
        .select({ slug: links.slug })
        .from(links)
        .where(and(eq(links.accountId, me.accountId), eq(links.name, 'paused 80')))
    )[0]!.slug;
    const { res, body } = await get(me, '/links?size=1000', async () => {
      // The first bytes are here and the client reads no more: the last link is renamed now.
      await api.ctx.db.update(links).set({ name: 'renamed after the first bytes' }).where(eq(links.slug, lastSlug));
    });
    expect(res.statusCode).toBe(200);
    const page = JSON.parse(body.toString('utf8'));
    expect(page.data).toHaveLength(80);
    // Built whole before sending, the page would still carry the old name.
    expect(page.data[79].name).toBe('renamed after the first bytes');
    expect(page.data[78].name).toBe('paused 79');
  });

  it('clients that hang up halfway leave the api serving (no connection or stream left behind)', async () => {
    const me = await createTestAccount(api.ctx);
    await seedLandingLinks(me, 40, 200_000, 'gone');
    // More aborted lists than the database pool has connections.
    for (let i = 0; i < 12; i++) {
      await new Promise<void>((resolve, reject) => {
        const req = httpRequest(`${origin}/links?size=1000`, { headers: { authorization: `Basic ${me.key}` } }, (res) => {
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        });
        req.on('error', (err) => ((err as NodeJS.ErrnoException).code === 'ECONNRESET' ? resolve() : reject(err)));
        req.end();
      });
    }
    const { res, body } = await get(me, '/links?size=5');
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(body.toString('utf8')).data).toHaveLength(5);
  });
});
