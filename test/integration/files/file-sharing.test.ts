/**
 * Stored files shared between links and the per-plan storage quota: identical bytes are stored
 * once per account, a duplicated link's files share the original's bytes, the bytes go with their
 * last file, and an upload of new bytes past the plan's quota is a 413, also when uploads race.
 * Everything through the real api, Postgres and storage; `expectConsistentStorage` checks the
 * invariants (ref_count = files per blob, one object per blob and none without a blob).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { count, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRedirectApp } from '#redirect/app.js';
import { fileBlobs, files, links } from '#domain/schema.js';
import { STORAGE_QUOTA_BYTES } from '#domain/accounts/plans.js';
import { blobStorageKey, sweepOrphanFiles } from '#domain/files/files.js';
import { formatStorageSize } from '#domain/files/quota.js';
import { multipart, pdfBytes, pngBytes, uploadFile } from '../../support/fixtures.js';
import { addKey, call, createLinkVia, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';
import { storageDrivers } from '../../support/s3rver.js';

/** Every test runs on both storage drivers; these are the current driver's api and redirect. */
let api: TestApi;
let redirect: FastifyInstance;

const DRIVERS = storageDrivers('qrlinks-file-sharing');
/** Attached files made to look this old; no other suite's files are, so a sweep older than it touches only them. */
const SHARED_LONG_AGO = new Date('1990-01-01T00:00:00Z');

const TINY_PNG = pngBytes(2, 2);
/** A PNG (a tiny one with random bytes after it) of UNIQUE_PNG_BYTES + `extra` bytes that no other upload has. */
const uniquePng = (extra = 0) => Buffer.concat([TINY_PNG, randomBytes(16 + extra)]);
const UNIQUE_PNG_BYTES = TINY_PNG.length + 16;

function postFile(acct: TestAccount, bytes: Buffer) {
  const { body, contentType } = multipart([{ name: 'file', data: bytes, filename: 'f.png', contentType: 'image/png' }]);
  return api.app.inject({
    method: 'POST',
    url: '/api/v1/files',
    headers: { authorization: `Basic ${acct.key}`, 'content-type': contentType },
    payload: body,
  });
}

async function upload(acct: TestAccount, bytes: Buffer): Promise<string> {
  return (await uploadFile(api.app, acct.key, bytes, 'f.png')).fileId;
}

const createLink = async (acct: TestAccount, body: Record<string, unknown>) => (await createLinkVia(api.app, acct.key, body)).slug;

async function gallery(acct: TestAccount, fileIds: string[], name = `g-${randomUUID()}`): Promise<string> {
  return createLink(acct, { name, type: 'gallery', data: { files: fileIds.map((fileId) => ({ fileId })) } });
}

/** Duplicates a link under a unique name and answers the copy's slug and file ids. */
async function duplicate(acct: TestAccount, slug: string): Promise<{ slug: string; fileIds: string[] }> {
  const name = `copy-${randomUUID()}`;
  const res = await call(api.app, acct.key, 'POST', `/api/v1/links/${slug}/duplicate`, { name });
  expect(res.statusCode, res.body).toBe(200);
  const [copy] = await api.ctx.db.select().from(links).where(eq(links.name, name));
  const data = copy!.metaData as { files: { fileId: string }[] };
  return { slug: copy!.slug, fileIds: data.files.map((f) => f.fileId) };
}

async function usage(acct: TestAccount) {
  const res = await call(api.app, acct.key, 'GET', '/api/v1/usage');
  expect(res.statusCode, res.body).toBe(200);
  return res.json().storage as { usedBytes: number; quotaBytes: number; files: number };
}

async function objectKeys(accountId: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const o of api.ctx.storage.list(`accounts/${accountId}/files/`)) keys.push(o.key);
  return keys.sort();
}

async function blobsOf(accountId: string) {
  return api.ctx.db.select().from(fileBlobs).where(eq(fileBlobs.accountId, accountId));
}

async function blobIdOf(fileId: string): Promise<string> {
  const [row] = await api.ctx.db.select({ blobId: files.blobId }).from(files).where(eq(files.id, fileId));
  return row!.blobId;
}

