import { randomBytes } from 'node:crypto';
import type { BigIntStats, Dir } from 'node:fs';
import { constants } from 'node:fs';
import { access, mkdir, open, opendir, readFile, rename, rm, rmdir, stat, unlink, writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { assertValidFolder, assertValidKey, assertValidPrefix, isValidSegment } from './keys.js';
import { assertValidRange, resolveRange } from './range.js';
import type { ByteRange, GetResult, ObjectStorage, StoredObjectInfo } from './types.js';

export interface FsStorageOptions {
  root: string;
}

// Names containing '@' can never be keys (see keys.ts), so sidecars and temp files neither collide with
// objects nor show up in list().
const META_SUFFIX = '@meta.json';
const TMP_MARK = '@tmp-';
const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

/**
 * Objects live at `<root>/<key>` so an operator can browse and back them up as plain files; the content type
 * sits next to each one in `<key>@meta.json`.
 *
 * Limitation inherent to a directory tree: 'a' and 'a/b' cannot both exist (S3 allows it); such a put fails
 * with the fs error (ENOTDIR / EISDIR / EEXIST) instead of corrupting anything.
 */
export function createFsStorage({ root }: FsStorageOptions): ObjectStorage {
  const base = path.resolve(root);
  // Safe only because every caller validated the key first: segments can't be '..' or absolute.
  const fileOf = (key: string) => path.join(base, ...key.split('/'));
  const metaOf = (file: string) => file + META_SUFFIX;

  async function contentTypeOf(file: string): Promise<string> {
    try {
      const meta = JSON.parse(await readFile(metaOf(file), 'utf8')) as { contentType?: unknown };
      return typeof meta.contentType === 'string' ? meta.contentType : DEFAULT_CONTENT_TYPE;
    } catch (err) {
      // A file copied in by hand (or a crash between the two renames of put) has no sidecar; still serve it.
      if (isMissing(err)) return DEFAULT_CONTENT_TYPE;
      throw err;
    }
  }

  /** Removes now-empty parent folders so cleanup jobs don't leave a skeleton tree behind. */
  async function pruneEmptyDirs(dir: string): Promise<void> {
    for (; dir.length > base.length; dir = path.dirname(dir)) {
      try {
        await rmdir(dir);
      } catch {
        return; // not empty (the usual case), or already gone
      }
    }
  }

  /** Opens a fresh temp file, recreating the folder if a concurrent delete pruned it after our mkdir. */
  async function createTemp(file: string): Promise<{ tmp: string; fh: FileHandle }> {
    for (let attempt = 0; ; attempt++) {
      await mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}${TMP_MARK}${randomBytes(4).toString('hex')}`;
      try {
        return { tmp, fh: await open(tmp, 'wx') };
      } catch (err) {
        if (errCode(err) !== 'ENOENT' || attempt >= 3) throw err;
      }
    }
  }

  return {
    driver: 'fs',

    async init() {
      await mkdir(base, { recursive: true });
    },

    async put(key, body, { contentType, size }) {
      assertValidKey(key);
      const file = fileOf(key);
      const { tmp, fh } = await createTemp(file);
      const metaTmp = `${tmp}${META_SUFFIX}`;
      try {
        let written = 0;
        let st: BigIntStats;
        try {
          // for-await destroys a stream source if writing fails, so an aborted put never leaves it dangling.
          for await (const chunk of Buffer.isBuffer(body) ? [body] : body) {
            const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
            for (let off = 0; off < buf.length;) off += (await fh.write(buf, off)).bytesWritten;
            written += buf.length;
          }
          if (size !== undefined && written !== size) throw new Error(`Body has ${written} bytes, expected ${size}`);
          // Without the fsync a power cut after the rename can leave an empty file under the real name.
          await fh.sync();
          st = await fh.stat({ bigint: true });
        } finally {
          await fh.close();
        }
        await writeFile(metaTmp, JSON.stringify({ contentType }), { flag: 'wx' });
        // Two renames can't be one atomic step. Metadata goes first so a new object appears only at the data
        // rename (a crash in between leaves a sidecar without data, which everything ignores); on overwrite
        // the cost is a brief window where the old bytes carry the new content type.
        await rename(metaTmp, metaOf(file));
        await rename(tmp, file);
        return infoOf(key, st, contentType);
      } catch (err) {
        await Promise.all([rm(tmp, { force: true }), rm(metaTmp, { force: true })]);
        throw err;
      }
    },

    async get(key: string, range?: ByteRange): Promise<GetResult | null> {
      assertValidKey(key);
      if (range) assertValidRange(range);
      const file = fileOf(key);
      let fh: FileHandle;
      try {
        fh = await open(file, 'r');
      } catch (err) {
        if (isMissing(err) || errCode(err) === 'EISDIR') return null;
        throw err;
      }
      // Everything below reads through the open handle, so a concurrent overwrite (a rename to a new inode)
      // can't mix old size/etag with new bytes.
      try {
        const st = await fh.stat({ bigint: true });
        if (st.isFile()) {
          const info = infoOf(key, st, await contentTypeOf(file));
          const served = range ? resolveRange(range, info.size) : undefined;
          // autoClose (the default) hands the handle's lifetime to the stream.
          return { info, body: fh.createReadStream(served ?? {}), ...(served && { range: served }) };
        }
      } catch (err) {
        await fh.close();
        throw err;
      }
      await fh.close();
      return null; // 'a' is a folder because 'a/b' exists: there is no object 'a'
    },

    async stat(key) {
      assertValidKey(key);
      const file = fileOf(key);
      try {
        const st = await stat(file, { bigint: true });
        return st.isFile() ? infoOf(key, st, await contentTypeOf(file)) : null;
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },

    async delete(key) {
      assertValidKey(key);
      await removeObject(fileOf(key));
    },

    async deleteMany(keys) {
      // Validate everything up front so a bad key in the batch deletes nothing.
      keys.forEach(assertValidKey);
      for (const key of keys) await removeObject(fileOf(key));
    },

    async deleteFolder(folder) {
      assertValidFolder(folder);
      // The folder itself, temporary files of interrupted puts and sidecars included.
      const dir = fileOf(folder.slice(0, -1));
      await rm(dir, { recursive: true, force: true });
      await pruneEmptyDirs(path.dirname(dir));
    },

    async *list(prefix) {
      assertValidPrefix(prefix);
      // Start at the deepest folder the prefix fully names; only its first level still needs filtering.
      const cut = prefix.lastIndexOf('/');
      yield* walk(cut === -1 ? '' : prefix.slice(0, cut), prefix);
    },

    async ping() {
      try {
        await access(base, constants.R_OK | constants.W_OK);
        return (await stat(base)).isDirectory();
      } catch {
        return false;
      }
    },
  };

  async function removeObject(file: string): Promise<void> {
    // Data first: the object is gone at that instant; a leftover sidecar is harmless.
    await unlinkIfPresent(file);
    await unlinkIfPresent(metaOf(file));
    await pruneEmptyDirs(path.dirname(file));
  }

  /** Lazy depth-first walk: one open directory handle per level, never a full listing in memory. */
  async function* walk(dirKey: string, prefix: string): AsyncGenerator<StoredObjectInfo> {
    let dir: Dir;
    try {
      dir = await opendir(dirKey ? fileOf(dirKey) : base);
    } catch (err) {
      if (isMissing(err)) return;
      throw err;
    }
    for await (const entry of dir) {
      if (!isValidSegment(entry.name)) continue; // sidecars, temp files, anything not made by us
      const key = dirKey ? `${dirKey}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (`${key}/`.startsWith(prefix)) yield* walk(key, prefix);
      } else if (entry.isFile() && key.startsWith(prefix)) {
        // The entry may vanish between readdir and stat (cleanup running concurrently): skip it.
        const st = await stat(fileOf(key), { bigint: true }).catch((err: unknown) => {
          if (isMissing(err)) return null;
          throw err;
        });
        if (st) yield infoOf(key, st, '');
      }
    }
  }
}

function infoOf(key: string, st: BigIntStats, contentType: string): StoredObjectInfo {
  return {
    key,
    size: Number(st.size),
    contentType,
    // Every put writes a new inode with a new mtime, so this changes with the content without hashing it.
    etag: `${st.ino.toString(16)}-${st.mtimeNs.toString(16)}-${st.size.toString(16)}`,
    lastModified: new Date(Number(st.mtimeMs)),
  };
}

async function unlinkIfPresent(file: string): Promise<void> {
  try {
    await unlink(file);
  } catch (err) {
    // EISDIR: the name is a folder (keys below it exist), so there is no object by that name to delete.
    if (!isMissing(err) && errCode(err) !== 'EISDIR') throw err;
  }
}

function errCode(err: unknown): unknown {
  return (err as { code?: unknown } | null)?.code;
}

/** ENOTDIR counts as missing: looking up 'a/b' when 'a' is a file. */
function isMissing(err: unknown): boolean {
  const code = errCode(err);
  return code === 'ENOENT' || code === 'ENOTDIR';
}
