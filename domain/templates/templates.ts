import { and, desc, eq, sql } from 'drizzle-orm';
import { preparedQuery, type Database } from '../database.js';
import { templates } from '../schema.js';
import { isUuid } from '#platform/format/ids.js';
import { NotFoundError } from '../errors.js';
import type { QrOptions } from '../qr/options.js';
import { assertFrameDrawable } from '../qr/qr-images.js';

export type TemplateRow = typeof templates.$inferSelect;

/** Stores the QR options as submitted (validated); defaults are applied when a link uses them. */
export async function createTemplate(db: Database, accountId: string, input: { name: string; qrOptions: QrOptions }): Promise<TemplateRow> {
  assertFrameDrawable(input.qrOptions, 'qrOptions');
  const [row] = await db
    .insert(templates)
    .values({ accountId, name: input.name, qrOptions: input.qrOptions as Record<string, unknown> })
    .returning();
  return row!;
}

export async function listTemplates(db: Database, accountId: string): Promise<TemplateRow[]> {
  return templateList(db).execute({ accountId });
}

const templateList = preparedQuery((db) =>
  db
    .select()
    .from(templates)
    .where(eq(templates.accountId, sql.placeholder('accountId')))
    .orderBy(desc(templates.createdAt), desc(templates.id))
    .prepare('template_list'),
);

export async function getTemplate(db: Database, accountId: string, id: string): Promise<TemplateRow> {
  if (!isUuid(id)) throw new NotFoundError('Template');
  const [row] = await templateById(db).execute({ id, accountId });
  if (!row) throw new NotFoundError('Template');
  return row;
}

const templateById = preparedQuery((db) =>
  db
    .select()
    .from(templates)
    .where(and(eq(templates.id, sql.placeholder('id')), eq(templates.accountId, sql.placeholder('accountId'))))
    .prepare('template_by_id'),
);

export async function updateTemplate(
  db: Database,
  accountId: string,
  id: string,
  input: { name?: string; qrOptions?: QrOptions },
): Promise<void> {
  if (!isUuid(id)) throw new NotFoundError('Template');
  if (input.qrOptions) assertFrameDrawable(input.qrOptions, 'qrOptions');
  const rows = await db
    .update(templates)
    .set({
      ...(input.name !== undefined && { name: input.name }),
      ...(input.qrOptions !== undefined && { qrOptions: input.qrOptions }),
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
