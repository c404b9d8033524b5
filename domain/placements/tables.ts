/** Named placements of a link (a table tent, a window, a flyer): one QR image each, told apart in analytics. */
import { sql } from 'drizzle-orm';
import { pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { id, createdAt, updatedAt, tstz } from '../columns.js';
import { accountId } from '../accounts/tables.js';
import { links } from '../links/tables.js';

export const linkPlacements = pgTable(
  'link_placements',
  {
    id: id(),
    accountId: accountId(),
    linkId: uuid('link_id')
      .notNull()
      .references(() => links.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /**
     * The marker value its QR image carries (`?q=<code>`): the link's placements counted in base
     * 36 (1, 2, … z, 10, …), so the first 35 cost one character; never reused within the link.
     */
    code: text('code').notNull(),
    /** Removed: hidden, and its printed codes count as QR scans of no placement; the row stays so the code is never given again. */
    deletedAt: tstz('deleted_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('link_placements_link_code_key').on(t.linkId, t.code),
    uniqueIndex('link_placements_link_name_key')
      .on(t.linkId, sql`lower(${t.name})`)
      .where(sql`${t.deletedAt} is null`),
  ],
);