/** ref_count is the number of files on each blob; every blob has its object and no object lacks a blob. */
async function expectConsistentStorage(accountId: string) {
  const blobs = await blobsOf(accountId);
  const perBlob = new Map(
    (
      await api.ctx.db.select({ blobId: files.blobId, n: count() }).from(files).where(eq(files.accountId, accountId)).groupBy(files.blobId)
    ).map((r) => [r.blobId, r.n]),
  );
  for (const blob of blobs) {
    expect(blob.refCount, blob.id).toBe(perBlob.get(blob.id) ?? 0);
    expect(blob.refCount, blob.id).toBeGreaterThan(0);
  }
  expect([...perBlob.keys()].every((id) => blobs.some((b) => b.id === id))).toBe(true);
  expect(await objectKeys(accountId)).toEqual(blobs.map((b) => b.storageKey).sort());
}

async function served(fileId: string) {
  return redirect.inject({ method: 'GET', url: `/files/${fileId}` });
}

describe.each(DRIVERS)('on the $name driver', (driver) => {
  let stop: () => Promise<void>;
  beforeAll(async () => {
    const started = await driver.start();
    stop = started.stop;
    api = await startTestApi(started.env);
    redirect = await buildRedirectApp(api.ctx);
    await redirect.ready();
  });
  afterAll(async () => {
    await redirect?.close();
    await api?.close();
    await stop?.();
  });

  describe('identical bytes are stored once per account', () => {
    it('a second upload of the same bytes is a new file on the same blob; another account stores its own copy', async () => {
      const me = await createTestAccount(api.ctx);
      const them = await createTestAccount(api.ctx);
      const bytes = uniquePng(1000);
      const [a, b] = [await upload(me, bytes), await upload(me, bytes)];
      expect(a).not.toBe(b);
      expect(await blobIdOf(a)).toBe(await blobIdOf(b));
      const theirs = await upload(them, bytes);
      expect(await blobIdOf(theirs)).not.toBe(await blobIdOf(a));
      expect(await usage(me)).toMatchObject({ usedBytes: bytes.length, files: 2 });
      expect(await usage(them)).toMatchObject({ usedBytes: bytes.length, files: 1 });
      for (const id of [a, b, theirs]) expect((await served(id)).rawPayload.equals(bytes)).toBe(true);
      await expectConsistentStorage(me.accountId);
      await expectConsistentStorage(them.accountId);
    });

    it('duplicating a 5-image gallery stores no byte and uses no quota; the bytes go with the last link', async () => {
      const me = await createTestAccount(api.ctx);
      const images = [uniquePng(5000), uniquePng(5000), uniquePng(5000), uniquePng(5000), uniquePng(5000)];
      const ids: string[] = [];
      for (const bytes of images) ids.push(await upload(me, bytes));
      const original = await gallery(me, ids);
      const before = { objects: await objectKeys(me.accountId), usage: await usage(me) };

      const copy = await duplicate(me, original);
      const copy2 = await duplicate(me, original);
      expect(copy.fileIds).toHaveLength(5);
      expect(copy.fileIds.some((id) => ids.includes(id))).toBe(false);
      for (const [i, id] of copy.fileIds.entries()) expect(await blobIdOf(id)).toBe(await blobIdOf(ids[i]!));
      expect(await objectKeys(me.accountId)).toEqual(before.objects);
      expect(await usage(me)).toEqual({ ...before.usage, files: 15 });
      await expectConsistentStorage(me.accountId);

      // Deleting the original leaves the copies' files whole.
      expect((await call(api.app, me.key, 'DELETE', `/api/v1/links/${original}`)).statusCode).toBe(200);
      for (const [i, id] of copy.fileIds.entries()) expect((await served(id)).rawPayload.equals(images[i]!)).toBe(true);
      for (const id of ids) expect((await served(id)).statusCode).toBe(404);
      expect(await objectKeys(me.accountId)).toEqual(before.objects);
      await expectConsistentStorage(me.accountId);

      expect((await call(api.app, me.key, 'DELETE', `/api/v1/links/${copy.slug}`)).statusCode).toBe(200);
      expect(await objectKeys(me.accountId)).toEqual(before.objects);
      expect((await call(api.app, me.key, 'DELETE', `/api/v1/links/${copy2.slug}`)).statusCode).toBe(200);
      expect(await objectKeys(me.accountId)).toEqual([]);
      expect(await blobsOf(me.accountId)).toEqual([]);
      expect(await usage(me)).toMatchObject({ usedBytes: 0, files: 0 });
    });

    it('a file named as a QR centre image by a link, a template or a QR restyle outlives the orphan sweep', async () => {
      const me = await createTestAccount(api.ctx);
      const uploaded = () => uploadFile(api.app, me.key, uniquePng(), 'logo.png', 'image/png');
      const [forLink, forTemplate, forRestyle, unused] = [await uploaded(), await uploaded(), await uploaded(), await uploaded()];
      const slug = await createLink(me, {
        name: 'qr-logo',
        type: 'website',
        data: { url: 'https://example.com' },
        qrOptions: { image: forLink.url },
      });
      const template = await call(api.app, me.key, 'POST', '/api/v1/templates', {
        name: 'with logo',
        qrOptions: { image: forTemplate.url },
      });
      expect(template.statusCode, template.body).toBe(200);
      const other = await createLink(me, { name: 'restyled', type: 'website', data: { url: 'https://example.com' } });
      const restyle = await call(api.app, me.key, 'PATCH', `/api/v1/links/${other}`, { qrCode: { image: forRestyle.url } });
      expect(restyle.statusCode, restyle.body).toBe(200);

      await sweepOrphanFiles(api.ctx, new Date(Date.now() + 60_000));
      const left = await api.ctx.db
        .select({ id: files.id })
        .from(files)
        .where(
          inArray(
            files.id,
            [forLink, forTemplate, forRestyle, unused].map((f) => f.fileId),
          ),
        );
      expect(left.map((f) => f.id).sort()).toEqual([forLink, forTemplate, forRestyle].map((f) => f.fileId).sort());
      // The code still draws with its logo after the sweep.
      const qr = await call(api.app, me.key, 'GET', `/api/v1/links/${slug}/qr?format=png`);
      expect(qr.statusCode, qr.body).toBe(200);
      await expectConsistentStorage(me.accountId);
    });

    it('a file PUT releases is swept with its bytes unless another file still has them', async () => {
      const me = await createTestAccount(api.ctx);
      const [kept, released] = [uniquePng(), uniquePng()];
      const ids = [await upload(me, kept), await upload(me, released)];
      const slug = await gallery(me, ids);
      const copy = await duplicate(me, slug);
      const put = await call(api.app, me.key, 'PUT', `/api/v1/links/${slug}`, {
        name: 'g',
        type: 'gallery',
        data: { files: [{ fileId: ids[0] }] },
      });
      expect(put.statusCode, put.body).toBe(200);
      const releasedBlob = await blobIdOf(ids[1]!);
      await sweepOrphanFiles(api.ctx, new Date(Date.now() + 60_000));
      // The released file is gone; its bytes stay, since the copy's file has them.
      expect(await api.ctx.db.select().from(files).where(eq(files.id, ids[1]!))).toEqual([]);
      expect((await served(copy.fileIds[1]!)).rawPayload.equals(released)).toBe(true);
      await expectConsistentStorage(me.accountId);
      // The copy lets go of it too: now nothing has the bytes, and the sweep deletes them.
      const put2 = await call(api.app, me.key, 'PUT', `/api/v1/links/${copy.slug}`, {
        name: 'c',
        type: 'gallery',
        data: { files: [{ fileId: copy.fileIds[0] }] },
      });
      expect(put2.statusCode, put2.body).toBe(200);
      await sweepOrphanFiles(api.ctx, new Date(Date.now() + 60_000));
      expect(await api.ctx.db.select().from(fileBlobs).where(eq(fileBlobs.id, releasedBlob))).toEqual([]);
      expect(await api.ctx.storage.stat(blobStorageKey(me.accountId, releasedBlob))).toBeNull();
      expect((await served(ids[0]!)).rawPayload.equals(kept)).toBe(true);
      await expectConsistentStorage(me.accountId);
    });

    it('tenancy holds: another account’s fileId is "File not found", also for bytes both stored', async () => {
      const me = await createTestAccount(api.ctx);
      const them = await createTestAccount(api.ctx);
      const bytes = uniquePng();
      await upload(me, bytes);
      const theirs = await upload(them, bytes);
      const res = await call(api.app, me.key, 'POST', '/api/v1/links', { name: 'x', type: 'image', data: { files: [{ fileId: theirs }] } });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual([{ path: 'data.files[0].fileId', message: 'File not found' }]);
    });
  });

  describe('one upload used by several links of the account', () => {
    const fileIdsOf = async (slug: string) => {
      const [row] = await api.ctx.db.select().from(links).where(eq(links.slug, slug));
      const data = row!.metaData as { files: { fileId: string }[] };
      return {
        id: row!.id,
        files: data.files.map((f) => f.fileId),
        logo: row!.pageStyle?.logo?.fileId,
      };
    };
    const linkIdOfFile = async (fileId: string) =>
      (await api.ctx.db.select({ linkId: files.linkId }).from(files).where(eq(files.id, fileId)))[0]?.linkId;

    it('a second link naming the file (data and page-style logo) gets its own file on the same bytes; quota counts them once; bytes go with the last link', async () => {
      const me = await createTestAccount(api.ctx);
      const photo = uniquePng(4000);
      const logoBytes = uniquePng(2000);
      const [photoId, logoId] = [await upload(me, photo), await upload(me, logoBytes)];
      const body = (name: string) => ({
        name,
        type: 'gallery',
        data: { files: [{ fileId: photoId }] },
        pageStyle: { logo: { fileId: logoId } },
      });
      const first = await createLink(me, body('first'));
      const second = await createLink(me, body('second'));
      const [a, b] = [await fileIdsOf(first), await fileIdsOf(second)];
      expect(a.files).toEqual([photoId]);
      expect(a.logo).toBe(logoId);
      expect(b.files[0]).not.toBe(photoId);
      expect(b.logo).not.toBe(logoId);
      expect(await blobIdOf(b.files[0]!)).toBe(await blobIdOf(photoId));
      expect(await blobIdOf(b.logo!)).toBe(await blobIdOf(logoId));
      expect(await linkIdOfFile(b.files[0]!)).toBe(b.id);
      expect(await linkIdOfFile(photoId)).toBe(a.id);
      // The answer names the link's own files too.
      const got = (await call(api.app, me.key, 'GET', `/api/v1/links/${second}`)).json();
      expect(got.data.page_style.logo.fileId).toBe(b.logo);
      expect(await usage(me)).toMatchObject({ usedBytes: photo.length + logoBytes.length, files: 4 });
      await expectConsistentStorage(me.accountId);

      // Nothing attached is swept, whatever its age (a date no other suite uses keeps the sweep to these rows).
      await api.ctx.db
        .update(files)
        .set({ createdAt: SHARED_LONG_AGO })
        .where(inArray(files.id, [photoId, logoId, ...b.files, b.logo!]));
      expect(await sweepOrphanFiles(api.ctx, new Date(SHARED_LONG_AGO.getTime() + 1000))).toBe(0);
      expect((await blobsOf(me.accountId)).map((blob) => blob.refCount).sort()).toEqual([2, 2]);

      expect((await call(api.app, me.key, 'DELETE', `/api/v1/links/${first}`)).statusCode).toBe(200);
      expect((await served(b.files[0]!)).rawPayload.equals(photo)).toBe(true);
      expect((await served(b.logo!)).rawPayload.equals(logoBytes)).toBe(true);
      expect((await served(photoId)).statusCode).toBe(404);
      expect(await usage(me)).toMatchObject({ usedBytes: photo.length + logoBytes.length, files: 2 });
      await expectConsistentStorage(me.accountId);

      expect((await call(api.app, me.key, 'DELETE', `/api/v1/links/${second}`)).statusCode).toBe(200);
      expect(await blobsOf(me.accountId)).toEqual([]);
      expect(await objectKeys(me.accountId)).toEqual([]);
      expect(await usage(me)).toMatchObject({ usedBytes: 0, files: 0 });
    });

    it('PUT may name another link’s file; the link keeps the file it already has', async () => {
      const me = await createTestAccount(api.ctx);
      const [x, y] = [await upload(me, uniquePng()), await upload(me, uniquePng())];
      const first = await gallery(me, [x]);
      const second = await gallery(me, [y]);
      const put = await call(api.app, me.key, 'PUT', `/api/v1/links/${second}`, {
        name: 'second',
        type: 'gallery',
        data: { files: [{ fileId: y }, { fileId: x }] },
      });
      expect(put.statusCode, put.body).toBe(200);
      const b = await fileIdsOf(second);
      expect(b.files[0]).toBe(y);
      expect(b.files[1]).not.toBe(x);
      expect(await blobIdOf(b.files[1]!)).toBe(await blobIdOf(x));
      expect((await fileIdsOf(first)).files).toEqual([x]);
      await expectConsistentStorage(me.accountId);
    });

    it('another account’s file is still "File not found", also when one of its links has it', async () => {
      const me = await createTestAccount(api.ctx);
      const them = await createTestAccount(api.ctx);
      const theirs = await upload(them, uniquePng());
      await gallery(them, [theirs]);
      const res = await call(api.app, me.key, 'POST', '/api/v1/links', { name: 'x', type: 'image', data: { files: [{ fileId: theirs }] } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        code: 'validation_failed',
        message: expect.any(String),
        errors: [{ path: 'data.files[0].fileId', message: 'File not found' }],
      });
      const style = await call(api.app, me.key, 'POST', '/api/v1/links', {
        name: 'x',
        type: 'website',
        data: { url: 'https://example.com/' },
        pageStyle: { logo: { fileId: theirs } },
      });
      expect(style.statusCode).toBe(400);
      expect(style.json().errors).toEqual([{ path: 'pageStyle.logo.fileId', message: 'File not found' }]);
    });

    it('a protected and an open link sharing an upload: the open link’s page and file are public, the protected one’s file is not', async () => {
      const me = await createTestAccount(api.ctx);
      const bytes = uniquePng(1000);
      const x = await upload(me, bytes);
      const closed = await createLink(me, {
        name: 'closed',
        type: 'gallery',
        data: { files: [{ fileId: x }] },
        linkConfigurations: { passwordProtectedActive: true, password: 'secret-pw' },
      });
      const open = await gallery(me, [x]);
      const y = (await fileIdsOf(open)).files[0]!;
      expect(y).not.toBe(x);
      expect((await fileIdsOf(closed)).files).toEqual([x]);
      const page = await redirect.inject({ method: 'GET', url: `/${open}` });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain(`/files/${y}`);
      expect(page.body).not.toContain(x);
      expect((await served(y)).rawPayload.equals(bytes)).toBe(true);
      expect((await served(x)).statusCode).toBe(404);
      // Without the protected link's cookie its address answers the password page, not the bytes.
      const locked = await redirect.inject({ method: 'GET', url: `/${closed}/files/${x}` });
      expect(locked.headers['content-type']).toMatch(/^text\/html/);
      expect(locked.rawPayload.includes(bytes)).toBe(false);
      // Nor does the open link's address serve the protected link's file.
      expect((await redirect.inject({ method: 'GET', url: `/${open}/files/${x}` })).statusCode).toBe(404);
    });

    it('links attaching the same unattached file at once: one gets it, each other a file of its own on the same bytes', async () => {
      const me = await createTestAccount(api.ctx);
      for (let round = 0; round < 3; round++) {
        const x = await upload(me, uniquePng());
        const answers = await Promise.all(
          Array.from({ length: 5 }, (_, i) =>
            call(api.app, me.key, 'POST', '/api/v1/links', { name: `r${round}-${i}`, type: 'gallery', data: { files: [{ fileId: x }] } }),
          ),
        );
        expect(answers.map((r) => r.statusCode)).toEqual(Array(5).fill(200));
        const named = await Promise.all(answers.map(async (r) => (await fileIdsOf(r.json().id as string)).files[0]!));
        expect(new Set(named).size).toBe(5);
        expect(named.filter((id) => id === x)).toHaveLength(1);
        for (const id of named) expect(await blobIdOf(id)).toBe(await blobIdOf(x));
        const blobId = await blobIdOf(x);
        expect((await blobsOf(me.accountId)).find((b) => b.id === blobId)?.refCount).toBe(5);
        await expectConsistentStorage(me.accountId);
      }
    });
  });

  describe('concurrency: the database decides', () => {
    it('two links deleting the last two references to the same bytes at once free them exactly once', async () => {
      const me = await createTestAccount(api.ctx);
      for (let round = 0; round < 4; round++) {
        const ids: string[] = [];
        for (let i = 0; i < 3; i++) ids.push(await upload(me, uniquePng()));
        const original = await gallery(me, ids);
        const copy = await duplicate(me, original);
        const answers = await Promise.all([original, copy.slug].map((slug) => call(api.app, me.key, 'DELETE', `/api/v1/links/${slug}`)));
        expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
        expect(await blobsOf(me.accountId)).toEqual([]);
        expect(await objectKeys(me.accountId)).toEqual([]);
      }
    });

    it('an upload of bytes whose last reference is being deleted ends up stored and served', async () => {
      const me = await createTestAccount(api.ctx);
      for (let round = 0; round < 6; round++) {
        const bytes = uniquePng(2000);
        const slug = await gallery(me, [await upload(me, bytes)]);
        const [deleted, uploaded] = await Promise.all([call(api.app, me.key, 'DELETE', `/api/v1/links/${slug}`), postFile(me, bytes)]);
        expect(deleted.statusCode).toBe(200);
        expect(uploaded.statusCode, uploaded.body).toBe(200);
        const res = await served(uploaded.json().fileId);
        expect(res.statusCode).toBe(200);
        expect(res.rawPayload.equals(bytes)).toBe(true);
        await expectConsistentStorage(me.accountId);
      }
    });

    it('concurrent uploads and duplications of the same bytes keep every count right', async () => {
      const me = await createTestAccount(api.ctx);
      const bytes = uniquePng(3000);
      const slug = await gallery(me, [await upload(me, bytes)]);
      const results = await Promise.all([
        ...Array.from({ length: 6 }, () => postFile(me, bytes)),
        ...Array.from({ length: 3 }, () => call(api.app, me.key, 'POST', `/api/v1/links/${slug}/duplicate`, {})),
      ]);
      expect(results.map((r) => r.statusCode)).toEqual(Array(9).fill(200));
      const blobs = await blobsOf(me.accountId);
      expect(blobs).toHaveLength(1);
      expect(blobs[0]!.refCount).toBe(10);
      await expectConsistentStorage(me.accountId);
    });
  });

  describe('storage quota per plan', () => {
    const quota = STORAGE_QUOTA_BYTES.starter;

    /**
     * Makes the account use all but `free` bytes of its quota: a blob row of that size (its object
     * is not needed; the quota counts blob rows), as years of uploads would leave it.
     */
    async function fill(acct: TestAccount, free: number) {
      const id = randomUUID();
      await api.ctx.db.insert(fileBlobs).values({
        id,
        accountId: acct.accountId,
        sha256: null,
        storageKey: blobStorageKey(acct.accountId, id),
        contentType: 'image/png',
        size: quota - free,
        refCount: 1,
      });
      await api.ctx.db.insert(files).values({ accountId: acct.accountId, blobId: id, contentType: 'image/png', size: quota - free });
    }

    it('sizes in messages read at a glance, rounded down', () => {
      expect(formatStorageSize(5 * 1024 ** 3)).toBe('5 GiB');
      expect(formatStorageSize(1.2799 * 1024 ** 3)).toBe('1.27 GiB');
      expect(formatStorageSize(500 * 1024 ** 2 - 1)).toBe('499.99 MiB');
      expect(formatStorageSize(830)).toBe('0.81 KiB');
    });

    it('the plans have quotas that grow with the plan', () => {
      expect(STORAGE_QUOTA_BYTES.starter).toBeLessThan(STORAGE_QUOTA_BYTES.pro);
      expect(STORAGE_QUOTA_BYTES.pro).toBeLessThan(STORAGE_QUOTA_BYTES.business);
      expect(STORAGE_QUOTA_BYTES.business).toBeLessThan(STORAGE_QUOTA_BYTES.enterprise);
    });

    it('new bytes past the quota → 413 naming the quota and the use; nothing stored. Known bytes and duplicates still fit', async () => {
      const me = await createTestAccount(api.ctx, { plan: 'starter' });
      const known = uniquePng(100);
      const knownId = await upload(me, known);
      const slug = await gallery(me, [knownId]);
      const free = 5000;
      await fill(me, free + known.length);
      expect(await usage(me)).toMatchObject({ usedBytes: quota - free, quotaBytes: quota });
      const objectsBefore = await objectKeys(me.accountId);

      const tooBig = uniquePng(free);
      const res = await postFile(me, tooBig);
      expect(res.statusCode).toBe(413);
      const used = quota - free;
      const { message } = res.json();
      expect(Object.keys(res.json())).toEqual(['code', 'message']);
      expect(res.json().code).toBe('storage_quota_exceeded');
      expect(message).toMatch(/^Storage quota exceeded: the starter plan stores up to 500 MiB /);
      for (const part of [`(${quota} bytes)`, `uses 499.99 MiB (${used} bytes)`, `(${tooBig.length} bytes) does not fit`])
        expect(message).toContain(part);
      expect(await objectKeys(me.accountId)).toEqual(objectsBefore);
      expect(await usage(me)).toMatchObject({ usedBytes: used, files: 2 });

      // Exactly what is left fits.
      const exact = uniquePng(free - UNIQUE_PNG_BYTES);
      expect(exact.length).toBe(free);
      expect((await postFile(me, exact)).statusCode).toBe(200);
      expect((await usage(me)).usedBytes).toBe(quota);
      // At the quota: bytes the account stores already, and a duplicated link, take no space.
      expect((await postFile(me, known)).statusCode).toBe(200);
      expect((await call(api.app, me.key, 'POST', `/api/v1/links/${slug}/duplicate`, {})).statusCode).toBe(200);
      expect((await postFile(me, uniquePng())).statusCode).toBe(413);
      expect((await usage(me)).usedBytes).toBe(quota);
    });

    it('concurrent uploads cannot both take the last free space', async () => {
      const me = await createTestAccount(api.ctx, { plan: 'starter' });
      const size = 4000;
      // Room for exactly one of the uploads.
      await fill(me, size + size / 2);
      const answers = await Promise.all(Array.from({ length: 5 }, () => postFile(me, uniquePng(size - UNIQUE_PNG_BYTES))));
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 413, 413, 413, 413]);
      expect((await usage(me)).usedBytes).toBe(quota - size / 2);
    });
  });

  describe('GET /usage', () => {
    it('answers any valid key with the storage use; 401 without one', async () => {
      const me = await createTestAccount(api.ctx, { plan: 'business' });
      const narrow = await addKey(api.ctx, me.accountId, ['folders.read']);
      await upload(me, uniquePng(10));
      const res = await call(api.app, narrow.key, 'GET', '/api/v1/usage');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ storage: { usedBytes: UNIQUE_PNG_BYTES + 10, quotaBytes: STORAGE_QUOTA_BYTES.business, files: 1 } });
      expect((await call(api.app, null, 'GET', '/api/v1/usage')).statusCode).toBe(401);
    });

    it('is in the OpenAPI document with its response schema', async () => {
      const doc = (await api.app.inject({ method: 'GET', url: '/api/v1/docs/json' })).json();
      const op = doc.paths['/api/v1/usage'].get;
      const storage = op.responses['200'].content['application/json'].schema.properties.storage;
      expect(Object.keys(storage.properties).sort()).toEqual(['files', 'quotaBytes', 'usedBytes']);
    });

    it('pdf and image uploads of one account add up', async () => {
      const me = await createTestAccount(api.ctx);
      const pdf = pdfBytes(`doc ${randomUUID()}`);
      const png = uniquePng(50);
      await upload(me, pdf);
      await upload(me, png);
      await upload(me, png);
      expect(await usage(me)).toMatchObject({ usedBytes: pdf.length + png.length, files: 3 });
    });
  });
});
