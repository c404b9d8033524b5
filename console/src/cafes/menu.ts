/**
 * The menu editor's mapping: the API's flat groups, categories and items as the tree the guest
 * page shows; moving an entry by one place or by a drag, and the reorder body that says so; the
 * item, group and category forms as the bodies their endpoints take (checked here first, keyed by
 * the body's paths), with the dietary tags and allergens the guest page understands as choices;
 * and prices in words as the guest page writes them.
 */
import { COMMON_ALLERGENS, DIETS, dietOf, filterKey, SPICE_LABELS } from '#domain/cafes/diets.js';
import type { paths } from '../api/schema.js';

export type Group = paths['/api/v1/cafes/{id}/groups']['get']['responses'][200]['content']['application/json']['data'][number];
export type Category = paths['/api/v1/cafes/{id}/categories']['get']['responses'][200]['content']['application/json']['data'][number];
export type Item = paths['/api/v1/cafes/{id}/items']['get']['responses'][200]['content']['application/json']['data'][number];
export type SpiceLevel = Item['spice_level'];

export interface TreeCategory {
  category: Category;
  items: Item[];
}
export interface TreeGroup {
  /** null: the categories whose group was deleted, which the guest page shows after the groups. */
  group: Group | null;
  categories: TreeCategory[];
}

/** The menu as the guest page orders it: groups, their categories, their items, each in the API's order (the lists come sorted). */
export function menuTree(groups: readonly Group[], categories: readonly Category[], items: readonly Item[]): TreeGroup[] {
  const itemsOf = new Map<string, Item[]>();
  for (const item of items) itemsOf.set(item.category_id, [...(itemsOf.get(item.category_id) ?? []), item]);
  const known = new Set(groups.map((g) => g.id));
  const under = (groupId: string | null) =>
    categories
      .filter((c) => (groupId === null ? c.group_id === null || !known.has(c.group_id) : c.group_id === groupId))
      .map((category) => ({ category, items: itemsOf.get(category.id) ?? [] }));
  const tree: TreeGroup[] = groups.map((group) => ({ group, categories: under(group.id) }));
  const ungrouped = under(null);
  if (ungrouped.length > 0) tree.push({ group: null, categories: ungrouped });
  return tree;
}

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

/**
 * The flat list with the entries named in `next` put in `next`'s order, in the places they held,
 * the others where they are: a reorder shown at once, before the API has answered.
 */
export function reordered<T extends { id: string }>(all: readonly T[], next: ReadonlyArray<{ id: string }>): T[] {
  const byId = new Map(all.map((e) => [e.id, e]));
  const moving = new Set(next.map((e) => e.id));
  let k = 0;
  return all.map((e) => (moving.has(e.id) ? byId.get(next[k++]!.id)! : e));
}

/** Text as a search compares it: lower case, accents dropped (café finds cafe, and cafe café). */
const folded = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/**
 * The tree with only the dishes whose name or description holds `query` (ignoring case and
 * accents), and only the categories and groups that hold them; the whole tree for a blank query.
 */
export function searchTree(tree: readonly TreeGroup[], query: string): TreeGroup[] {
  const wanted = folded(query.trim());
  if (!wanted) return [...tree];
  const matches = (item: Item) => folded(item.name).includes(wanted) || folded(item.description ?? '').includes(wanted);
  return tree.flatMap((branch) => {
    const categories = branch.categories.flatMap((c) => {
      const items = c.items.filter(matches);
      return items.length > 0 ? [{ ...c, items }] : [];
    });
    return categories.length > 0 ? [{ ...branch, categories }] : [];
  });
}

/**
 * Past this many dishes a menu's categories start closed (each still a row with its name and
 * count), so a big menu is a list of categories to open rather than a page of every dish
 * (decision 0389). Groups start open: there are few of them.
 */
export const OPEN_CATEGORIES_MAX_DISHES = 30;

/** Whether a group or category is open: as the owner left it in this tab, else by the rule above. */
export function isOpen(stored: Readonly<Record<string, boolean>>, id: string, level: 'group' | 'category', dishes: number): boolean {
  return stored[id] ?? (level === 'group' || dishes <= OPEN_CATEGORIES_MAX_DISHES);
}

/** A delete in words, for the toast that offers its Undo: what went with it, or where what stays went. */
export function deletedText(
  name: string,
  what: { kind: 'group'; categories: number; items: number } | { kind: 'category'; items: number } | { kind: 'item' },
): string {
  const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  const deleted = `“${name}” deleted`;
  if (what.kind === 'item' || (what.kind === 'category' && what.items === 0)) return `${deleted}.`;
  if (what.kind === 'category') return `${deleted}, with its ${count(what.items, 'dish', 'dishes')}.`;
  if (what.categories === 0) return `${deleted}.`;
  return `${deleted}: its ${count(what.categories, 'category', 'categories')} (${count(what.items, 'dish', 'dishes')}) ${what.categories === 1 ? 'stays' : 'stay'} on the menu page, under “Not in a group”.`;
}

