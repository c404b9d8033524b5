/**
 * Uploaded files. A file (a `files` row; its id is the `fileId` link data names) is one reference
 * to a blob (`file_blobs`): bytes in object storage under `accounts/<accountId>/files/<blobId>`,
 * stored once per account and content (SHA-256 of the stored bytes). Uploading bytes the account
 * already stores, or duplicating a link, makes a new file pointing to the same blob; no byte is
 * copied. A blob's ref_count is the number of its files, changed in the same transaction that
 * adds or removes them; the last file's removal deletes the blob row and its object.
 *
 * A file is uploaded first (unattached, link_id and attached_at null), then attached by the link
 * whose data names it (a file serves one link; another link of the account naming it gets a new
 * file on the same blob, see attachFiles), or kept without a link when QR options name it as their centre image
 * (keepFiles); files nobody attached or kept within ORPHAN_FILE_TTL_MS are removed by the orphan sweep, and a
 * link's files go with the link (their bytes stay while another file shares them).
 *
 * The stored type is always the sniffed one (sniff.ts), never what the client claimed, and an SVG
 * is stored only as its sanitized rebuild (svg.ts).
 *
 * Concurrency: locks are taken in one order everywhere (the account row, then files rows by id,
 * then blob rows by id), so concurrent uploads, duplications and deletions wait for each other
 * instead of deadlocking; a blob's object is deleted only under its row lock with ref_count 0, and
 * a new blob always gets a new key, so an upload racing the deletion of the same bytes stores them
 * again under a key of its own.
 */
import { createHash, randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNull, lt, notInArray, sql, type SQL } from 'drizzle-orm';
import type { Database, Executor } from '../database.js';
import { fileBlobs, files } from '../schema.js';
import type { Config } from '#platform/config/index.js';
import type { DomainContext } from '../context.js';
import { isUuid } from '#platform/format/ids.js';
import { firstCodePoints } from '#platform/format/text.js';
import { AppError, NotFoundError, ValidationError } from '../errors.js';
import { makeImageVariants, variantStorageKey, type ImageVariant } from './image-variants.js';
import { assertStorageFits, lockAccountStorage } from './quota.js';
import { ALLOWED_TYPES_LABEL, sniff, type SniffedType } from './sniff.js';
import { sanitizeSvg } from './svg-sanitize.js';

/** The database or a transaction on it: the attach/detach functions run inside the link service's transactions. */
/** What the file functions need from a process's context (the logger only reports failed clean-ups). */
export type FilesContext = Pick<DomainContext, 'db' | 'config' | 'storage'> & Partial<Pick<DomainContext, 'logger'>>;

export const UNSUPPORTED_TYPE_MESSAGE = `Unsupported file type; allowed: ${ALLOWED_TYPES_LABEL}`;

/** Rows the orphan sweep and link deletion handle per round trip (storage deleteMany + one DELETE). */
export const FILE_BATCH_SIZE = 500;

