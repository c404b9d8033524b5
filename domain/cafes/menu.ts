/**
 * What groups, categories and items have in common: rows of one cafe, listed by `order` then
 * creation, placed after the last one when created without an order, reordered in one statement,
 * each with an optional image file. Used inside writeMenu's transaction (the cafe row held).
 */
import { asc, sql, type SQL } from 'drizzle-orm';
import { cafeCategories, cafeGroups, cafeItems } from '../schema.js';
import type { Executor } from '../database.js';
import { formatPath, ValidationError, type FieldError } from '../errors.js';
import { isUuid } from '#platform/format/ids.js';
import { ORDER_MAX, type ReorderEntry } from './schemas.js';

export type MenuTable = typeof cafeGroups | typeof cafeCategories | typeof cafeItems;

/** A menu list's order: position, then creation (ties in position keep the order they were made in). */
export function menuOrder(table: MenuTable) {
  return [asc(table.sortOrder), asc(table.createdAt), asc(table.id)];
}

/** The position after the last of the cafe's rows (within `scope`, e.g. one category's items). */
export async function nextOrder(tx: Executor, table: MenuTable, cafeId: string, scope?: SQL): Promise<number> {
  const { rows } = await tx.execute<{ next: number }>(
    sql`select least(coalesce(max(${table.sortOrder}) + 1, 0), ${ORDER_MAX})::int as next from ${table} where ${table.cafeId} = ${cafeId} ${scope ? sql`and ${scope}` : sql``}`,
  );
  return rows[0]!.next;
}

/** Whether `id` names one of the cafe's rows of `table`. */
export async function isInCafe(tx: Executor, table: MenuTable, cafeId: string, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const { rows } = await tx.execute(sql`select 1 from ${table} where ${table.cafeId} = ${cafeId} and ${table.id} = ${id}`);
  return rows.length > 0;
}

/** 400 naming the body member when it does not name a row of the cafe. */
export async function assertInCafe(tx: Executor, table: MenuTable, cafeId: string, id: string, path: string, thing: string): Promise<void> {
  if (!(await isInCafe(tx, table, cafeId, id))) throw new ValidationError([{ path, message: `${thing} not found in this cafe` }]);
}

/**
 * Sets each entry's position in one statement. Every id must be one of the cafe's rows, once:
 * otherwise a 400 names each bad entry (`pathPrefix` is where the list is in the body) and
 * nothing changes. Rows left out keep their positions.
 */
export async function reorderRows(
  tx: Executor,
  table: MenuTable,
  cafeId: string,
  entries: ReorderEntry[],
  thing: string,
  pathPrefix: Array<string | number>,
) {
  const ids = entries.map((e) => e.id.toLowerCase());
  const { rows } = await tx.execute<{ id: string }>(
    sql`select ${table.id} as id from ${table} where ${table.cafeId} = ${cafeId} and ${table.id} = any(${sql.param(ids.filter(isUuid))}::uuid[])`,
  );
  const known = new Set(rows.map((r) => r.id));
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  ids.forEach((id, i) => {
    const path = formatPath([...pathPrefix, i, 'id']);
    if (!known.has(id)) errors.push({ path, message: `${thing} not found in this cafe` });
    else if (seen.has(id)) errors.push({ path, message: 'Listed more than once' });
    seen.add(id);
  });
  if (errors.length > 0) throw new ValidationError(errors);
  await tx.execute(sql`
    update ${table} set sort_order = v.ord, updated_at = now()
    from unnest(${sql.param(ids)}::uuid[], ${sql.param(entries.map((e) => e.order))}::int[]) as v(id, ord)
    where ${table.id} = v.id and ${table.cafeId} = ${cafeId}`);
}
