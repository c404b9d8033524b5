import type { FolderRow } from '#domain/folders/folders.js';
import { dateFormatter, type DateStyle } from '../../dates.js';

/** A folder as the API answers it (folderResponse): `iso` dates on create, `list` ones elsewhere. */
export function folderView(row: FolderRow, dates: DateStyle) {
  const fmt = dateFormatter(dates);
  return {
    id: row.id,
    name: row.name,
    account_id: row.accountId,
    created_by: row.createdBy,
    updated_by: row.updatedBy,
    created_at: fmt(row.createdAt),
    updated_at: fmt(row.updatedAt),
  };
}
