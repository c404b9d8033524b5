/** Uploaded files: the stored bytes (blobs) and the references to them clients know. */
import type { ImageVariant } from './image-variants.js';
import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { id, createdAt, tstz } from '../columns.js';
import { accountId } from '../accounts/tables.js';
import { links } from '../links/tables.js';

/**
 * Stored bytes, once per account and content: every file of the account with the same bytes
 * (uploaded twice, or made by duplicating a link) points here. `ref_count` is the number of
 * `files` rows that do, kept in the same transactions that add and remove them; the object and
 * this row are deleted when it reaches 0. Blobs are per account, so no account can learn whether
 * another stored a file. The storage quota counts these sizes.
 */
export const fileBlobs = pgTable(
  'file_blobs',
  {
    id: id(),
    accountId: accountId(),
    /** SHA-256 (hex) of the stored bytes; null for files stored before content addressing (never matched). */
    sha256: text('sha256'),
    storageKey: text('storage_key').notNull(),
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    refCount: integer('ref_count').notNull(),
    /** Web-sized copies of a photo, stored beside it (domain/files/image-variants.ts); null: none. */
    variants: jsonb('variants').$type<ImageVariant[]>(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('file_blobs_account_sha256_idx').on(t.accountId, t.sha256),
    uniqueIndex('file_blobs_storage_key_idx').on(t.storageKey),
    check('file_blobs_ref_count_check', sql`${t.refCount} >= 0`),
  ],
);

/** A file as clients know it (its id is the `fileId` in link data): one reference to a blob. */
export const files = pgTable(
  'files',
  {
    id: id(),
    accountId: accountId(),
    /** The link whose data names this file; null until attached (orphans are swept). */
    linkId: uuid('link_id').references(() => links.id, { onDelete: 'set null' }),
    attachedAt: tstz('attached_at'),
    /** The bytes; a blob is deleted only once no file points to it. */
    blobId: uuid('blob_id')
      .notNull()
      .references(() => fileBlobs.id),
    /** The blob's type and size, copied: both are immutable, and lists read them without a join. */
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    originalName: text('original_name'),
    createdAt: createdAt(),
  },
  (t) => [
    index('files_account_idx').on(t.accountId, t.createdAt.desc()),
    index('files_link_idx').on(t.linkId),
    index('files_blob_idx').on(t.blobId),
    index('files_orphan_idx')
      .on(t.createdAt)
      .where(sql`${t.attachedAt} is null`),
  ],
);
