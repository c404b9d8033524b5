/** Taps on the actions of a link's hosted page (call, directions, save contact…), per UTC day: the funnel after a scan. */
import { date, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { accountId } from '../accounts/tables.js';
import { links } from '../links/tables.js';

export const pageActionDays = pgTable(
  'page_action_days',
  {
    linkId: uuid('link_id')
      .notNull()
      .references(() => links.id, { onDelete: 'cascade' }),
    accountId: accountId(),
    day: date('day').notNull(),
    /** What was tapped: call, directions, website, save_contact, join_wifi, open_dish, register, download… */
    action: text('action').notNull(),
    taps: integer('taps').notNull(),
  },
  (t) => [primaryKey({ name: 'page_action_days_pk', columns: [t.linkId, t.day, t.action] })],
);