// ---------------------------------------------------------------------------------------------
// Items

/** The API's price text: up to 9 digits, and up to 3 decimals. */
const PRICE = /^\d{1,9}(\.\d{1,3})?$/;

/** The dietary tags offered as choices (the guest page's badges and filters), by key. */
export const DIET_CHOICES: ReadonlyArray<{ key: string; label: string }> = Object.entries(DIETS).map(([key, { label }]) => ({
  key,
  label,
}));
export { COMMON_ALLERGENS };

/** Spice levels, mildest first, in the page's words. */
export const SPICE_CHOICES = Object.entries(SPICE_LABELS).map(([value, label]) => ({ value: value as SpiceLevel, label }));

/** An item's form as typed: lists as text (one entry per line or comma), dietary tags and common allergens as choices. */
export interface ItemDraft {
  categoryId: string;
  name: string;
  price: string;
  currency: string;
  description: string;
  ingredients: string;
  /** Keys of DIETS. */
  diets: string[];
  otherTags: string;
  /** Entries of COMMON_ALLERGENS. */
  allergens: string[];
  otherAllergens: string;
  spiceLevel: SpiceLevel;
  featured: boolean;
  isNew: boolean;
  recommended: boolean;
  visible: boolean;
  image: File | null;
  deleteImage: boolean;
}

/** A new dish's draft in a category (its currency the one last used, or EUR), or a stored item's. */
export function itemDraftOf(from: Item | { categoryId: string; currency: string }): ItemDraft {
  if (!('id' in from)) {
    return {
      categoryId: from.categoryId,
      name: '',
      price: '',
      currency: from.currency,
      description: '',
      ingredients: '',
      diets: [],
      otherTags: '',
      allergens: [],
      otherAllergens: '',
      spiceLevel: 'none',
      featured: false,
      isNew: false,
      recommended: false,
      visible: true,
      image: null,
      deleteImage: false,
    };
  }
  const commonByKey = new Map(COMMON_ALLERGENS.map((a) => [filterKey(a), a]));
  return {
    categoryId: from.category_id,
    name: from.name,
    price: priceField(from.price),
    currency: from.currency,
    description: from.description ?? '',
    ingredients: from.ingredients.join('\n'),
    diets: [...new Set(from.tags.map(dietOf).filter((d): d is string => d !== null))],
    otherTags: from.tags.filter((t) => dietOf(t) === null).join(', '),
    allergens: [
      ...new Set(
        from.allergens.flatMap((a): string[] => {
          const common = commonByKey.get(filterKey(a));
          return common ? [common] : [];
        }),
      ),
    ],
    otherAllergens: from.allergens.filter((a) => !commonByKey.has(filterKey(a))).join(', '),
    spiceLevel: from.spice_level,
    featured: from.is_featured,
    isNew: from.is_new,
    recommended: from.is_recommended,
    visible: from.visible,
    image: null,
    deleteImage: false,
  };
}

/** Entries of a list typed one per line or separated by commas, trimmed, each once (ignoring case). */
export function listEntries(text: string): string[] {
  const seen = new Set<string>();
  return text
    .split(/[\n,]/)
    .map((e) => e.trim())
    .filter((e) => e && !seen.has(e.toLowerCase()) && seen.add(e.toLowerCase()));
}

/** The item's stored tags: the chosen dietary tags (by their label, which the page reads) and the others. */
export const tagsOf = (draft: Pick<ItemDraft, 'diets' | 'otherTags'>) => [
  ...draft.diets.flatMap((k) => (DIETS[k] ? [DIETS[k].label] : [])),
  ...listEntries(draft.otherTags).filter((t) => !draft.diets.includes(dietOf(t) ?? '')),
];
export const allergensOf = (draft: Pick<ItemDraft, 'allergens' | 'otherAllergens'>) => {
  const chosen = new Set(draft.allergens.map(filterKey));
  return [...draft.allergens, ...listEntries(draft.otherAllergens).filter((a) => !chosen.has(filterKey(a)))];
};

/**
 * The item's multipart body (POST /items or PUT /items/:id, every field sent, so an edit saves
 * what the form shows), or what to fix first by body path; a comma in the price is the decimal point.
 */
