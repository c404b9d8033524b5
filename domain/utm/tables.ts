/** Reusable UTM parameters of an account: a link's `utm` is filled from one. */
import { sql } from 'drizzle-orm';
import { jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, createdAt, updatedAt } from '../columns.js';
import { accountId } from '../accounts/tables.js';
import type { Utm } from '../links/utm-fields.js';

export const utmTemplates = pgTable(
  'utm_templates',
  {
    id: id(),
    accountId: accountId(),
    name: text('name').notNull(),
    utm: jsonb('utm').$type<Utm>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('utm_templates_account_name_key').on(t.accountId, sql`lower(${t.name})`)],
);
