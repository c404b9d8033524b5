/**
 * UTM templates: an account's named sets of UTM parameters, which fill a link's `utm` (the
 * console's picker copies one into the link; a link keeps no tie to it, so editing a template
 * changes no link). At most UTM_TEMPLATES_PER_ACCOUNT each; names are unique ignoring case.
 */
import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Database } from '../database.js';
import { isUniqueViolation } from '#platform/database/pool.js';
import { isUuid } from '#platform/format/ids.js';
import { ConflictError, NotFoundError } from '../errors.js';
import { utmTemplates } from '../schema.js';
import type { Utm } from '../links/utm-fields.js';
import { storedUtm } from '../links/schemas.js';

export type UtmTemplateRow = typeof utmTemplates.$inferSelect;

export const UTM_TEMPLATES_PER_ACCOUNT = 100;

export interface UtmTemplateInput {
  name: string;
  utm: Utm;
}

const nameTaken = () => new ConflictError('utm_template_name_taken', 'The account has a UTM template of this name already', 'name');

/** A duplicate name (any case) is a 409 rather than the database's error. */
async function unlessNameTaken<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err, 'utm_templates_account_name_key')) throw nameTaken();
    throw err;
  }
}

export async function createUtmTemplate(db: Database, accountId: string, input: UtmTemplateInput): Promise<UtmTemplateRow> {
  return unlessNameTaken(() =>
    db.transaction(async (tx) => {
      // Serialises two creates of one account, so both cannot pass the count.
      await tx.execute(sql`select pg_advisory_xact_lock(7340032, hashtext(${accountId}))`);
      const [held] = await tx.select({ n: count() }).from(utmTemplates).where(eq(utmTemplates.accountId, accountId));
      if ((held?.n ?? 0) >= UTM_TEMPLATES_PER_ACCOUNT) {
        throw new ConflictError(
          'utm_template_limit_reached',
          `An account can have ${UTM_TEMPLATES_PER_ACCOUNT} UTM templates; remove one to add another`,
        );
      }
      const [row] = await tx
        .insert(utmTemplates)
        .values({ accountId, name: input.name, utm: storedUtm(input.utm) ?? {} })
        .returning();
      return row!;
    }),
  );
}

/** The account's templates by name (ignoring case), as a picker lists them. */
export async function listUtmTemplates(db: Database, accountId: string): Promise<UtmTemplateRow[]> {
  return db
    .select()
    .from(utmTemplates)
    .where(eq(utmTemplates.accountId, accountId))
    .orderBy(asc(sql`lower(${utmTemplates.name})`), asc(utmTemplates.id));
}

/** Another account's template is "not found" exactly like a missing one. */
export async function getUtmTemplate(db: Database, accountId: string, id: string): Promise<UtmTemplateRow> {
  if (!isUuid(id)) throw new NotFoundError('UTM template');
  const [row] = await db
    .select()
    .from(utmTemplates)
    .where(and(eq(utmTemplates.id, id), eq(utmTemplates.accountId, accountId)));
  if (!row) throw new NotFoundError('UTM template');
  return row;
}

export async function updateUtmTemplate(
  db: Database,
  accountId: string,
  id: string,
  change: Partial<UtmTemplateInput>,
): Promise<UtmTemplateRow> {
  if (!isUuid(id)) throw new NotFoundError('UTM template');
  const [row] = await unlessNameTaken(() =>
    db
      .update(utmTemplates)
      .set({
        ...(change.name !== undefined && { name: change.name }),
        ...(change.utm !== undefined && { utm: storedUtm(change.utm) ?? {} }),
        updatedAt: new Date(),
      })
      .where(and(eq(utmTemplates.id, id), eq(utmTemplates.accountId, accountId)))
      .returning(),
  );
  if (!row) throw new NotFoundError('UTM template');
  return row;
}

export async function deleteUtmTemplate(db: Database, accountId: string, id: string): Promise<void> {
  if (!isUuid(id)) throw new NotFoundError('UTM template');
  const rows = await db
    .delete(utmTemplates)
    .where(and(eq(utmTemplates.id, id), eq(utmTemplates.accountId, accountId)))
    .returning({ id: utmTemplates.id });
  if (rows.length === 0) throw new NotFoundError('UTM template');
}