export function itemFormData(draft: ItemDraft): { form: FormData } | { errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const name = draft.name.trim();
  const price = draft.price.trim().replace(',', '.');
  const currency = draft.currency.trim().toUpperCase();
  if (!name) errors.name = 'Give the dish a name.';
  if (!PRICE.test(price)) errors.price = 'A price such as 4.50 (up to 3 decimals).';
  if (!/^[A-Z]{3}$/.test(currency)) errors.currency = 'A three-letter currency code such as EUR.';
  if (Object.keys(errors).length > 0) return { errors };
  const form = new FormData();
  const text: Record<string, string> = {
    category_id: draft.categoryId,
    name,
    price,
    currency,
    description: draft.description.trim(),
    spice_level: draft.spiceLevel,
    is_featured: String(draft.featured),
    is_new: String(draft.isNew),
    is_recommended: String(draft.recommended),
    visible: String(draft.visible),
    // One field holding a JSON array each: an empty list clears the stored one.
    ingredients: JSON.stringify(listEntries(draft.ingredients)),
    tags: JSON.stringify(tagsOf(draft)),
    allergens: JSON.stringify(allergensOf(draft)),
  };
  for (const [field, value] of Object.entries(text)) form.append(field, value);
  if (draft.image) form.append('image', draft.image);
  else if (draft.deleteImage) form.append('delete_image', 'true');
  return { form };
}

/** The form's fields by the paths the API names; an entry of a list (`tags[3]`) is shown at its list. */
const ITEM_FIELD_OF: Readonly<Record<string, string>> = {
  tags: 'otherTags',
  allergens: 'otherAllergens',
  category_id: 'categoryId',
  spice_level: 'spiceLevel',
  delete_image: 'image',
};
export function itemErrorsAt(byPath: Readonly<Record<string, string>>): Record<string, string> {
  const placed: Record<string, string> = {};
  for (const [path, message] of Object.entries(byPath)) {
    const root = path.split('.')[0]!;
    const field = ITEM_FIELD_OF[root] ?? root;
    placed[field] ??= message;
  }
  return placed;
}

/** A stored price as the form shows it: two decimals as people write prices ("3.10"), or the three the API keeps. */
function priceField(price: number): string {
  const cents = price.toFixed(2);
  return Number(cents) === price ? cents : String(price);
}

/** A price as the guest page shows it (`€4.50`), or the bare number and code for a code the browser does not know. */
export function priceText(price: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).format(price);
  } catch {
    return `${currency} ${price}`;
  }
}

// ---------------------------------------------------------------------------------------------
// Groups and categories

export interface GroupDraft {
  name: string;
  visible: boolean;
  image: File | null;
  deleteImage: boolean;
}

export const groupDraftOf = (group: Group | null): GroupDraft => ({
  name: group?.name ?? '',
  visible: group?.visible ?? true,
  image: null,
  deleteImage: false,
});

/** A group's multipart body (POST /groups or PUT /groups/:id), or what to fix first. */
export function groupFormData(draft: GroupDraft): { form: FormData } | { errors: Record<string, string> } {
  const name = draft.name.trim();
  if (!name) return { errors: { name: 'Give the group a name (Drinks, Food…).' } };
  const form = new FormData();
  form.append('name', name);
  form.append('visible', String(draft.visible));
  if (draft.image) form.append('image', draft.image);
  else if (draft.deleteImage) form.append('delete_image', 'true');
  return { form };
}

export interface CategoryDraft {
  name: string;
  description: string;
  /** '' : not in a group. */
  groupId: string;
  visible: boolean;
  image: File | null;
  deleteImage: boolean;
}

export const categoryDraftOf = (category: Category | null, groupId: string | null): CategoryDraft => ({
  name: category?.name ?? '',
  description: category?.description ?? '',
  groupId: (category ? category.group_id : groupId) ?? '',
  visible: category?.visible ?? true,
  image: null,
  deleteImage: false,
});

/** A category's JSON body (POST /categories or PUT /categories/:id; its image goes separately), or what to fix first. */
export function categoryBody(
  draft: CategoryDraft,
  editing: boolean,
):
  | { body: { name: string; description: string; group_id: string | null; visible: boolean; delete_image?: boolean } }
  | { errors: Record<string, string> } {
  const name = draft.name.trim();
  if (!name) return { errors: { name: 'Give the category a name (Coffee, Breakfast…).' } };
  return {
    body: {
      name,
      description: draft.description.trim(),
      group_id: draft.groupId || null,
      visible: draft.visible,
      ...(editing && draft.deleteImage && !draft.image ? { delete_image: true } : {}),
    },
  };
}