export class FileTooLargeError extends AppError {
  constructor() {
    super('file_too_large', { message: 'File is too large' });
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

/** Where a blob's bytes are; a blob id is never reused, so neither is its key. */
export function blobStorageKey(accountId: string, blobId: string): string {
  return `accounts/${accountId}/files/${blobId}`;
}

/** Where scanners fetch a file: served by the redirect process. */
export function fileUrl(config: Pick<Config, 'SHORT_URL_BASE'>, fileId: string): string {
  return `${config.SHORT_URL_BASE.replace(/\/+$/, '')}/files/${fileId}`;
}

/**
 * Stores one upload for an account as a new unattached file. Throws a 413 FileTooLargeError past
 * FILE_SIZE_LIMIT_BYTES, a 413 StorageQuotaExceededError when new bytes do not fit the plan's
 * quota, and a 400 on `file` for an empty file, a type we don't accept, or an SVG that can't be
 * sanitized; in those cases nothing is stored. Bytes the account already stores are not stored
 * again (and use no quota): the new file shares their blob.
 */
export async function storeUpload(ctx: FilesContext, accountId: string, input: UploadInput): Promise<StoredFile> {
  const limit = ctx.config.FILE_SIZE_LIMIT_BYTES;
  const raw = 'buffer' in input ? input.buffer : await readAtMost(input.stream, limit);
  if (raw.length > limit) throw new FileTooLargeError();
  if (raw.length === 0) throw fileFieldError('File is empty');
  const { contentType, body } = await prepareContent(raw);
  const sha256 = createHash('sha256').update(body).digest('hex');
  const file: NewFile = { accountId, contentType, size: body.length, originalName: cleanName(input.originalName) };
  const answer = (fileId: string): StoredFile => ({ fileId, url: fileUrl(ctx.config, fileId), contentType, size: body.length });

  const known = await ctx.db.transaction((tx) => addFileToKnownBlob(tx, file, sha256));
  if (known) return answer(known);

  // New bytes. Refused before a byte is written when they cannot fit; checked again, under the
  // account's lock, when they are recorded, since a concurrent upload may have used the space.
  await assertStorageFits(ctx.db, accountId, body.length);
  const blobId = randomUUID();
  const storageKey = blobStorageKey(accountId, blobId);
  const made = await makeImageVariants(accountId, body, contentType, ctx.logger);
  const variants: ImageVariant[] = made.map(({ bytes: _bytes, ...variant }) => variant);
  const keys = [storageKey, ...variants.map((v) => variantStorageKey(storageKey, v))];
  try {
    await Promise.all([
      ctx.storage.put(storageKey, body, { contentType, size: body.length }),
      ...made.map((v) => ctx.storage.put(variantStorageKey(storageKey, v), v.bytes, { contentType: `image/${v.format}`, size: v.size })),
    ]);
  } catch (err) {
    await removeObjects(ctx, keys);
    throw err;
  }
  let recorded: { fileId: string; sharedBlob: boolean };
  try {
    recorded = await ctx.db.transaction(async (tx) => {
      const plan = await lockAccountStorage(tx, accountId);
      // An upload of the same bytes may have recorded them while ours were being written (new
      // blobs are only inserted under this lock, so none can appear after this look).
      const raced = await addFileToKnownBlob(tx, file, sha256);
      if (raced) return { fileId: raced, sharedBlob: true };
      await assertStorageFits(tx, accountId, body.length, plan);
      await tx.insert(fileBlobs).values({
        id: blobId,
        accountId,
        sha256,
        storageKey,
        contentType,
        size: body.length,
        refCount: 1,
        variants: variants.length > 0 ? variants : null,
      });
      const [row] = await tx
        .insert(files)
        .values({ ...file, blobId })
        .returning({ id: files.id });
      return { fileId: row!.id, sharedBlob: false };
    });
  } catch (err) {
    await removeObjects(ctx, keys);
    throw err;
  }
  if (recorded.sharedBlob) await removeObjects(ctx, keys);
  return answer(recorded.fileId);
}

type NewFile = Pick<typeof files.$inferInsert, 'accountId' | 'contentType' | 'size' | 'originalName'>;

/**
 * When the account already stores these bytes: one more reference to their blob (its row locked
 * by the increment, so a deletion of its last file waits, or has already removed it and this
 * finds nothing) and a new file on it. Returns the new file's id, or null.
 */
async function addFileToKnownBlob(tx: Executor, file: NewFile, sha256: string): Promise<string | null> {
  const [blob] = await tx
    .update(fileBlobs)
    .set({ refCount: sql`${fileBlobs.refCount} + 1` })
    .where(and(eq(fileBlobs.accountId, file.accountId), eq(fileBlobs.sha256, sha256)))
    .returning({ id: fileBlobs.id });
  if (!blob) return null;
  const [row] = await tx
    .insert(files)
    .values({ ...file, blobId: blob.id })
    .returning({ id: files.id });
  return row!.id;
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
  const base = name
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .split(/[\\/]/)
    .pop()!
    .trim();
  return base ? firstCodePoints(base, 255) : null;
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
      storageKey: fileBlobs.storageKey,
      originalName: files.originalName,
    })
    .from(files)
    .innerJoin(fileBlobs, eq(fileBlobs.id, files.blobId))
    .where(and(eq(files.accountId, accountId), inArray(files.id, wanted)));
}

/**
 * Attaches the account's files among `ids` to the link (link_id, attached_at = now), so the orphan
 * sweep leaves them alone. A file another link of the account already has stays that link's: this
 * link gets a new file on the same blob (one more reference: no byte stored, no quota used), so
 * several links can use one upload and deleting one never takes the others' media. Ids that are
 * not the account's files (another account's, deleted, not UUIDs) are skipped. The rows are locked
 * first (FOR UPDATE, in id order), so two links attaching one unattached file at once get it and a
 * new file respectively, never both the same row. Returns named id (lower case) → the id of the
 * file the link now has: the caller puts a changed one in the link's data.
 */
