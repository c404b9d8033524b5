import type { Readable } from 'node:stream';

export interface StoredObjectInfo {
  key: string;
  /** Size of the whole object in bytes (also for ranged gets). */
  size: number;
  /**
   * MIME type given at put(). Always '' in entries yielded by list(): S3 listings do not carry it and
   * fetching it would cost one request per key, which cleanup jobs walking millions of keys don't need.
   */
  contentType: string;
  /** Opaque validator suitable for an HTTP ETag (without quotes); changes whenever the content does. */
  etag?: string;
  lastModified?: Date;
}

export interface ByteRange {
  start: number;
  /** Inclusive; omitted means "to the end". Values past the last byte are clamped, as in HTTP. */
  end?: number;
}

export interface GetResult {
  info: StoredObjectInfo;
  /** Consume or destroy it: until then it holds a file handle or an HTTP connection. */
  body: Readable;
  /** The inclusive byte range actually served (after clamping); present only when a range was asked for. */
  range?: { start: number; end: number };
}

export interface ObjectStorage {
  readonly driver: 'fs' | 's3';
  /** Ensure the backing store exists (create folder / bucket). Idempotent. */
  init(): Promise<void>;
  /**
   * Store an object, replacing any previous one; readers never see a partial write.
   * `size`, when given, is the exact byte count expected: a body of any other length is rejected and nothing
   * is stored, so a truncated upload can't silently become a truncated object.
   */
  put(key: string, body: Buffer | NodeJS.ReadableStream, opts: { contentType: string; size?: number }): Promise<StoredObjectInfo>;
  /**
   * Resolves null when the object does not exist. range is inclusive byte range like HTTP Range.
   * Throws RangeNotSatisfiableError when the range starts past the end of the object (HTTP 416).
   */
  get(key: string, range?: ByteRange): Promise<GetResult | null>;
  stat(key: string): Promise<StoredObjectInfo | null>;
  /** Deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
  deleteMany(keys: string[]): Promise<void>;
  /**
   * Deletes every object under `folder` (a prefix ending in '/', e.g. a job's folder). The fs driver
   * also removes what interrupted puts left there (temporary files); on S3, unfinished multipart
   * uploads are the server's to expire (docs/decisions/0070-job-retention.md).
   */
  deleteFolder(folder: string): Promise<void>;
  /**
   * Objects whose key starts with `prefix` (a plain string prefix as in S3, so 'a' matches 'a/x' and 'ab').
   * Async iterator so huge listings stay in flat memory. Order is unspecified (the fs driver yields in
   * directory order). contentType is '' here, see StoredObjectInfo.
   */
  list(prefix: string): AsyncIterable<StoredObjectInfo>;
  /** Quick reachability check for /ready: never throws, resolves false on any failure or timeout. */
  ping(): Promise<boolean>;
}

/** The requested range starts beyond the object's last byte; `size` lets an HTTP layer send `Content-Range: bytes *\/size`. */
export class RangeNotSatisfiableError extends Error {
  readonly code = 'RangeNotSatisfiable';
  constructor(readonly size: number) {
    super(`Range not satisfiable for object of ${size} bytes`);
  }
}
