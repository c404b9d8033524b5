/**
 * The menu section's mapping: moving an entry by one place or by a drag, and the reorder body that says so, a
 * new item's form as the multipart body POST /cafes/:id/items takes (checked here first, keyed by
 * the body's paths), and prices in words as the guest page writes them.
 */
import type { paths } from '../api/schema.js';

export type Category = paths['/api/v1/cafes/{id}/categories']['get']['responses'][200]['content']['application/json']['data'][number];
export type Item = paths['/api/v1/cafes/{id}/items']['get']['responses'][200]['content']['application/json']['data'][number];

/** The list with the entry at `index` moved `delta` places (−1 up, +1 down), or null at an end. */
export function moved<T>(list: readonly T[], index: number, delta: -1 | 1): T[] | null {
  const to = index + delta;
  if (index < 0 || index >= list.length || to < 0 || to >= list.length) return null;
  const next = [...list];
  [next[index], next[to]] = [next[to]!, next[index]!];
  return next;
}

/** The list with the entry at `from` taken out and put at `to` (a drag and drop), or null when nothing moves. */
export function movedTo<T>(list: readonly T[], from: number, to: number): T[] | null {
  if (from === to || from < 0 || to < 0 || from >= list.length || to >= list.length) return null;
  const next = [...list];
  const [entry] = next.splice(from, 1);
  next.splice(to, 0, entry!);
  return next;
}

/** The reorder endpoints' entries: each row's position as its order. */
export const orderEntries = (list: ReadonlyArray<{ id: string }>) => list.map((entry, order) => ({ id: entry.id, order }));

/** The API's price text: up to 9 digits, and up to 3 decimals. */
const PRICE = /^\d{1,9}(\.\d{1,3})?$/;

export interface NewItem {
  name: string;
  price: string;
  currency: string;
}

/** A new item's form, or what to fix first by body path; a comma is read as the decimal point. */
export function newItemForm(categoryId: string, item: NewItem): { form: FormData } | { errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const name = item.name.trim();
  const price = item.price.trim().replace(',', '.');
  const currency = item.currency.trim().toUpperCase();
  if (!name) errors.name = 'Give the dish a name.';
  if (!PRICE.test(price)) errors.price = 'A price such as 4.50 (up to 3 decimals).';
  if (!/^[A-Z]{3}$/.test(currency)) errors.currency = 'A three-letter currency code such as EUR.';
  if (Object.keys(errors).length > 0) return { errors };
  const form = new FormData();
  form.append('category_id', categoryId);
  form.append('name', name);
  form.append('price', price);
  form.append('currency', currency);
  return { form };
}

/** A price as the guest page shows it (`€4.50`), or the bare number and code for a code the browser does not know. */
export function priceText(price: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).format(price);
  } catch {
    return `${currency} ${price}`;
  }
}
