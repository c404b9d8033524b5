/**
 * A cafe's menu items, each in one of its categories. A new item without an order goes after the
 * last item of its category. Hidden items stay in the API's lists (with visible false); the menu
 * page leaves them out.
 */
import { and, count, eq, sql } from 'drizzle-orm';
import { cafeCategories, cafeItems, type SPICE_LEVELS } from '../schema.js';
import { detachFiles } from '../files/files.js';
import type { Executor } from '../database.js';
import { isUuid } from '#platform/format/ids.js';
import { ConflictError, NotFoundError } from '../errors.js';
import { assertCafe, swapImage, writeMenu, type CafeContext } from './cafes.js';
import { assertInCafe, menuOrder, nextOrder, reorderRows } from './menu.js';
import { MENU_ITEMS_MAX } from './schema-parts.js';
import type { ItemInput, ReorderEntry } from './schemas.js';

export type ItemRow = typeof cafeItems.$inferSelect;

async function findItem(db: Executor, cafeId: string, itemId: string): Promise<ItemRow> {
  const [row] = isUuid(itemId)
    ? await db
        .select()
        .from(cafeItems)
        .where(and(eq(cafeItems.cafeId, cafeId), eq(cafeItems.id, itemId)))
    : [];
  if (!row) throw new NotFoundError('Item');
  return row;
}

/**
 * The ids of the cafe's items, or of one category's (an id that names none of its categories lists
 * nothing), in menu order: a list reads the items themselves a chunk at a time (readItems).
 */
export async function listItemIds(ctx: CafeContext, accountId: string, cafeId: string, categoryId?: string): Promise<string[]> {
  await assertCafe(ctx.db, accountId, cafeId);
  if (categoryId !== undefined && !isUuid(categoryId)) return [];
  const where = categoryId ? and(eq(cafeItems.cafeId, cafeId), eq(cafeItems.categoryId, categoryId)) : eq(cafeItems.cafeId, cafeId);
  const rows = await ctx.db
    .select({ id: cafeItems.id })
    .from(cafeItems)
    .where(where)
    .orderBy(...menuOrder(cafeItems));
  return rows.map((r) => r.id);
}

/** The cafe's items of these ids, in their order; an id that is no item of the cafe any more is left out. */
export async function readItems(db: Executor, cafeId: string, ids: string[]): Promise<ItemRow[]> {
  const rows = await db
    .select()
    .from(cafeItems)
    .where(and(eq(cafeItems.cafeId, cafeId), sql`${cafeItems.id} = any(${sql.param(ids)}::uuid[])`));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export async function getItem(ctx: CafeContext, accountId: string, cafeId: string, itemId: string) {
  await assertCafe(ctx.db, accountId, cafeId);
  return await findItem(ctx.db, cafeId, itemId);
}

function fieldsOf(form: ItemInput) {
  const set: Partial<typeof cafeItems.$inferInsert> = {};
  if (form.category_id !== undefined) set.categoryId = form.category_id.toLowerCase();
  if (form.name !== undefined) set.name = form.name;
  if (form.price !== undefined) set.price = form.price;
  if (form.currency !== undefined) set.currency = form.currency;
  if (form.description !== undefined) set.description = form.description;
  if (form.visible !== undefined) set.visible = form.visible;
  if (form.is_featured !== undefined) set.isFeatured = form.is_featured;
  if (form.is_new !== undefined) set.isNew = form.is_new;
  if (form.is_recommended !== undefined) set.isRecommended = form.is_recommended;
  if (form.spice_level !== undefined) set.spiceLevel = form.spice_level;
  if (form.ingredients !== undefined) set.ingredients = form.ingredients;
  if (form.tags !== undefined) set.tags = form.tags;
  if (form.allergens !== undefined) set.allergens = form.allergens;
  if (form.order !== undefined) set.sortOrder = form.order;
  return set;
}

/** `image`: an uploaded file's id (storeMenuImage), attached to the cafe here. */
export const MENU_FULL_MESSAGE = `A cafe holds at most ${MENU_ITEMS_MAX} items; delete some first`;

export async function createItem(
  ctx: CafeContext,
  accountId: string,
  cafeId: string,
  form: ItemInput & { category_id: string; name: string; price: string },
  image: string | null,
) {
  const row = await writeMenu(ctx, accountId, cafeId, async (tx, cafe) => {
    await assertInCafe(tx, cafeCategories, cafe.id, form.category_id, 'category_id', 'Category');
    // writeMenu holds the cafe's lock: no other write can add an item between the count and the insert.
    const [held] = await tx.select({ n: count() }).from(cafeItems).where(eq(cafeItems.cafeId, cafe.id));
    if (held!.n >= MENU_ITEMS_MAX) throw new ConflictError('menu_full', MENU_FULL_MESSAGE);
    const categoryId = form.category_id.toLowerCase();
    const [row] = await tx
      .insert(cafeItems)
      .values({
        accountId,
        cafeId: cafe.id,
        sortOrder: form.order ?? (await nextOrder(tx, cafeItems, cafe.id, eq(cafeItems.categoryId, categoryId))),
        ...fieldsOf(form),
        categoryId,
        name: form.name,
        price: form.price,
        imageFileId: await swapImage(tx, cafe, null, image),
      })
      .returning();
    return row!;
  });
  return row;
}

export async function updateItem(
  ctx: CafeContext,
  accountId: string,
  cafeId: string,
  itemId: string,
  form: ItemInput,
  image: string | null,
) {
  const row = await writeMenu(ctx, accountId, cafeId, async (tx, cafe) => {
    const current = await findItem(tx, cafe.id, itemId);
    if (form.category_id !== undefined) await assertInCafe(tx, cafeCategories, cafe.id, form.category_id, 'category_id', 'Category');
    const [row] = await tx
      .update(cafeItems)
      .set({
        ...fieldsOf(form),
        imageFileId: await swapImage(tx, cafe, current.imageFileId, image ?? (form.delete_image ? null : current.imageFileId)),
        updatedAt: new Date(),
      })
      .where(eq(cafeItems.id, current.id))
      .returning();
    return row!;
  });
  return row;
}

/** Hide (false) or show (true): the menu page shows visible items only. */
export async function setItemVisible(ctx: CafeContext, accountId: string, cafeId: string, itemId: string, visible: boolean): Promise<void> {
  await writeMenu(ctx, accountId, cafeId, async (tx, cafe) => {
    const current = await findItem(tx, cafe.id, itemId);
    await tx.update(cafeItems).set({ visible, updatedAt: new Date() }).where(eq(cafeItems.id, current.id));
  });
}

export async function deleteItem(ctx: CafeContext, accountId: string, cafeId: string, itemId: string): Promise<void> {
  await writeMenu(ctx, accountId, cafeId, async (tx, cafe) => {
    const current = await findItem(tx, cafe.id, itemId);
    await detachFiles(tx, cafe.linkId, [current.imageFileId]);
    await tx.delete(cafeItems).where(eq(cafeItems.id, current.id));
  });
}

export async function reorderItems(ctx: CafeContext, accountId: string, cafeId: string, entries: ReorderEntry[]): Promise<void> {
  await writeMenu(ctx, accountId, cafeId, (tx, cafe) => reorderRows(tx, cafeItems, cafe.id, entries, 'Item', []));
}
