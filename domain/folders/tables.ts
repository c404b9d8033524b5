/** Folders an account sorts its links into. */
import { index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { id, createdAt, updatedAt } from '../columns.js';
import { accountId } from '../accounts/tables.js';

export const folders = pgTable(
  'folders',
  {
    id: id(),
    accountId: accountId(),
    name: text('name').notNull(),
    /** The API key that created / last renamed the folder. */
    createdBy: uuid('created_by'),
    updatedBy: uuid('updated_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('folders_account_created_idx').on(t.accountId, t.createdAt.desc(), t.id.desc())],
);
