import { and, desc, eq } from 'drizzle-orm';
import type { Database } from '../database.js';
import { templates } from '../schema.js';
import { dateFormatter, type DateStyle } from '../../platform/format/dates.js';
import { isUuid } from '../../platform/format/ids.js';
import { NotFoundError } from '../errors.js';
import type { QrOptions } from '../qr/options.js';

type TemplateRow = typeof templates.$inferSelect;

export function templateView(row: TemplateRow, dates: DateStyle) {
  const fmt = dateFormatter(dates);
  return {
    id: row.id,
    account_id: row.accountId,
    name: row.name,
    qr_options: row.qrOptions,
    created_at: fmt(row.createdAt),
    updated_at: fmt(row.updatedAt),
  };
}

/** Stores the QR options as submitted (validated); defaults are applied when a link uses them. */
export async function createTemplate(db: Database, accountId: string, input: { name: string; qrOptions: QrOptions }) {
  const [row] = await db
    .insert(templates)
    .values({ accountId, name: input.name, qrOptions: input.qrOptions as Record<string, unknown> })
    .returning();
  return templateView(row!, 'iso');
}

export async function listTemplates(db: Database, accountId: string) {
  const rows = await db
    .select()
    .from(templates)
    .where(eq(templates.accountId, accountId))
    .orderBy(desc(templates.createdAt), desc(templates.id));
  return rows.map((r) => templateView(r, 'list'));
}

export async function getTemplate(db: Database, accountId: string, id: string) {
  if (!isUuid(id)) throw new NotFoundError('Template');
  const [row] = await db
    .select()
    .from(templates)
    .where(and(eq(templates.id, id), eq(templates.accountId, accountId)));
  if (!row) throw new NotFoundError('Template');
  return templateView(row, 'list');
}

export async function updateTemplate(
  db: Database,
  accountId: string,
  id: string,
  input: { name?: string; qrOptions?: QrOptions },
): Promise<void> {
  if (!isUuid(id)) throw new NotFoundError('Template');
  const rows = await db
    .update(templates)
    .set({
      ...(input.name !== undefined && { name: input.name }),
      ...(input.qrOptions !== undefined && { qrOptions: input.qrOptions as Record<string, unknown> }),
      updatedAt: new Date(),
    })
    .where(and(eq(templates.id, id), eq(templates.accountId, accountId)))
    .returning({ id: templates.id });
  if (rows.length === 0) throw new NotFoundError('Template');
}

export async function deleteTemplate(db: Database, accountId: string, id: string): Promise<void> {
  if (!isUuid(id)) throw new NotFoundError('Template');
  const rows = await db
    .delete(templates)
    .where(and(eq(templates.id, id), eq(templates.accountId, accountId)))
    .returning({ id: templates.id });
  if (rows.length === 0) throw new NotFoundError('Template');
}
