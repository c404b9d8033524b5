/**
 * Bulk insert: a whole menu replaces the cafe's. In one writeMenu transaction (the cafe row held,
 * so no single write interleaves) every item, category and group of the cafe is deleted, their
 * images released to the orphan sweep, and the submitted menu inserted: groups by name (the
 * entries that name none in a "General" group), categories by name ignoring case within their group
 * (the first spelling kept: "Coffee" stays "Coffee", a later "coffee" is the same category),
 * items in request order, a batch of rows per statement (the job's progress reported after each).
 * Nothing is visible until the commit, and a transaction that does not commit (an error, a worker
 * killed mid-job) leaves the old menu. The job may run again (a retry): it deletes and inserts
 * again, so it makes the same menu, once.
 */
import { bulkInsertEntriesOf } from './bulk-insert-packing.js';
import { and, eq, sql } from 'drizzle-orm';
import { cafeCategories, cafeGroups, cafeItems, cafes, links } from '../schema.js';
import type { RecordedEvent } from '../webhooks/events.js';
import { detachFiles } from '../files/files.js';
import type { Executor } from '../database.js';
import type { ReportProgress } from '../jobs/records.js';
import { writeMenu, type CafeContext } from './cafes.js';
import {
  categoryKeyOf,
  GENERAL_GROUP,
  groupKeyOf,
  type BulkInsertEntry,
  type BulkInsertResult,
  type CafeBulkInsertPayload,
} from './bulk-insert-schema.js';

/**
 * Items per insert statement: a 5000-item menu is 10 statements, 10 steps of its progress bar, at
 * little cost over one statement (the rows are unpacked by Postgres either way).
 */
export const ITEM_BATCH = 500;

/** Deletes the cafe's rows of `table`; returns how many, and the image files they held. */
async function deleteAll(tx: Executor, table: typeof cafeItems | typeof cafeCategories | typeof cafeGroups, cafeId: string) {
  const { rows } = await tx.execute<{ n: number; images: string[] | null }>(sql`
    with gone as (delete from ${table} where ${table.cafeId} = ${cafeId} returning ${table.imageFileId} as image)
    select count(*)::int as n, array_agg(image) filter (where image is not null) as images from gone`);
  return { count: rows[0]!.n, images: rows[0]!.images ?? [] };
}

export async function replaceMenu(
  ctx: CafeContext,
  accountId: string,
  payload: CafeBulkInsertPayload,
  reportProgress: ReportProgress = async () => {},
): Promise<BulkInsertResult> {
  const entries = bulkInsertEntriesOf(payload);
  return writeMenu(ctx, accountId, payload.cafeId, async (tx, cafe) => {
    const items = await deleteAll(tx, cafeItems, cafe.id);
    const categories = await deleteAll(tx, cafeCategories, cafe.id);
    const groups = await deleteAll(tx, cafeGroups, cafe.id);
    await detachFiles(tx, cafe.linkId, [...items.images, ...categories.images, ...groups.images]);
    await reportProgress(10);

    // Groups and categories in order of first appearance; the first spelling of each names it.
    const groupNames = new Map<string, string>();
    const categoryGroups = new Map<string, { name: string; groupKey: string }>();
    for (const entry of entries) {
      const groupKey = groupKeyOf(entry);
      if (!groupNames.has(groupKey)) groupNames.set(groupKey, entry.group ?? GENERAL_GROUP);
      if (!categoryGroups.has(categoryKeyOf(entry))) categoryGroups.set(categoryKeyOf(entry), { name: entry.category, groupKey });
    }
    const groupRows = await tx
      .insert(cafeGroups)
      .values([...groupNames.values()].map((name, order) => ({ accountId, cafeId: cafe.id, name, sortOrder: order })))
      .returning({ id: cafeGroups.id, sortOrder: cafeGroups.sortOrder });
    const groupIds = new Map([...groupNames.keys()].map((key, order) => [key, groupRows.find((g) => g.sortOrder === order)!.id]));
    const categoryRows = await tx
      .insert(cafeCategories)
      .values(
        [...categoryGroups.values()].map(({ name, groupKey }, order) => ({
          accountId,
          cafeId: cafe.id,
          groupId: groupIds.get(groupKey)!,
          name,
          sortOrder: order,
        })),
      )
      .returning({ id: cafeCategories.id, name: cafeCategories.name });
    const categoryIds = new Map(categoryRows.map((c) => [c.name.toLowerCase(), c.id]));

    // Items go in batches of ITEM_BATCH, each one statement whose rows travel as one JSON parameter
    // (no per-row parameters) unpacked in request order; after each batch the job's progress moves
    // on from 10% (the old menu deleted) towards 99%, so a console following the job sees it go.
    const rows = entries.map((entry) => ({
      category_id: categoryIds.get(categoryKeyOf(entry))!,
      name: entry.name,
      price: entry.price,
      currency: entry.currency,
      description: entry.description ?? null,
      ingredients: entry.ingredients ?? [],
      tags: entry.tags ?? [],
      allergens: entry.allergens ?? [],
      spice_level: entry.spice_level ?? 'none',
    }));
    for (let start = 0; start < rows.length; start += ITEM_BATCH) {
      const batch = rows.slice(start, start + ITEM_BATCH);
      await tx.execute(sql`
        insert into ${cafeItems} (account_id, cafe_id, category_id, name, price, currency, description, ingredients, tags, allergens,
                                  spice_level, sort_order)
        select ${accountId}, ${cafe.id}, (e.item->>'category_id')::uuid, e.item->>'name', (e.item->>'price')::numeric, e.item->>'currency',
               e.item->>'description', array(select jsonb_array_elements_text(e.item->'ingredients')),
               array(select jsonb_array_elements_text(e.item->'tags')), array(select jsonb_array_elements_text(e.item->'allergens')),
               e.item->>'spice_level', (${start} + e.position - 1)::int
        from jsonb_array_elements(${JSON.stringify(batch)}::jsonb) with ordinality as e(item, position)`);
      await reportProgress(10 + (89 * (start + batch.length)) / rows.length);
    }
    return {
      groups: groupRows.length,
      categories: categoryRows.length,
      items: entries.length,
      deleted: { groups: groups.count, categories: categories.count, items: items.count },
    };
  });
}

/** `cafe.menu_imported`: the cafe, its menu link, and what the import made and replaced. */
export async function menuImportedEvent(
  db: Executor,
  done: { jobId: string; accountId: string },
  cafeId: string,
  result: BulkInsertResult,
): Promise<RecordedEvent | null> {
  const [cafe] = await db
    .select({ id: cafes.id, name: cafes.name, linkId: links.id, slug: links.slug, folderId: links.folderId })
    .from(cafes)
    .innerJoin(links, eq(links.id, cafes.linkId))
    .where(and(eq(cafes.id, cafeId), eq(cafes.accountId, done.accountId)));
  if (!cafe) return null;
  return {
    accountId: done.accountId,
    type: 'cafe.menu_imported',
    data: { job_id: done.jobId, cafe_id: cafe.id, cafe_name: cafe.name, link_id: cafe.slug, ...result },
    link: { id: cafe.linkId, folderId: cafe.folderId },
  };
}
