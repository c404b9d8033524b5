import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { BucketItem, Client } from 'minio';
import type { Logger } from '../logger.js';
import { onFirstUse } from '../on-first-use.js';
import { assertValidFolder, assertValidKey, assertValidPrefix } from './keys.js';
import { assertValidRange, resolveRange } from './range.js';
import { RangeNotSatisfiableError, type ByteRange, type GetResult, type ObjectStorage, type StoredObjectInfo } from './types.js';

export interface S3StorageOptions {
  /** Base URL of the S3 API, e.g. http://127.0.0.1:9000 or https://s3.eu-central-1.amazonaws.com. */
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  /**
   * When unset, minio asks the server for the bucket's region (GET ?location) before the first request and
   * again after every error response (it drops its cache then, including on a plain 404). Setting it saves
   * those round trips; leave it unset for servers with an unusual region name (Garage) if unsure.
   */
  region?: string;
  /**
   * Streams up to this size go up in one PUT, larger ones as a multipart upload with parts of this size.
   * Also the most a single upload buffers in memory. S3 requires at least 5 MiB. Default 8 MiB.
   */
  partSize?: number;
  /** ping() gives up after this long so /ready answers even when the endpoint black-holes packets. */
  pingTimeoutMs?: number;
  /** Where a multipart upload that could not be aborted is reported (its parts stay billed until a lifecycle rule removes them). */
  logger?: Logger;
}

const MIN_PART_SIZE = 5 * 1024 * 1024;
/** S3's limit for one DeleteObjects request. */
const DELETE_BATCH = 1000;

