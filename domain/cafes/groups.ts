/**
 * A cafe's groups: the top level of its menu (Breakfast, Lunch, Drinks), each holding
 * categories. Deleting a group keeps its categories, ungrouped.
 */
import { and, eq } from 'drizzle-orm';
import { cafeGroups } from '../schema.js';
import { detachFiles } from '../files/files.js';
import type { Executor } from '../database.js';
import { isUuid } from '#platform/format/ids.js';
import { NotFoundError } from '../errors.js';
import { assertCafe, swapImage, writeMenu, type CafeContext } from './cafes.js';
import { menuOrder, nextOrder, reorderRows } from './menu.js';
import type { GroupInput, ReorderEntry } from './schemas.js';

export type GroupRow = typeof cafeGroups.$inferSelect;

async function findGroup(db: Executor, cafeId: string, groupId: string): Promise<GroupRow> {
  const [row] = isUuid(groupId)
    ? await db
        .select()
        .from(cafeGroups)
        .where(and(eq(cafeGroups.cafeId, cafeId), eq(cafeGroups.id, groupId)))
    : [];
  if (!row) throw new NotFoundError('Group');
  return row;
}

export async function listGroups(ctx: CafeContext, accountId: string, cafeId: string): Promise<GroupRow[]> {
  await assertCafe(ctx.db, accountId, cafeId);
  return ctx.db
    .select()
    .from(cafeGroups)
    .where(eq(cafeGroups.cafeId, cafeId))
    .orderBy(...menuOrder(cafeGroups));
}

export async function getGroup(ctx: CafeContext, accountId: string, cafeId: string, groupId: string) {
  await assertCafe(ctx.db, accountId, cafeId);
  return await findGroup(ctx.db, cafeId, groupId);
}

/** `image`: an uploaded file's id (storeMenuImage), attached to the cafe here. */
export async function createGroup(
  ctx: CafeContext,
  accountId: string,
  cafeId: string,
  form: GroupInput & { name: string },
  image: string | null,
) {
  const row = await writeMenu(ctx, accountId, cafeId, async (tx, cafe) => {
    const [row] = await tx
      .insert(cafeGroups)
      .values({
        accountId,
        cafeId: cafe.id,
        name: form.name,
        visible: form.visible ?? true,
        sortOrder: form.order ?? (await nextOrder(tx, cafeGroups, cafe.id)),
        imageFileId: await swapImage(tx, cafe, null, image),
      })
      .returning();
    return row!;
  });
  return row;
}

export async function updateGroup(
  ctx: CafeContext,
  accountId: string,
  cafeId: string,
  groupId: string,
  form: GroupInput,
  image: string | null,
) {
  const row = await writeMenu(ctx, accountId, cafeId, async (tx, cafe) => {
    const current = await findGroup(tx, cafe.id, groupId);
    const [row] = await tx
      .update(cafeGroups)
      .set({
        ...(form.name !== undefined ? { name: form.name } : {}),
        ...(form.visible !== undefined ? { visible: form.visible } : {}),
        ...(form.order !== undefined ? { sortOrder: form.order } : {}),
        imageFileId: await swapImage(tx, cafe, current.imageFileId, image ?? (form.delete_image ? null : current.imageFileId)),
        updatedAt: new Date(),
      })
      .where(eq(cafeGroups.id, current.id))
      .returning();
    return row!;
  });
  return row;
}

export async function deleteGroup(ctx: CafeContext, accountId: string, cafeId: string, groupId: string): Promise<void> {
  await writeMenu(ctx, accountId, cafeId, async (tx, cafe) => {
    const current = await findGroup(tx, cafe.id, groupId);
    await detachFiles(tx, cafe.linkId, [current.imageFileId]);
    await tx.delete(cafeGroups).where(eq(cafeGroups.id, current.id));
  });
}

export async function reorderGroups(ctx: CafeContext, accountId: string, cafeId: string, entries: ReorderEntry[]): Promise<void> {
  await writeMenu(ctx, accountId, cafeId, (tx, cafe) => reorderRows(tx, cafeGroups, cafe.id, entries, 'Group', ['orders']));
}
