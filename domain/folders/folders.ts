import { and, desc, eq, sql } from 'drizzle-orm';
import { preparedQuery, type Database } from '../database.js';
import { folders } from '../schema.js';
import type { Principal } from '../accounts/api-keys.js';
import { isUuid } from '#platform/format/ids.js';
import { NotFoundError } from '../errors.js';
import { foldersWithin, reachesFolder, type LinkScope } from '../links/scope.js';

export type FolderRow = typeof folders.$inferSelect;

export async function createFolder(db: Database, who: Principal, name: string): Promise<FolderRow> {
  const [row] = await db
    .insert(folders)
    .values({ accountId: who.accountId, name, createdBy: who.userId ?? who.keyId, updatedBy: who.userId ?? who.keyId })
    .returning();
  return row!;
}

/** Newest first; the id breaks ties so the order is stable. A client lists its own folders only. */
export async function listFolders(db: Database, scope: LinkScope): Promise<FolderRow[]> {
  if (scope.folderIds === null) return folderList(db).execute({ accountId: scope.accountId });
  return db.select().from(folders).where(foldersWithin(scope)).orderBy(desc(folders.createdAt), desc(folders.id));
}

const folderList = preparedQuery((db) =>
  db
    .select()
    .from(folders)
    .where(eq(folders.accountId, sql.placeholder('accountId')))
    .orderBy(desc(folders.createdAt), desc(folders.id))
    .prepare('folder_list'),
);

/** A folder out of the caller's reach (a client's other folders) is "not found" like another account's. */
export async function getFolder(db: Database, scope: LinkScope, id: string): Promise<FolderRow> {
  if (!isUuid(id) || !reachesFolder(scope, id)) throw new NotFoundError('Folder');
  return findFolderRow(db, scope.accountId, id);
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
    .set({ name, updatedBy: who.userId ?? who.keyId, updatedAt: new Date() })
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
