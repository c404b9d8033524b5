/**
 * Images in a landing link's HTML, through the real api, Postgres, storage and redirect: a file
 * may be written as the url POST /files answers or as /files/<id>; any other image source is a
 * 400 at data.landingHTML when the link is written; the files are the link's (attached, shared
 * like any other), and the page shows a photo's web-sized copies with srcset and its size.
 */
import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files, links } from '#domain/schema.js';
import { MAX_LISTED_ERRORS } from '#domain/errors.js';
import { landingImageProblems } from '#domain/links/data/landing-images.js';
import { buildRedirectApp } from '#redirect/app.js';
import { sweepOrphanFiles } from '#domain/files/files.js';
import { pngBytes, uploadFile } from '../../support/fixtures.js';
import { call, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';

let api: TestApi;
let redirect: FastifyInstance;
let me: TestAccount;

beforeAll(async () => {
  api = await startTestApi();
  redirect = await buildRedirectApp(api.ctx);
  await redirect.ready();
  me = await createTestAccount(api.ctx);
});
afterAll(async () => {
  await redirect?.close();
  await api?.close();
});

const photo = () =>
  sharp({ create: { width: 2000, height: 1500, channels: 3, background: { r: 40, g: 120, b: Math.floor(Math.random() * 255) } } })
    .jpeg()
    .toBuffer();
const landing = (landingHTML: string, extra: Record<string, unknown> = {}) => ({
  name: `l-${randomUUID()}`,
  type: 'landing',
  data: { landingHTML },
  ...extra,
});
const storedHtml = async (slug: string) =>
  ((await api.ctx.db.select().from(links).where(eq(links.slug, slug)))[0]!.metaData as { landingHTML: string }).landingHTML;
const fileRow = async (id: string) => (await api.ctx.db.select().from(files).where(eq(files.id, id)))[0];

describe('landing HTML images', () => {
  it('accepts the absolute url POST /files answered and /files/<id>; stores both relative and attaches the files', async () => {
    const a = await uploadFile(api.app, me.key, pngBytes(30, 20), 'a.png');
    const b = await uploadFile(api.app, me.key, pngBytes(31, 20), 'b.png');
    expect(a.url).toBe(`${api.ctx.config.SHORT_URL_BASE.replace(/\/+$/, '')}/files/${a.fileId}`);
    const res = await call(
      api.app,
      me.key,
      'POST',
      '/api/v1/links',
      landing(`<h1>Hi</h1><img src="${a.url}" alt="A"><p><img src="/files/${b.fileId}" alt="B"></p>`),
    );
    expect(res.statusCode, res.body).toBe(200);
    const slug = res.json().id as string;
    expect(await storedHtml(slug)).toBe(`<h1>Hi</h1><img src="/files/${a.fileId}" alt="A"><p><img src="/files/${b.fileId}" alt="B"></p>`);
    const linkId = (await api.ctx.db.select().from(links).where(eq(links.slug, slug)))[0]!.id;
    expect((await fileRow(a.fileId))!.linkId).toBe(linkId);
    expect((await fileRow(b.fileId))!.linkId).toBe(linkId);
    // Attached: the orphan sweep leaves them, whatever their age (a date no other suite uses keeps the sweep to these rows).
    const longAgo = new Date('1989-01-01T00:00:00Z');
    await api.ctx.db
      .update(files)
      .set({ createdAt: longAgo })
      .where(inArray(files.id, [a.fileId, b.fileId]));
    expect(await sweepOrphanFiles(api.ctx, new Date(longAgo.getTime() + 1000))).toBe(0);
    expect(await fileRow(a.fileId)).toBeDefined();

    const page = await redirect.inject({ method: 'GET', url: `/${slug}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`src="/files/${a.fileId}"`);
    expect(page.body).toContain(`src="/files/${b.fileId}"`);
    expect((await redirect.inject({ method: 'GET', url: `/files/${a.fileId}` })).statusCode).toBe(200);
  });

  it('100,000 bad images: 100 messages made and listed, the rest only counted', async () => {
    const html = '<img>'.repeat(100_000);
    const problems = landingImageProblems(html, 'http://localhost', 'data.landingHTML');
    expect(problems.listed).toHaveLength(MAX_LISTED_ERRORS);
    expect(problems.size).toBe(100_000);
    const res = await call(api.app, me.key, 'POST', '/api/v1/links', landing(html));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed', omittedErrors: 100_000 - MAX_LISTED_ERRORS });
    expect(res.json().errors).toHaveLength(MAX_LISTED_ERRORS);
  });

  it('refuses any other image source with a 400 at data.landingHTML naming it, on create and on PUT', async () => {
    const a = await uploadFile(api.app, me.key, pngBytes(32, 20), 'a.png');
    const other = 'http://elsewhere.example/files/' + a.fileId;
    const pixel = 'data:image/png;base64,iVBORw0KGgo=';
    const bad = await call(
      api.app,
      me.key,
      'POST',
      '/api/v1/links',
      landing(`<p>x</p><img src="${a.url}"><img src="${other}"><img alt="none"><img src="/files/${a.fileId}/960.jpg"><img src="${pixel}">`),
    );
    expect(bad.statusCode).toBe(400);
    const body = bad.json<{ message: string; errors: { path: string; message: string }[] }>();
    expect(body.message).toEqual(expect.any(String));
    expect(body.errors.map((e) => e.path)).toEqual(['data.landingHTML', 'data.landingHTML', 'data.landingHTML']);
    expect(body.errors[0]!.message).toContain(`Image 2 src "${other}" is not allowed`);
    expect(body.errors[0]!.message).toContain('/files/<fileId>');
    expect(body.errors[1]!.message).toMatch(/^Image 3 has no src/);
    expect(body.errors[2]!.message).toContain('Image 4 src');

    const ok = await call(api.app, me.key, 'POST', '/api/v1/links', landing('<p>plain</p>'));
    expect(ok.statusCode).toBe(200);
    const put = await call(api.app, me.key, 'PUT', `/api/v1/links/${ok.json().id}`, landing('<img src="https://cdn.example/x.png">'));
    expect(put.statusCode).toBe(400);
    expect(put.json().errors).toEqual([
      { path: 'data.landingHTML', message: expect.stringContaining('src "https://cdn.example/x.png" is not allowed') },
    ]);
  });

  it('another account’s file is a 400 at data.landingHTML', async () => {
    const them = await createTestAccount(api.ctx);
    const theirs = await uploadFile(api.app, them.key, pngBytes(33, 20), 't.png');
    const res = await call(api.app, me.key, 'POST', '/api/v1/links', landing(`<img src="/files/${theirs.fileId}">`));
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ path: 'data.landingHTML', message: `Image /files/${theirs.fileId}: File not found` }]);
  });

  it('a photo is shown as its web-sized copies, with srcset, width and height; the author’s width keeps the aspect ratio', async () => {
    const p = await uploadFile(api.app, me.key, await photo(), 'p.jpg', 'image/jpeg');
    const res = await call(
      api.app,
      me.key,
      'POST',
      '/api/v1/links',
      landing(
        `<img src="${p.url}" alt="Terrace"><img src="/files/${p.fileId}" width="400" alt="Small" srcset="https://evil.example/x.png 1w">`,
      ),
    );
    expect(res.statusCode, res.body).toBe(200);
    const page = (await redirect.inject({ method: 'GET', url: `/${res.json().id}` })).body;
    const srcset = `/files/${p.fileId}/480.webp 480w, /files/${p.fileId}/960.webp 960w, /files/${p.fileId}/1600.webp 1600w`;
    expect(page).toContain(`<img src="/files/${p.fileId}/960.jpg" alt="Terrace" srcset="${srcset}"`);
    const tag = (alt: string) => new RegExp(`<img[^>]*alt="${alt}"[^>]*>`).exec(page)?.[0] ?? '';
    expect(tag('Terrace')).toContain('width="1600" height="1200"');
    expect(tag('Terrace')).toContain('sizes="(min-width: 36rem) 33.5rem, calc(100vw - 2.5rem)"');
    expect(tag('Small')).toContain('width="400"');
    expect(tag('Small')).toContain('height="300"');
    expect(tag('Small')).toContain('sizes="min(400px, 100vw)"');
    expect(tag('Small')).toContain(`srcset="${srcset}"`);
    expect(page).not.toContain('evil.example');
    for (const name of ['480.webp', '960.jpg']) expect((await redirect.inject({ url: `/files/${p.fileId}/${name}` })).statusCode).toBe(200);
  });

  it('one image in two landing links: the second gets its own file, named in its HTML; the page of each shows it', async () => {
    const p = await uploadFile(api.app, me.key, await photo(), 'p.jpg', 'image/jpeg');
    const first = (await call(api.app, me.key, 'POST', '/api/v1/links', landing(`<img src="${p.url}" alt="x">`))).json().id as string;
    const second = await call(api.app, me.key, 'POST', '/api/v1/links', landing(`<img src="${p.url}" alt="x">`));
    expect(second.statusCode, second.body).toBe(200);
    const html2 = await storedHtml(second.json().id);
    const copy = /\/files\/([0-9a-f-]{36})/.exec(html2)![1]!;
    expect(copy).not.toBe(p.fileId);
    expect(await storedHtml(first)).toContain(p.fileId);
    expect((await call(api.app, me.key, 'GET', `/api/v1/links/${second.json().id}`)).json().data.meta_data.landingHTML).toBe(html2);
    expect((await redirect.inject({ url: `/${second.json().id}` })).body).toContain(`/files/${copy}/480.webp`);
    expect((await call(api.app, me.key, 'DELETE', `/api/v1/links/${first}`)).statusCode).toBe(200);
    expect((await redirect.inject({ url: `/files/${copy}/960.jpg` })).statusCode).toBe(200);
  });

  it('a protected landing link shows its images under its slug to visitors who unlocked it; their public address is a 404', async () => {
    const p = await uploadFile(api.app, me.key, await photo(), 'p.jpg', 'image/jpeg');
    const res = await call(
      api.app,
      me.key,
      'POST',
      '/api/v1/links',
      landing(`<img src="${p.url}" alt="x">`, { linkConfigurations: { passwordProtectedActive: true, password: 'landing-pw' } }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const slug = res.json().id as string;
    const unlocked = await redirect.inject({
      method: 'POST',
      url: `/${slug}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'password=landing-pw',
    });
    expect(unlocked.statusCode).toBe(303);
    const cookie = String(unlocked.headers['set-cookie']).split(';')[0]!;
    const page = await redirect.inject({ url: `/${slug}`, headers: { cookie } });
    expect(page.body).toContain(`src="/${slug}/files/${p.fileId}/960.jpg"`);
    expect(page.body).toContain(`/${slug}/files/${p.fileId}/480.webp 480w`);
    expect((await redirect.inject({ url: `/${slug}/files/${p.fileId}/960.jpg`, headers: { cookie } })).statusCode).toBe(200);
    expect((await redirect.inject({ url: `/files/${p.fileId}` })).statusCode).toBe(404);
  });

  it('duplicating a landing link gives the copy files of its own, named in its HTML', async () => {
    const p = await uploadFile(api.app, me.key, pngBytes(34, 20), 'p.png');
    const slug = (await call(api.app, me.key, 'POST', '/api/v1/links', landing(`<p>a</p><img src="/files/${p.fileId}" alt="x">`))).json()
      .id as string;
    const name = `dup-${randomUUID()}`;
    expect((await call(api.app, me.key, 'POST', `/api/v1/links/${slug}/duplicate`, { name })).statusCode).toBe(200);
    const [copy] = await api.ctx.db.select().from(links).where(eq(links.name, name));
    const copyId = /\/files\/([0-9a-f-]{36})/.exec((copy!.metaData as { landingHTML: string }).landingHTML)![1]!;
    expect(copyId).not.toBe(p.fileId);
    expect((await fileRow(copyId))!.linkId).toBe(copy!.id);
    expect((await fileRow(copyId))!.blobId).toBe((await fileRow(p.fileId))!.blobId);
  });
});