export async function attachFiles(db: Executor, accountId: string, linkId: string, ids: readonly string[]): Promise<Map<string, string>> {
  const wanted = uuids(ids);
  const attached = new Map<string, string>();
  if (wanted.length === 0) return attached;
  const rows = await db
    .select({ id: files.id, linkId: files.linkId })
    .from(files)
    .where(and(eq(files.accountId, accountId), inArray(files.id, wanted)))
    .orderBy(asc(files.id))
    .for('update');
  const free = rows.filter((r) => r.linkId === null || r.linkId === linkId).map((r) => r.id);
  const taken = rows.filter((r) => r.linkId !== null && r.linkId !== linkId).map((r) => r.id);
  for (const id of free) attached.set(id, id);
  const copies = await copyFiles(db, accountId, taken);
  for (const [source, copy] of copies) attached.set(source, copy);
  const ours = [...attached.values()];
  if (ours.length > 0)
    await db
      .update(files)
      .set({ linkId, attachedAt: sql`now()` })
      .where(inArray(files.id, ours));
  return attached;
}

/**
 * Marks the account's unattached files among `ids` as in use without a link (attached_at = now,
 * link_id null), so the orphan sweep leaves them alone: a QR centre image named by its file URL
 * in a link's or template's QR options is used by every later render of that code.
 */
