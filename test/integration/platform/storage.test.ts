import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Client } from 'minio';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { S3RVER_KEY, startS3rver, type RunningS3rver } from '../../support/s3rver.js';
import {
  createStorage,
  InvalidKeyError,
  RangeNotSatisfiableError,
  type ObjectStorage,
  type StoredObjectInfo,
} from '#platform/storage/index.js';

const BUCKET = 'qrlinks-test';

async function readAll(body: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

async function collect(items: AsyncIterable<StoredObjectInfo>): Promise<StoredObjectInfo[]> {
  const out: StoredObjectInfo[] = [];
  for await (const item of items) out.push(item);
  return out.sort((a, b) => a.key.localeCompare(b.key));
}

async function tempDir(label: string): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), `qrlinks-${label}-`));
}

const sha = (buf: Buffer) => createHash('sha256').update(buf).digest('hex');

/** A stream that delivers some bytes, then fails like an aborted upload. */
function failingStream(): Readable {
  return Readable.from(
    (async function* () {
      yield Buffer.from('partial');
      throw new Error('client went away');
    })(),
  );
}

/**
 * The same behaviour is required of every driver. `make` runs after the enclosing describe's beforeAll, so it
 * can use whatever server or folder that set up.
 */
function contract(make: () => ObjectStorage) {
  describe('ObjectStorage contract', () => {
    let storage: ObjectStorage;

    beforeAll(async () => {
      storage = make();
      await storage.init();
    });

    it('init() is idempotent and ping() is true', async () => {
      await storage.init();
      expect(await storage.ping()).toBe(true);
    });

    it('put(Buffer) then get() returns the same bytes, content type and size', async () => {
      const data = Buffer.from('hello qr world');
      const put = await storage.put('qr/hello.png', data, { contentType: 'image/png' });
      expect(put).toMatchObject({ key: 'qr/hello.png', size: data.length, contentType: 'image/png' });
      expect(put.etag).toBeTruthy();

      const got = await storage.get('qr/hello.png');
      expect(got).not.toBeNull();
      expect(got!.info).toMatchObject({ key: 'qr/hello.png', size: data.length, contentType: 'image/png' });
      expect(got!.range).toBeUndefined();
      expect(await readAll(got!.body)).toEqual(data);
    });

    it('put(stream) works with Buffer and string chunks, with and without a declared size', async () => {
      const put = await storage.put('stream/a.txt', Readable.from([Buffer.from('abc'), Buffer.from('def')]), { contentType: 'text/plain' });
      expect(put.size).toBe(6);
      await storage.put('stream/b.txt', Readable.from(['x', 'yz']), { contentType: 'text/plain', size: 3 });

      expect((await readAll((await storage.get('stream/a.txt'))!.body)).toString()).toBe('abcdef');
      const b = await storage.get('stream/b.txt');
      expect(b!.info).toMatchObject({ size: 3, contentType: 'text/plain' });
      expect((await readAll(b!.body)).toString()).toBe('xyz');
    });

    it('stat() returns size, content type, etag and lastModified', async () => {
      const before = Date.now();
      await storage.put('stat/x.json', Buffer.from('{"a":1}'), { contentType: 'application/json' });
      const st = await storage.stat('stat/x.json');
      expect(st).toMatchObject({ key: 'stat/x.json', size: 7, contentType: 'application/json' });
      expect(st!.etag).toBeTruthy();
      expect(st!.lastModified).toBeInstanceOf(Date);
      // S3 keeps whole seconds only.
      expect(st!.lastModified!.getTime()).toBeGreaterThan(before - 2000);
    });

    describe('range reads', () => {
      const digits = Buffer.from('0123456789');
      beforeAll(async () => {
        await storage.put('range/digits.txt', digits, { contentType: 'text/plain' });
      });

      it('serves an inclusive start..end range, reporting the whole object size', async () => {
        const got = await storage.get('range/digits.txt', { start: 2, end: 5 });
        expect(got!.range).toEqual({ start: 2, end: 5 });
        expect(got!.info).toMatchObject({ size: 10, contentType: 'text/plain' });
        expect((await readAll(got!.body)).toString()).toBe('2345');
      });

      it('serves an open-ended range to the last byte', async () => {
        const got = await storage.get('range/digits.txt', { start: 7 });
        expect(got!.range).toEqual({ start: 7, end: 9 });
        expect((await readAll(got!.body)).toString()).toBe('789');
      });

      it('clamps an end past the last byte, like HTTP', async () => {
        const got = await storage.get('range/digits.txt', { start: 8, end: 100 });
        expect(got!.range).toEqual({ start: 8, end: 9 });
        expect((await readAll(got!.body)).toString()).toBe('89');
      });

      it('always reports the range the body really holds (s3rver answers bytes=0-0 with everything)', async () => {
        const got = await storage.get('range/digits.txt', { start: 0, end: 0 });
        const { start, end } = got!.range!;
        expect(start).toBe(0);
        expect(await readAll(got!.body)).toEqual(digits.subarray(start, end + 1));
      });

      it('throws RangeNotSatisfiableError (with the size) for a start past the end', async () => {
        const err = await storage.get('range/digits.txt', { start: 10 }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(RangeNotSatisfiableError);
        expect((err as RangeNotSatisfiableError).size).toBe(10);
      });

      it('rejects malformed ranges', async () => {
        await expect(storage.get('range/digits.txt', { start: -1 })).rejects.toThrow(/range/i);
        await expect(storage.get('range/digits.txt', { start: 5, end: 4 })).rejects.toThrow(/range/i);
      });
    });

    it('stores and serves an empty object', async () => {
      await storage.put('empty/zero.bin', Buffer.alloc(0), { contentType: 'application/octet-stream' });
      const got = await storage.get('empty/zero.bin');
      expect(got!.info.size).toBe(0);
      expect((await readAll(got!.body)).length).toBe(0);
      await expect(storage.get('empty/zero.bin', { start: 0 })).rejects.toBeInstanceOf(RangeNotSatisfiableError);
    });

    it('get() and stat() of a missing key resolve null', async () => {
      expect(await storage.get('missing/nothing.png')).toBeNull();
      expect(await storage.get('missing/nothing.png', { start: 1 })).toBeNull();
      expect(await storage.stat('missing/nothing.png')).toBeNull();
    });

    it('delete() removes the object, and deleting a missing key is fine', async () => {
      await storage.put('del/one.txt', Buffer.from('1'), { contentType: 'text/plain' });
      await storage.delete('del/one.txt');
      expect(await storage.get('del/one.txt')).toBeNull();
      expect(await storage.stat('del/one.txt')).toBeNull();
      await expect(storage.delete('del/one.txt')).resolves.toBeUndefined();
      await expect(storage.delete('never/existed.txt')).resolves.toBeUndefined();
    });

    it('deleteMany() removes exactly the given keys, tolerating missing ones', async () => {
      for (const k of ['1', '2', '3']) await storage.put(`many/${k}.txt`, Buffer.from(k), { contentType: 'text/plain' });
      await storage.deleteMany(['many/1.txt', 'many/3.txt', 'many/missing.txt']);
      expect((await collect(storage.list('many/'))).map((o) => o.key)).toEqual(['many/2.txt']);
      await expect(storage.deleteMany([])).resolves.toBeUndefined();
    });

    it('deleteFolder() removes everything under the folder and nothing beside it', async () => {
      const keys = ['gone/job/a.csv', 'gone/job/deep/b.zip', 'gone/jobber/keep.csv', 'gone/keep.csv'];
      for (const k of keys) await storage.put(k, Buffer.from(k), { contentType: 'text/plain' });
      await storage.deleteFolder('gone/job/');
      expect((await collect(storage.list('gone/'))).map((o) => o.key).sort()).toEqual(['gone/jobber/keep.csv', 'gone/keep.csv']);
      await expect(storage.deleteFolder('gone/never-there/')).resolves.toBeUndefined();
      // Only folders: no mid-segment prefix, no bare key, nothing outside the store.
      for (const bad of ['gone/job', '', '/', '../', 'a//'])
        await expect(storage.deleteFolder(bad), bad).rejects.toBeInstanceOf(InvalidKeyError);
      expect((await collect(storage.list('gone/'))).length).toBe(2);
    });

    it('list(prefix) yields exactly the keys under the prefix', async () => {
      const keys = ['list/a/1.png', 'list/a/2.png', 'list/a/deep/3.png', 'list/b/1.png'];
      for (const k of keys) await storage.put(k, Buffer.from(k), { contentType: 'image/png' });

      const underA = await collect(storage.list('list/a/'));
      expect(underA.map((o) => o.key)).toEqual(['list/a/1.png', 'list/a/2.png', 'list/a/deep/3.png']);
      expect(underA[0]).toMatchObject({ size: 'list/a/1.png'.length, contentType: '' });
      expect(underA[0]!.lastModified).toBeInstanceOf(Date);

      expect((await collect(storage.list('list/'))).map((o) => o.key)).toEqual(keys);
      // A prefix is a plain string prefix, not a folder: 'list/a/d' matches 'list/a/deep/...'.
      expect((await collect(storage.list('list/a/d'))).map((o) => o.key)).toEqual(['list/a/deep/3.png']);
      expect(await collect(storage.list('list/nothing/'))).toEqual([]);
      expect((await collect(storage.list(''))).length).toBeGreaterThanOrEqual(keys.length);
    });

    it('overwrite replaces content and content type', async () => {
      const first = await storage.put('over/logo', Buffer.from('old content!'), { contentType: 'image/png' });
      const second = await storage.put('over/logo', Buffer.from('new'), { contentType: 'image/svg+xml' });
      expect(second.etag).not.toBe(first.etag);
      const got = await storage.get('over/logo');
      expect(got!.info).toMatchObject({ size: 3, contentType: 'image/svg+xml', etag: second.etag });
      expect((await readAll(got!.body)).toString()).toBe('new');
      expect((await collect(storage.list('over/'))).map((o) => o.key)).toEqual(['over/logo']);
    });

    it('rejects a body whose length differs from the declared size, storing nothing', async () => {
      await expect(storage.put('size/buf', Buffer.from('abc'), { contentType: 'text/plain', size: 4 })).rejects.toThrow(/expected 4/);
      await expect(storage.put('size/stream', Readable.from(['abc']), { contentType: 'text/plain', size: 2 })).rejects.toThrow(
        /expected 2/,
      );
      expect(await storage.stat('size/buf')).toBeNull();
      expect(await storage.stat('size/stream')).toBeNull();
    });

    it('a failing body stream rejects put() and leaves no object (nor a previous one damaged)', async () => {
      await storage.put('fail/obj', Buffer.from('intact'), { contentType: 'text/plain' });
      await expect(storage.put('fail/obj', failingStream(), { contentType: 'text/plain' })).rejects.toThrow('client went away');
      await expect(storage.put('fail/new', failingStream(), { contentType: 'text/plain' })).rejects.toThrow('client went away');
      expect(await storage.stat('fail/new')).toBeNull();
      expect((await readAll((await storage.get('fail/obj'))!.body)).toString()).toBe('intact');
    });

    it('rejects invalid keys before touching storage', async () => {
      const bad = ['../x', '/abs', 'a//b', 'a/./b', '', 'a/../b', '..', 'a/', 'sp ace', 'x@meta.json', 'ü', 'a'.repeat(513)];
      for (const key of bad) {
        const body = Readable.from([Buffer.from('nope')]);
        await expect(storage.put(key, body, { contentType: 'text/plain' }), key).rejects.toBeInstanceOf(InvalidKeyError);
        // The body was never read, so nothing can have reached the backing store.
        expect(body.readableDidRead, key).toBe(false);
        await expect(storage.get(key), key).rejects.toBeInstanceOf(InvalidKeyError);
        await expect(storage.stat(key), key).rejects.toBeInstanceOf(InvalidKeyError);
        await expect(storage.delete(key), key).rejects.toBeInstanceOf(InvalidKeyError);
      }
      // One bad key poisons the whole batch, so the good one must survive.
      await storage.put('batch/keep.txt', Buffer.from('k'), { contentType: 'text/plain' });
      await expect(storage.deleteMany(['batch/keep.txt', '../x'])).rejects.toBeInstanceOf(InvalidKeyError);
      expect(await storage.stat('batch/keep.txt')).not.toBeNull();
      await expect(collect(storage.list('../'))).rejects.toBeInstanceOf(InvalidKeyError);
      await expect(collect(storage.list('/abs'))).rejects.toBeInstanceOf(InvalidKeyError);
    });
  });
}

describe('fs driver', () => {
  // The root sits one level down so the test can see whether anything escaped into its parent.
  let parent: string;
  let root: string;

  beforeAll(async () => {
    parent = await tempDir('fs');
    root = path.join(parent, 'root');
  });

  afterAll(async () => {
    await rm(parent, { recursive: true, force: true });
  });

  contract(() => createStorage({ driver: 'fs', root }));

  it('kept every file inside the root, with no temp files left behind', async () => {
    expect(await readdir(parent)).toEqual(['root']);
    const all = (await readdir(root, { recursive: true })).map(String);
    expect(all.filter((f) => f.includes('@tmp-'))).toEqual([]);
    expect(existsSync(path.join(root, 'qr', 'hello.png'))).toBe(true);
  });

  it('keeps metadata in sidecars that never show up as keys', async () => {
    const storage = createStorage({ driver: 'fs', root });
    expect(existsSync(path.join(root, 'qr', 'hello.png@meta.json'))).toBe(true);
    expect((await collect(storage.list('qr/'))).map((o) => o.key)).toEqual(['qr/hello.png']);
  });

  it('prunes folders emptied by delete', async () => {
    const storage = createStorage({ driver: 'fs', root });
    await storage.put('prune/deep/er/file.txt', Buffer.from('x'), { contentType: 'text/plain' });
    await storage.delete('prune/deep/er/file.txt');
    expect(existsSync(path.join(root, 'prune'))).toBe(false);
    expect(existsSync(root)).toBe(true);
  });

  it("refuses (rather than corrupts) keys that clash with a folder, as 'a' and 'a/b' can't coexist on disk", async () => {
    const storage = createStorage({ driver: 'fs', root });
    await storage.put('clash/a', Buffer.from('file'), { contentType: 'text/plain' });
    await expect(storage.put('clash/a/b', Buffer.from('x'), { contentType: 'text/plain' })).rejects.toThrow();
    await storage.put('clash/dir/b', Buffer.from('x'), { contentType: 'text/plain' });
    await expect(storage.put('clash/dir', Buffer.from('x'), { contentType: 'text/plain' })).rejects.toThrow();
    expect(await storage.get('clash/dir')).toBeNull();
    expect((await collect(storage.list('clash/'))).map((o) => o.key)).toEqual(['clash/a', 'clash/dir/b']);
    expect((await readAll((await storage.get('clash/a'))!.body)).toString()).toBe('file');
  });

  it('deleteFolder() also removes the temporary files an interrupted put left there', async () => {
    const storage = createStorage({ driver: 'fs', root });
    await storage.put('jobdir/x/export.csv', Buffer.from('a,b'), { contentType: 'text/csv' });
    // What a worker killed mid-upload leaves: a temp file beside (or instead of) the object.
    const leftover = path.join(root, 'jobdir', 'x', 'export.csv@tmp-0badf00d');
    await writeFile(leftover, 'half a file');
    await storage.deleteFolder('jobdir/x/');
    expect(existsSync(leftover)).toBe(false);
    // The emptied parents go too, as with delete().
    expect(existsSync(path.join(root, 'jobdir'))).toBe(false);
  });

  it('ping() is false when the root does not exist', async () => {
    expect(await createStorage({ driver: 'fs', root: path.join(parent, 'nope') }).ping()).toBe(false);
  });
});

describe('s3 driver (against s3rver)', () => {
  let server: RunningS3rver;
  let endpoint: string;
  /** "METHOD /path?query" of every request s3rver received, to see which S3 calls the driver made. */
  const requests: string[] = [];

  const s3 = (bucket: string, extra: { partSize?: number } = {}) =>
    createStorage({ driver: 's3', endpoint, accessKey: S3RVER_KEY, secretKey: S3RVER_KEY, bucket, ...extra });
  // A plain minio client, to check the driver's effects independently of the driver.
  const raw = () =>
    new Client({
      endPoint: '127.0.0.1',
      port: Number(new URL(endpoint).port),
      useSSL: false,
      accessKey: S3RVER_KEY,
      secretKey: S3RVER_KEY,
    });

  beforeAll(async () => {
    // No bucket is made here: the contract's init() has to create it itself.
    server = await startS3rver();
    endpoint = server.endpoint;
    server.httpServer.on('request', (req: IncomingMessage) => requests.push(`${req.method} ${req.url}`));
  });

  afterAll(async () => {
    await server?.close();
  });

  contract(() => s3(BUCKET));

  it('init() created the contract bucket', async () => {
    expect(await raw().bucketExists(BUCKET)).toBe(true);
  });
  it('init() on a fresh bucket creates it, and running it twice is fine', async () => {
    const storage = s3('qrlinks-fresh');
    expect(await raw().bucketExists('qrlinks-fresh')).toBe(false);
    expect(await storage.ping()).toBe(false); // reachable, but the bucket isn't there: not ready
    await storage.init();
    await storage.init();
    expect(await raw().bucketExists('qrlinks-fresh')).toBe(true);
    expect(await storage.ping()).toBe(true);
  });

  it('init() tolerates another instance creating the bucket at the same time', async () => {
    await Promise.all([s3('qrlinks-race').init(), s3('qrlinks-race').init(), s3('qrlinks-race').init()]);
    expect(await raw().bucketExists('qrlinks-race')).toBe(true);
  });

  it('ping() is false when nothing listens at the endpoint', async () => {
    const storage = createStorage({ driver: 's3', endpoint: 'http://127.0.0.1:1', accessKey: 'x', secretKey: 'y', bucket: BUCKET });
    expect(await storage.ping()).toBe(false);
  });

  it('rejects endpoints minio cannot address', () => {
    expect(() => createStorage({ driver: 's3', endpoint: 'http://h:9000/sub', accessKey: 'a', secretKey: 'b', bucket: BUCKET })).toThrow(
      /path/,
    );
    expect(() => createStorage({ driver: 's3', endpoint: 'ftp://h', accessKey: 'a', secretKey: 'b', bucket: BUCKET })).toThrow(/http/);
  });

  it('small streams go up in a single PUT', async () => {
    requests.length = 0;
    await s3(BUCKET).put('small/one.txt', Readable.from(['tiny']), { contentType: 'text/plain' });
    expect(requests.filter((r) => !r.startsWith('GET /qrlinks-test?location'))).toEqual(['PUT /qrlinks-test/small/one.txt']);
  });

  it('streams larger than partSize go up as a multipart upload', async () => {
    const storage = s3(BUCKET, { partSize: 5 * 1024 * 1024 });
    const data = Buffer.alloc(11 * 1024 * 1024 + 123);
    for (let i = 0; i < data.length; i += 4096) data[i] = i % 251;
    // 64 KiB chunks, as an HTTP upload would arrive.
    const chunks = Array.from({ length: Math.ceil(data.length / 65536) }, (_, i) => data.subarray(i * 65536, (i + 1) * 65536));
    requests.length = 0;
    const put = await storage.put('big/file.bin', Readable.from(chunks), { contentType: 'application/zip' });
    expect(put.size).toBe(data.length);
    expect(requests.filter((r) => r.startsWith('PUT ') && r.includes('partNumber='))).toHaveLength(3);
    const got = await storage.get('big/file.bin');
    expect(got!.info).toMatchObject({ size: data.length, contentType: 'application/zip' });
    expect(sha(await readAll(got!.body))).toBe(sha(data));
  });

  it('a Buffer larger than partSize goes up as a multipart upload too', async () => {
    const storage = s3(BUCKET, { partSize: 5 * 1024 * 1024 });
    const data = Buffer.alloc(5 * 1024 * 1024 + 10, 7);
    requests.length = 0;
    expect((await storage.put('big/buffer.bin', data, { contentType: 'application/octet-stream' })).size).toBe(data.length);
    expect(requests.filter((r) => r.includes('partNumber='))).toHaveLength(2);
    expect(sha(await readAll((await storage.get('big/buffer.bin'))!.body))).toBe(sha(data));
  });

  it('a failing stream past the first part aborts the multipart upload', async () => {
    const storage = s3(BUCKET, { partSize: 5 * 1024 * 1024 });
    const body = Readable.from(
      (async function* () {
        yield Buffer.alloc(6 * 1024 * 1024);
        throw new Error('client went away');
      })(),
    );
    requests.length = 0;
    await expect(storage.put('big/broken.bin', body, { contentType: 'application/zip' })).rejects.toThrow('client went away');
    expect(requests.some((r) => r.startsWith('DELETE /qrlinks-test/big/broken.bin?uploadId='))).toBe(true);
    expect(await storage.stat('big/broken.bin')).toBeNull();
  });
});

describe('the service on the s3 driver (STORAGE_DRIVER=s3)', () => {
  it('builds its storage from the environment, creates the bucket at start and stores through it', async () => {
    const server = await startS3rver();
    const { startTestApi } = await import('../../support/harness.js');
    const api = await startTestApi({
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: server.endpoint,
      S3_ACCESS_KEY: S3RVER_KEY,
      S3_SECRET_KEY: S3RVER_KEY,
      S3_BUCKET: 'qrlinks-service',
    });
    try {
      expect(api.ctx.storage.driver).toBe('s3');
      expect(await api.ctx.storage.ping()).toBe(true);
      await api.ctx.storage.put('files/hello.txt', Buffer.from('hello'), { contentType: 'text/plain' });
      const raw = new Client({
        endPoint: '127.0.0.1',
        port: Number(new URL(server.endpoint).port),
        useSSL: false,
        accessKey: S3RVER_KEY,
        secretKey: S3RVER_KEY,
      });
      const stat = await raw.statObject('qrlinks-service', 'files/hello.txt');
      expect(stat.size).toBe(5);
    } finally {
      await api.close();
      await server.close();
    }
  });
});
