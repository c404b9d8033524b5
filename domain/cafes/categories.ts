/**
 * A cafe's categories (Coffee, Pastries, Mains), optionally in a group. Names are unique within
 * the cafe ignoring case: the unique index on (cafe_id, lower(name)) decides, so a concurrent
 * create or rename with the same name fails there and answers the same 400 as a sequential one.
 * Deleting a category deletes its items.
 */
import { and, eq, isNotNull } from 'drizzle-orm';
import { isUniqueViolation } from '#platform/database/pool.js';
import { cafeCategories, cafeGroups, cafeItems } from '../schema.js';
import { detachFiles } from '../files/files.js';
import type { Executor } from '../database.js';
import { isUuid } from '#platform/format/ids.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { assertCafe, swapImage, writeMenu, type CafeContext } from './cafes.js';
import { assertInCafe, menuOrder, nextOrder, reorderRows } from './menu.js';
import type { CategoryInput, ReorderEntry } from './schemas.js';

export type CategoryRow = typeof cafeCategories.$inferSelect;

export const DUPLICATE_CATEGORY_MESSAGE = 'A category with this name already exists in this cafe (names are compared ignoring case)';

async function findCategory(db: Executor, cafeId: string, categoryId: string): Promise<CategoryRow> {
  const [row] = isUuid(categoryId)
    ? await db
        .select()
        .from(cafeCategories)
        .where(and(eq(cafeCategories.cafeId, cafeId), eq(cafeCategories.id, categoryId)))
    : [];
  if (!row) throw new NotFoundError('Category');
  return row;
}

/** The name's 400 when the unique index refused it. */
async function namedUniquely<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err, 'cafe_categories_name_idx'))
      throw new ValidationError([{ path: 'name', message: DUPLICATE_CATEGORY_MESSAGE }]);
    throw err;
  }
}

export async function listCategories(ctx: CafeContext, accountId: string, cafeId: string): Promise<CategoryRow[]> {
  await assertCafe(ctx.db, accountId, cafeId);
  return ctx.db
    .select()
    .from(cafeCategories)
    .where(eq(cafeCategories.cafeId, cafeId))
    .orderBy(...menuOrder(cafeCategories));
}

export async function getCategory(ctx: CafeContext, accountId: string, cafeId: string, categoryId: string) {
  await assertCafe(ctx.db, accountId, cafeId);
  return await findCategory(ctx.db, cafeId, categoryId);
}

function fieldsOf(body: CategoryInput) {
  return {
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.description !== undefined ? { description: body.description } : {}),
    ...(body.group_id !== undefined ? { groupId: body.group_id === null ? null : body.group_id.toLowerCase() } : {}),
    ...(body.type !== undefined ? { type: body.type } : {}),
    ...(body.order !== undefined ? { sortOrder: body.order } : {}),
    ...(body.visible !== undefined ? { visible: body.visible } : {}),
  };
}

export async function createCategory(ctx: CafeContext, accountId: string, cafeId: string, body: CategoryInput & { name: string }) {
  const row = await namedUniquely(() =>
    writeMenu(ctx, accountId, cafeId, async (tx, cafe) => {
      if (body.group_id) await assertInCafe(tx, cafeGroups, cafe.id, body.group_id, 'group_id', 'Group');
      const [row] = await tx
        .insert(cafeCategories)
        .values({
          accountId,
          cafeId: cafe.id,
          sortOrder: body.order ?? (await nextOrder(tx, cafeCategories, cafe.id)),
          ...fieldsOf(body),
          name: body.name,
        })
        .returning();
      return row!;
    }),
  );
  return row;
}

export async function updateCategory(ctx: CafeContext, accountId: string, cafeId: string, categoryId: string, body: CategoryInput) {
  const row = await namedUniquely(() =>
    writeMenu(ctx, accountId, cafeId, async (tx, cafe) => {
      const current = await findCategory(tx, cafe.id, categoryId);
      if (body.group_id) await assertInCafe(tx, cafeGroups, cafe.id, body.group_id, 'group_id', 'Group');
      const imageFileId = body.delete_image ? await swapImage(tx, cafe, current.imageFileId, null) : current.imageFileId;
      const [row] = await tx
        .update(cafeCategories)
        .set({ ...fieldsOf(body), imageFileId, updatedAt: new Date() })
        .where(eq(cafeCategories.id, current.id))
        .returning();
      return row!;
    }),
  );
  return row;
}

/** PUT /cafes/:id/categories/:categoryId/image: `image` is the uploaded file's id. */
export async function setCategoryImage(ctx: CafeContext, accountId: string, cafeId: string, categoryId: string, image: string) {
  const row = await writeMenu(ctx, accountId, cafeId, async (tx, cafe) => {
    const current = await findCategory(tx, cafe.id, categoryId);
    const [row] = await tx
      .update(cafeCategories)
      .set({ imageFileId: await swapImage(tx, cafe, current.imageFileId, image), updatedAt: new Date() })
      .where(eq(cafeCategories.id, current.id))
      .returning();
    return row!;
  });
  return row;
}

/** Deletes the category and its items, and releases their images. */
export async function deleteCategory(ctx: CafeContext, accountId: string, cafeId: string, categoryId: string): Promise<void> {
  await writeMenu(ctx, accountId, cafeId, async (tx, cafe) => {
    const current = await findCategory(tx, cafe.id, categoryId);
    const itemImages = await tx
      .select({ id: cafeItems.imageFileId })
      .from(cafeItems)
      .where(and(eq(cafeItems.categoryId, current.id), isNotNull(cafeItems.imageFileId)));
    await detachFiles(tx, cafe.linkId, [current.imageFileId, ...itemImages.map((r) => r.id)]);
    await tx.delete(cafeCategories).where(eq(cafeCategories.id, current.id));
  });
}

export async function reorderCategories(ctx: CafeContext, accountId: string, cafeId: string, entries: ReorderEntry[]): Promise<void> {
  await writeMenu(ctx, accountId, cafeId, (tx, cafe) => reorderRows(tx, cafeCategories, cafe.id, entries, 'Category', ['orders']));
}
