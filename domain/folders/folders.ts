import { and, desc, eq, sql } from 'drizzle-orm';
import { preparedQuery, type Database } from '../database.js';
import { folders } from '../schema.js';
import type { Principal } from '../accounts/api-keys.js';
import { isUuid } from '../../platform/format/ids.js';
import { NotFoundError } from '../errors.js';

export type FolderRow = typeof folders.$inferSelect;

export async function createFolder(db: Database, who: Principal, name: string): Promise<FolderRow> {
  const [row] = await db.insert(folders).values({ accountId: who.accountId, name, createdBy: who.keyId, updatedBy: who.keyId }).returning();
  return row!;
}

/** Newest first; the id breaks ties so the order is stable. */
export async function listFolders(db: Database, accountId: string): Promise<FolderRow[]> {
  return folderList(db).execute({ accountId });
}

const folderList = preparedQuery((db) =>
  db
    .select()
    .from(folders)
    .where(eq(folders.accountId, sql.placeholder('accountId')))
    .orderBy(desc(folders.createdAt), desc(folders.id))
    .prepare('folder_list'),
);

export async function getFolder(db: Database, accountId: string, id: string): Promise<FolderRow> {
  return findFolderRow(db, accountId, id);
}

/** Another account's folder is "not found" exactly like a missing one. */
export async function findFolderRow(db: Database, accountId: string, id: string): Promise<FolderRow> {
  if (!isUuid(id)) throw new NotFoundError('Folder');
  const [row] = await folderById(db).execute({ id, accountId });
  if (!row) throw new NotFoundError('Folder');
  return row;
}

const folderById = preparedQuery((db) =>
  db
    .select()
    .from(folders)
    .where(and(eq(folders.id, sql.placeholder('id')), eq(folders.accountId, sql.placeholder('accountId'))))
    .prepare('folder_by_id'),
);

export async function renameFolder(db: Database, who: Principal, id: string, name: string): Promise<FolderRow> {
  if (!isUuid(id)) throw new NotFoundError('Folder');
  const [row] = await db
    .update(folders)
    .set({ name, updatedBy: who.keyId, updatedAt: new Date() })
    .where(and(eq(folders.id, id), eq(folders.accountId, who.accountId)))
    .returning();
  if (!row) throw new NotFoundError('Folder');
  return row;
}

/** Links in the folder stay; the foreign key (ON DELETE SET NULL) clears their folder_id in the same statement. */
export async function deleteFolder(db: Database, accountId: string, id: string): Promise<void> {
  if (!isUuid(id)) throw new NotFoundError('Folder');
  const rows = await db
    .delete(folders)
    .where(and(eq(folders.id, id), eq(folders.accountId, accountId)))
    .returning({ id: folders.id });
  if (rows.length === 0) throw new NotFoundError('Folder');
}
