/**
 * What links a caller may reach: the one place that says so (docs/decisions/0412). Every link
 * query filters by a LinkScope, so a client's session or key sees only the links of its folders,
 * and a link outside them is "not found" exactly like another account's. A Principal is a
 * LinkScope (its accountId and folderIds), so routes pass the principal as it is.
 */
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { folders, links } from '../schema.js';
import { ForbiddenError } from '../errors.js';

export interface LinkScope {
  accountId: string;
  /** The folders the caller may reach; null: the whole account (every role but client). */
  folderIds: readonly string[] | null;
}

/** The whole account: what workers and operators act on. */
export function wholeAccount(accountId: string): LinkScope {
  return { accountId, folderIds: null };
}

function inFolders(column: typeof links.folderId | typeof folders.id, folderIds: readonly string[]): SQL {
  return folderIds.length === 0 ? sql`false` : inArray(column, [...folderIds]);
}

/** WHERE: the links the scope reaches (a client: those in its folders; a folder-less link is no client's). */
export function linksWithin(scope: LinkScope): SQL {
  const account = eq(links.accountId, scope.accountId);
  return scope.folderIds === null ? account : and(account, inFolders(links.folderId, scope.folderIds))!;
}

/** WHERE: the folders the scope reaches. */
export function foldersWithin(scope: LinkScope): SQL {
  const account = eq(folders.accountId, scope.accountId);
  return scope.folderIds === null ? account : and(account, inFolders(folders.id, scope.folderIds))!;
}

/** Whether the scope may reach a folder (null: no folder, which only a whole-account caller may use). */
export function reachesFolder(scope: LinkScope, folderId: string | null): boolean {
  if (scope.folderIds === null) return true;
  return folderId !== null && scope.folderIds.includes(folderId.toLowerCase());
}

/**
 * A link may be put (made, moved, bulk-made) in `folderId` by this caller: a client only in one of
 * its folders, never in none; otherwise 403 `folder_forbidden`. Whether the folder exists is
 * asked afterwards, of the account, as for anyone.
 */
export function assertFolderReachable(scope: LinkScope, folderId: string | null | undefined): void {
  if (reachesFolder(scope, folderId ?? null)) return;
  throw new ForbiddenError(
    'folder_forbidden',
    folderId ? 'You may only put links in your own folders' : 'Choose one of your folders: you may not make or keep a link outside them',
  );
}