export async function keepFiles(db: Executor, accountId: string, ids: readonly string[]): Promise<void> {
  const wanted = uuids(ids);
  if (wanted.length === 0) return;
  await db
    .update(files)
    .set({ attachedAt: sql`now()` })
    .where(and(eq(files.accountId, accountId), inArray(files.id, wanted), isNull(files.attachedAt)));
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
 * These files of the link are no longer its (an image replaced or removed): unattached, so the
 * orphan sweep deletes them, as with detachFilesNotIn. Returns how many were detached.
 */
export async function detachFiles(db: Executor, linkId: string, ids: readonly (string | null)[]): Promise<number> {
  const wanted = uuids(ids);
  if (wanted.length === 0) return 0;
  const rows = await db
    .update(files)
    .set({ linkId: null, attachedAt: null })
    .where(and(eq(files.linkId, linkId), inArray(files.id, wanted)))
    .returning({ id: files.id });
  return rows.length;
}

/**
 * Deletes the link's files; a blob no other file uses goes too, object and row. Call it BEFORE
 * deleting the link row: the foreign key sets link_id to null when the link goes, after which the
 * files can no longer be found by link. Safe to run twice or concurrently. Returns how many files
 * were deleted.
 */
export async function deleteFilesOfLink(ctx: FilesContext, linkId: string): Promise<number> {
  return deleteInBatches(ctx, FILE_BATCH_SIZE, (tx, limit) =>
    tx.select({ id: files.id }).from(files).where(eq(files.linkId, linkId)).orderBy(asc(files.id)).limit(limit).for('update'),
  );
}

/**
 * New unattached files of the account with the same bytes, type and name as `ids` (one more
 * reference to each blob; nothing is stored), inside the caller's transaction; used when a link is
 * duplicated, so each link has files of its own and deleting either never takes the other's
 * media. Returns source id → new id. 404 when a file is not the account's (or was just deleted).
 */
export async function copyFiles(tx: Executor, accountId: string, ids: readonly string[]): Promise<Map<string, string>> {
  const wanted = uuids(ids);
  const copies = new Map<string, string>();
  if (wanted.length === 0) return copies;
  // FOR SHARE: a concurrent deletion of a source waits for this transaction, so its blob is still there.
  const sources = await tx
    .select({ id: files.id, blobId: files.blobId, contentType: files.contentType, size: files.size, originalName: files.originalName })
    .from(files)
    .where(and(eq(files.accountId, accountId), inArray(files.id, wanted)))
    .orderBy(asc(files.id))
    .for('share');
  if (sources.length < wanted.length) throw new NotFoundError('File');
  await changeRefCounts(tx, countBy(sources.map((s) => s.blobId)), +1);
  for (const source of sources) copies.set(source.id, randomUUID());
  await tx.insert(files).values(sources.map((source) => ({ ...source, id: copies.get(source.id)!, accountId })));
  return copies;
}

/**
 * Deletes files no link has attached (attached_at and link_id null) that were created before
 * `olderThan`, and the blobs no other file uses, in batches. Each batch runs in a transaction
 * holding row locks (FOR UPDATE SKIP LOCKED), so two sweeps never fight over the same rows and a
 * link attaching one of them at that moment either wins (the row no longer qualifies) or finds it
 * gone (attachFiles reports fewer rows). Objects already missing are fine. Returns how many files
 * were deleted.
 */
export async function sweepOrphanFiles(ctx: FilesContext, olderThan: Date, batchSize = FILE_BATCH_SIZE): Promise<number> {
  return deleteInBatches(ctx, batchSize, (tx, limit) =>
    tx
      .select({ id: files.id })
      .from(files)
      .where(and(isNull(files.attachedAt), isNull(files.linkId), lt(files.createdAt, olderThan)))
      .orderBy(files.createdAt)
      .limit(limit)
      .for('update', { skipLocked: true }),
  );
}

/**
 * Deletes files batch by batch, each batch in a transaction of its own: `lockBatch` selects and
 * locks at most `batchSize` file ids, deleteLockedFiles deletes them. A batch shorter than
 * `batchSize` is the last. Returns how many files were deleted.
 */
async function deleteInBatches(
  ctx: FilesContext,
  batchSize: number,
  lockBatch: (tx: Executor, limit: number) => Promise<Array<{ id: string }>>,
): Promise<number> {
  let deleted = 0;
  for (;;) {
    const n = await ctx.db.transaction(async (tx) => {
      const rows = await lockBatch(tx, batchSize);
      return deleteLockedFiles(
        ctx,
        tx,
        rows.map((r) => r.id),
      );
    });
    deleted += n;
    if (n < batchSize) return deleted;
  }
}

/**
 * Deletes file rows the transaction has locked, and drops their references: a blob left with none
 * loses its object (first, under its row lock: a failed storage delete rolls everything back, so
 * no row ever names a missing object because of us) and then its row. Returns how many files.
 */
async function deleteLockedFiles(ctx: FilesContext, tx: Executor, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const gone = await tx.delete(files).where(inArray(files.id, ids)).returning({ blobId: files.blobId });
  const emptied = (await changeRefCounts(tx, countBy(gone.map((g) => g.blobId)), -1)).filter((b) => b.refCount === 0);
  if (emptied.length > 0) {
    await ctx.storage.deleteMany(emptied.flatMap((b) => blobObjectKeys(b)));
    await tx.delete(fileBlobs).where(
      inArray(
        fileBlobs.id,
        emptied.map((b) => b.id),
      ),
    );
  }
  return gone.length;
}

/**
 * Adds `sign` × n to each blob's ref_count (blob id → n), locking the rows in id order first so
 * two transactions changing the same blobs never deadlock. Returns the blobs as they are now.
 */
async function changeRefCounts(tx: Executor, counts: Map<string, number>, sign: 1 | -1) {
  if (counts.size === 0) return [];
  const ids = [...counts.keys()].sort();
  await tx.select({ id: fileBlobs.id }).from(fileBlobs).where(inArray(fileBlobs.id, ids)).orderBy(asc(fileBlobs.id)).for('update');
  const delta: SQL = sql.join(
    [sql`case ${fileBlobs.id}`, ...ids.map((id) => sql`when ${id}::uuid then ${sign * counts.get(id)!}::int`), sql`end`],
    sql` `,
  );
  return tx
    .update(fileBlobs)
    .set({ refCount: sql`${fileBlobs.refCount} + ${delta}` })
    .where(inArray(fileBlobs.id, ids))
    .returning({ id: fileBlobs.id, refCount: fileBlobs.refCount, storageKey: fileBlobs.storageKey, variants: fileBlobs.variants });
}

/** Every object a blob has in storage: its bytes and their web-sized copies. */
export function blobObjectKeys(blob: { storageKey: string; variants: ImageVariant[] | null }): string[] {
  return [blob.storageKey, ...(blob.variants ?? []).map((v) => variantStorageKey(blob.storageKey, v))];
}

function countBy(values: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return counts;
}

async function removeObjects(ctx: FilesContext, keys: string[]): Promise<void> {
  try {
    await ctx.storage.deleteMany(keys);
  } catch (err) {
    // The original error (if any) matters more; an object left behind here has no row and is only wasted space.
    ctx.logger?.warn({ err, keys }, 'could not remove a stored object no row names');
  }
}
