/**
 * Uploaded files: the bytes in object storage under `accounts/<accountId>/files/<fileId>`, the
 * metadata in the `files` table. A file is uploaded first (unattached, link_id and attached_at
 * null), then attached by the link whose data names it; files nobody attached within
 * ORPHAN_FILE_TTL_MS are removed by the orphan sweep, and a link's files go with the link.
 *
 * The stored type is always the sniffed one (sniff.ts), never what the client claimed, and an SVG
 * is stored only as its sanitized rebuild (svg.ts).
 */
import { randomUUID } from 'node:crypto';
import { and, eq, inArray, isNull, lt, notInArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { files } from '../../db/schema.js';
import type { Config } from '../config/index.js';
import type { AppContext } from '../context.js';
import { isUuid } from '../format/ids.js';
import { AppError, NotFoundError, ValidationError } from '../http/errors.js';
import { ALLOWED_TYPES_LABEL, sniff, type SniffedType } from './sniff.js';
import { sanitizeSvg } from './svg.js';

/** The database or a transaction on it: the attach/detach functions run inside the link service's transactions. */
export type Executor = Database | Parameters<Parameters<Database['transaction']>[0]>[0];

/** What the file functions need from a process's context (the logger only reports failed clean-ups). */
export type FilesContext = Pick<AppContext, 'db' | 'config' | 'storage'> & Partial<Pick<AppContext, 'logger'>>;

export const UNSUPPORTED_TYPE_MESSAGE = `Unsupported file type; allowed: ${ALLOWED_TYPES_LABEL}`;

/** Rows the orphan sweep and link deletion handle per round trip (storage deleteMany + one DELETE). */
export const FILE_BATCH_SIZE = 500;

export class FileTooLargeError extends AppError {
  constructor() {
    super(413, { message: 'File is too large' });
  }
}

/** A 400 naming the `file` form field. */
export function fileFieldError(message: string): ValidationError {
  return new ValidationError([{ path: 'file', message }]);
}

export interface StoredFile {
  fileId: string;
  url: string;
  contentType: SniffedType;
  size: number;
}

export interface AccountFile {
  id: string;
  contentType: string;
  size: number;
  linkId: string | null;
  storageKey: string;
  originalName: string | null;
}

/** A Readable, or anything async-iterable that yields the bytes; destroyed when it runs past the limit. */
export type UploadStream = AsyncIterable<Buffer | string> & { destroy?: (err?: Error) => void };

export type UploadInput = ({ buffer: Buffer } | { stream: UploadStream }) & {
  /** The client's file name, kept for display only (never used to decide the type). */
  originalName?: string | null;
};

const uuids = (ids: readonly unknown[]): string[] => [...new Set(ids.filter(isUuid).map((id) => id.toLowerCase()))];

export function fileStorageKey(accountId: string, fileId: string): string {
  return `accounts/${accountId}/files/${fileId}`;
}

/** Where scanners fetch a file: served by the redirect process. */
export function fileUrl(config: Pick<Config, 'SHORT_URL_BASE'>, fileId: string): string {
  return `${config.SHORT_URL_BASE.replace(/\/+$/, '')}/files/${fileId}`;
}

/**
 * Stores one upload for an account as a new unattached file. Throws a 413 FileTooLargeError past
 * FILE_SIZE_LIMIT_BYTES and a 400 on `file` for an empty file, a type we don't accept, or an SVG
 * that can't be sanitized; in those cases nothing is stored. If the row can't be written, the
 * object is removed again.
 */
export async function storeUpload(ctx: FilesContext, accountId: string, input: UploadInput): Promise<StoredFile> {
  const limit = ctx.config.FILE_SIZE_LIMIT_BYTES;
  const raw = 'buffer' in input ? input.buffer : await readAtMost(input.stream, limit);
  if (raw.length > limit) throw new FileTooLargeError();
  if (raw.length === 0) throw fileFieldError('File is empty');
  const { contentType, body } = await prepareContent(raw);

  const fileId = randomUUID();
  const storageKey = fileStorageKey(accountId, fileId);
  await ctx.storage.put(storageKey, body, { contentType, size: body.length });
  try {
    await ctx.db.insert(files).values({
      id: fileId,
      accountId,
      storageKey,
      contentType,
      size: body.length,
      originalName: cleanName(input.originalName),
    });
  } catch (err) {
    await removeObjects(ctx, [storageKey]);
    throw err;
  }
  return { fileId, url: fileUrl(ctx.config, fileId), contentType, size: body.length };
}

/** The bytes to store and their type, decided from the content alone. */
async function prepareContent(raw: Buffer): Promise<{ contentType: SniffedType; body: Buffer }> {
  const sniffed = sniff(raw);
  if (!sniffed) throw fileFieldError(UNSUPPORTED_TYPE_MESSAGE);
  if (sniffed.contentType !== 'image/svg+xml') return { contentType: sniffed.contentType, body: raw };
  const result = await sanitizeSvg(sniffed.text);
  if ('error' in result) throw fileFieldError(result.error);
  return { contentType: 'image/svg+xml', body: Buffer.from(result.svg, 'utf8') };
}

async function readAtMost(stream: UploadStream, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buf.length;
    if (size > limit) {
      stream.destroy?.();
      throw new FileTooLargeError();
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks, size);
}

/** A display name: no control characters or path, at most 255 characters; null when nothing is left. */
function cleanName(name: string | null | undefined): string | null {
  if (typeof name !== 'string') return null;
  const base = name.replace(/[\u0000-\u001f\u007f]/g, '').split(/[\\/]/).pop()!.trim();
  return base ? [...base].slice(0, 255).join('') : null;
}

/**
 * The account's files among `ids` (ids that are not UUIDs, or are another account's, are simply
 * absent from the answer). The link service checks types and ownership with this before attaching.
 */
export async function findAccountFiles(db: Executor, accountId: string, ids: readonly string[]): Promise<AccountFile[]> {
  const wanted = uuids(ids);
  if (wanted.length === 0) return [];
  return db
    .select({
      id: files.id,
      contentType: files.contentType,
      size: files.size,
      linkId: files.linkId,
      storageKey: files.storageKey,
      originalName: files.originalName,
    })
    .from(files)
    .where(and(eq(files.accountId, accountId), inArray(files.id, wanted)));
}

/**
 * Marks the account's files among `ids` as used by the link (link_id, attached_at = now), so the
 * orphan sweep leaves them alone. Returns how many rows were attached: fewer than the distinct
 * valid ids means some no longer exist (e.g. swept in the meantime) and the caller should fail.
 */
export async function attachFiles(db: Executor, accountId: string, linkId: string, ids: readonly string[]): Promise<number> {
  const wanted = uuids(ids);
  if (wanted.length === 0) return 0;
  const rows = await db
    .update(files)
    .set({ linkId, attachedAt: sql`now()` })
    .where(and(eq(files.accountId, accountId), inArray(files.id, wanted)))
    .returning({ id: files.id });
  return rows.length;
}

/**
 * The link's files that are not in `keepIds` are no longer its: they become unattached (link_id
 * and attached_at null), and the orphan sweep deletes them once they are older than the TTL.
 * Returns how many were detached.
 */
export async function detachFilesNotIn(db: Executor, linkId: string, keepIds: readonly string[]): Promise<number> {
  const keep = uuids(keepIds);
  const rows = await db
    .update(files)
    .set({ linkId: null, attachedAt: null })
    .where(keep.length > 0 ? and(eq(files.linkId, linkId), notInArray(files.id, keep)) : eq(files.linkId, linkId))
    .returning({ id: files.id });
  return rows.length;
}

/**
 * Deletes the link's files, objects first and then rows (a failed object delete leaves its row, so
 * nothing is left without a record). Call it BEFORE deleting the link row: the foreign key sets
 * link_id to null when the link goes, after which the files can no longer be found by link.
 * Returns how many files were deleted.
 */
export async function deleteFilesOfLink(ctx: FilesContext, linkId: string): Promise<number> {
  let deleted = 0;
  for (;;) {
    const rows = await ctx.db
      .select({ id: files.id, storageKey: files.storageKey })
      .from(files)
      .where(eq(files.linkId, linkId))
      .limit(FILE_BATCH_SIZE);
    if (rows.length === 0) return deleted;
    await ctx.storage.deleteMany(rows.map((r) => r.storageKey));
    await ctx.db.delete(files).where(inArray(files.id, rows.map((r) => r.id)));
    deleted += rows.length;
    if (rows.length < FILE_BATCH_SIZE) return deleted;
  }
}

/**
 * A copy of one of the account's files as a new, unattached file (new object, new row, same type,
 * size and name); used when a link is duplicated, so each link owns its media. 404 when the file is
 * not the account's or its object is gone.
 */
export async function copyFile(ctx: FilesContext, accountId: string, fileId: string): Promise<string> {
  const [source] = await findAccountFiles(ctx.db, accountId, [fileId]);
  if (!source) throw new NotFoundError('File');
  const object = await ctx.storage.get(source.storageKey);
  if (!object) throw new NotFoundError('File');
  const newId = randomUUID();
  const storageKey = fileStorageKey(accountId, newId);
  // put() consumes (and on failure destroys) the body stream.
  await ctx.storage.put(storageKey, object.body, { contentType: source.contentType, size: object.info.size });
  try {
    await ctx.db.insert(files).values({
      id: newId,
      accountId,
      storageKey,
      contentType: source.contentType,
      size: object.info.size,
      originalName: source.originalName,
    });
  } catch (err) {
    await removeObjects(ctx, [storageKey]);
    throw err;
  }
  return newId;
}

/**
 * Deletes files no link has attached (attached_at and link_id null) that were created before
 * `olderThan`: storage objects first, then rows, in batches. Each batch runs in a transaction
 * holding row locks (FOR UPDATE SKIP LOCKED), so two sweeps never fight over the same rows and a
 * link attaching one of them at that moment either wins (the row no longer qualifies) or finds it
 * gone (attachFiles reports fewer rows). Objects already missing are fine. Returns how many files
 * were deleted.
 */
export async function sweepOrphanFiles(ctx: FilesContext, olderThan: Date, batchSize = FILE_BATCH_SIZE): Promise<number> {
  let deleted = 0;
  for (;;) {
    const n = await ctx.db.transaction(async (tx) => {
      const rows = await tx
        .select({ id: files.id, storageKey: files.storageKey })
        .from(files)
        .where(and(isNull(files.attachedAt), isNull(files.linkId), lt(files.createdAt, olderThan)))
        .orderBy(files.createdAt)
        .limit(batchSize)
        .for('update', { skipLocked: true });
      if (rows.length === 0) return 0;
      await ctx.storage.deleteMany(rows.map((r) => r.storageKey));
      await tx.delete(files).where(inArray(files.id, rows.map((r) => r.id)));
      return rows.length;
    });
    deleted += n;
    if (n < batchSize) return deleted;
  }
}

async function removeObjects(ctx: FilesContext, keys: string[]): Promise<void> {
  try {
    await ctx.storage.deleteMany(keys);
  } catch (err) {
    // The original error matters more; an object left behind here has no row and is only wasted space.
    ctx.logger?.warn({ err, keys }, 'could not remove stored object after a failed insert');
  }
}