export function createS3Storage(opts: S3StorageOptions): ObjectStorage {
  const { bucket, partSize = 8 * 1024 * 1024, pingTimeoutMs = 3000 } = opts;
  if (partSize < MIN_PART_SIZE) throw new Error(`partSize must be at least ${MIN_PART_SIZE} bytes`);
  const url = new URL(opts.endpoint);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`S3 endpoint must be http(s): ${opts.endpoint}`);
  // minio can't address an API mounted under a sub-path; fail at startup rather than on the first request.
  if (url.pathname !== '/' || url.search) throw new Error(`S3 endpoint must not have a path: ${opts.endpoint}`);
  const useSSL = url.protocol === 'https:';
  // minio (and the XML and HTTP modules it loads: ~7 MB of heap a process) is loaded on the first
  // request: a service storing files on disk never loads it.
  const s3 = onFirstUse<Client>(() =>
    import('minio').then(
      ({ Client }) =>
        new Client({
          endPoint: url.hostname,
          port: url.port ? Number(url.port) : useSSL ? 443 : 80,
          useSSL,
          accessKey: opts.accessKey,
          secretKey: opts.secretKey,
          region: opts.region,
        }),
    ),
  );

  async function bucketReachable(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), pingTimeoutMs);
    });
    try {
      return await Promise.race([
        s3()
          .then((client) => client.bucketExists(bucket))
          .catch(() => false),
        timeout,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * minio's putObject is used only for bodies that fit in one part. For anything bigger it buffers a whole
   * part sized for a 5 TiB object (~550 MB) when the size is unknown, never listens for errors on the source
   * stream (an aborted upload crashes the process and its promise never settles), and first lists unfinished
   * uploads so it can "resume" one of the same key. Cutting parts here keeps memory at ~partSize and lets a
   * failed upload be aborted.
   */
  async function upload(
    key: string,
    body: Iterable<Buffer> | AsyncIterable<Buffer | string>,
    contentType: string,
    expectedSize: number | undefined,
  ) {
    const headers = { 'Content-Type': contentType };
    const client = await s3();
    const parts = cutParts(body, partSize);
    const first = await parts.next();
    const head = first.done ? Buffer.alloc(0) : first.value;
    if (head.length < partSize) {
      // The whole body fit in one part: a plain PUT is one request instead of three.
      checkSize(head.length, expectedSize);
      return { size: head.length, etag: (await client.putObject(bucket, key, head, head.length, headers)).etag };
    }
    const uploadId = await client.initiateNewMultipartUpload(bucket, key, headers);
    try {
      const uploaded: { part: number; etag: string }[] = [];
      let size = 0;
      for (let next = first; !next.done; next = await parts.next()) {
        const part = uploaded.length + 1;
        const { etag } = await client.uploadPart(
          { bucketName: bucket, objectName: key, uploadID: uploadId, partNumber: part, headers: {} },
          next.value,
        );
        uploaded.push({ part, etag });
        size += next.value.length;
      }
      checkSize(size, expectedSize);
      return { size, etag: (await client.completeMultipartUpload(bucket, key, uploadId, uploaded)).etag };
    } catch (err) {
      // Stop reading the source (destroys it), and abort: unaborted uploads keep their parts, and their
      // storage bill, forever on most S3 servers.
      // The source's own failure, if any, is `err` already.
      await parts.return(undefined).catch(() => undefined);
      await client
        .abortMultipartUpload(bucket, key, uploadId)
        .catch((abortErr: unknown) =>
          opts.logger?.warn(
            { err: abortErr, bucket, key, uploadId },
            'multipart upload not aborted: its parts stay stored until the bucket expires them',
          ),
        );
      throw err;
    }
  }

  async function stat(key: string): Promise<StoredObjectInfo | null> {
    assertValidKey(key);
    const client = await s3();
    try {
      const st = await client.statObject(bucket, key);
      const contentType = st.metaData['content-type'];
      return {
        key,
        size: st.size,
        contentType: typeof contentType === 'string' ? contentType : '',
        etag: st.etag,
        lastModified: st.lastModified,
      };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  return {
    driver: 's3',

    async init() {
      const client = await s3();
      if (await client.bucketExists(bucket)) return;
      try {
        await client.makeBucket(bucket);
      } catch (err) {
        // Another instance starting at the same time may have won the race. AWS answers that with
        // BucketAlreadyOwnedByYou, MinIO and s3rver with BucketAlreadyExists, which on AWS can also mean a
        // stranger owns the name, hence the second look.
        const raced = errCode(err) === 'BucketAlreadyOwnedByYou' || errCode(err) === 'BucketAlreadyExists';
        if (!raced || !(await client.bucketExists(bucket))) throw err;
      }
    },

    async put(key, body, { contentType, size }) {
      assertValidKey(key);
      const stored = await upload(key, Buffer.isBuffer(body) ? [body] : body, contentType, size);
      return { key, contentType, ...stored };
    },

    async get(key: string, range?: ByteRange): Promise<GetResult | null> {
      assertValidKey(key);
      if (range) assertValidRange(range);
      const client = await s3();
      let res: Readable;
      try {
        res = range
          ? await client.getPartialObject(bucket, key, range.start, range.end === undefined ? 0 : range.end - range.start + 1)
          : await client.getObject(bucket, key);
      } catch (err) {
        if (isNotFound(err)) return null;
        if (errCode(err) === 'InvalidRange') {
          const st = await stat(key);
          if (st) throw new RangeNotSatisfiableError(st.size);
          return null;
        }
        throw err;
      }
      // minio resolves with the raw http.IncomingMessage; its headers describe exactly the bytes in this body,
      // which a separate stat could not guarantee under concurrent overwrites.
      const headers = (res as Readable & { headers?: IncomingHttpHeaders }).headers ?? {};
      const contentRange = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(headers['content-range'] ?? '');
      const size = Number(contentRange ? contentRange[3] : headers['content-length']);
      const info: StoredObjectInfo = {
        key,
        size,
        contentType: headers['content-type'] ?? '',
        etag: unquote(headers.etag),
        lastModified: headers['last-modified'] ? new Date(headers['last-modified']) : undefined,
      };
      if (!range) return { info, body: res };
      try {
        // Report the range the server actually sent rather than the one asked for: servers that ignore Range
        // (200) or misread it (s3rver serves everything for bytes=0-0) still get headers matching the body.
        const served = contentRange ? { start: Number(contentRange[1]), end: Number(contentRange[2]) } : resolveRange({ start: 0 }, size);
        return { info, body: res, range: served };
      } catch (err) {
        res.destroy();
        throw err;
      }
    },

    stat,

    async delete(key) {
      assertValidKey(key);
      await (await s3()).removeObject(bucket, key);
    },

    async deleteMany(keys) {
      keys.forEach(assertValidKey);
      // An empty <Delete/> is MalformedXML to S3.
      if (keys.length === 0) return;
      const client = await s3();
      // minio would send every 1000-key batch at once; going one batch at a time keeps a big cleanup polite.
      for (let i = 0; i < keys.length; i += DELETE_BATCH) {
        const failures = await client.removeObjects(bucket, keys.slice(i, i + DELETE_BATCH));
        // Typed as { Error: {...} }[] but minio actually returns the bare <Error> elements; accept both shapes.
        const failure = failures.find(Boolean) as { Code?: string; Key?: string; Error?: { Code?: string; Key?: string } } | undefined;
        if (failure) {
          const { Code, Key } = failure.Error ?? failure;
          throw new Error(`S3 deleteMany failed for ${Key ?? 'some key'}: ${Code ?? 'unknown error'}`);
        }
      }
    },

    async deleteFolder(folder) {
      assertValidFolder(folder);
      // A page of keys at a time, so a big folder never sits in memory whole.
      let keys: string[] = [];
      for await (const item of this.list(folder)) {
        keys.push(item.key);
        if (keys.length === DELETE_BATCH) {
          await this.deleteMany(keys);
          keys = [];
        }
      }
      await this.deleteMany(keys);
    },

    async *list(prefix) {
      assertValidPrefix(prefix);
      // minio's stream fetches 1000-key pages on demand, so iterating it keeps memory flat.
      const items: AsyncIterable<BucketItem> = (await s3()).listObjectsV2(bucket, prefix, true);
      for await (const item of items) {
        if (item.name === undefined) continue; // common prefixes; not produced by a recursive listing anyway
        yield { key: item.name, size: item.size, contentType: '', etag: item.etag, lastModified: item.lastModified };
      }
    },

    ping: bucketReachable,
  };
}

/** Re-chunks a body into Buffers of exactly `size` bytes, the last one shorter (never empty). */
async function* cutParts(source: Iterable<Buffer> | AsyncIterable<Buffer | string>, size: number): AsyncGenerator<Buffer, void, undefined> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const chunk of source) {
    pending.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    pendingBytes += pending[pending.length - 1]!.length;
    while (pendingBytes >= size) {
      const all = join(pending, pendingBytes);
      yield all.subarray(0, size);
      pending = [all.subarray(size)];
      pendingBytes -= size;
    }
  }
  if (pendingBytes > 0) yield join(pending, pendingBytes);
}

/** Buffer.concat always copies; a lone chunk (e.g. a whole Buffer body) doesn't need it. */
function join(chunks: Buffer[], bytes: number): Buffer {
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, bytes);
}

function checkSize(actual: number, expected: number | undefined): void {
  if (expected !== undefined && actual !== expected) throw new Error(`Body has ${actual} bytes, expected ${expected}`);
}

function unquote(etag: string | undefined): string | undefined {
  return etag?.replace(/^"|"$/g, '');
}

function errCode(err: unknown): unknown {
  return (err as { code?: unknown } | null)?.code;
}

/** HEAD responses carry no body, so a missing object shows up as 'NotFound' there and 'NoSuchKey' on GET. */
function isNotFound(err: unknown): boolean {
  return errCode(err) === 'NotFound' || errCode(err) === 'NoSuchKey';
}
