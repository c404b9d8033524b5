/** Saved QR designs (qr_options) an account applies to links. */
import { index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { id, createdAt, updatedAt } from '../columns.js';
import { accountId } from '../accounts/tables.js';

export const templates = pgTable(
  'templates',
  {
    id: id(),
    accountId: accountId(),
    name: text('name').notNull(),
    qrOptions: jsonb('qr_options').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('templates_account_created_idx').on(t.accountId, t.createdAt.desc(), t.id.desc())],
);
