/** How much of a menu one page carries: only what a guest can see, and no more items than a budget. */
import type { PublishedItem, PublishedMenu } from '#domain/cafes/published-menu.js';

/**
 * The most text a page's items may carry (by the length of their fields). A menu of 5000 items
 * with ordinary texts is about 1.5 MB of page; one with every field at its limit would be 80 MB,
 * costing every scan's render and every process's memory. Past this, the items after it are left
 * out and the page says how many; the owner's other pages, and other accounts', are unaffected.
 */
export const MENU_ITEM_BYTES_MAX = 8 * 1024 * 1024;

/** About how much page an item makes: its texts plus the markup around them. */
function itemWeight(item: PublishedItem): number {
  let weight = 600 + item.name.length * 3 + (item.description?.length ?? 0);
  for (const list of [item.ingredients, item.allergens, item.tags]) for (const entry of list) weight += entry.length * 2 + 20;
  return weight;
}

/** Only what a guest can see (empty categories and groups are left out), and no more items than `maxBytes` of them. */
export function withinBudget(groups: PublishedMenu['groups'], maxBytes: number) {
  let left = maxBytes;
  let cut = 0;
  const kept = groups
    .map((g) => ({
      ...g,
      categories: g.categories
        .map((c) => ({
          ...c,
          items: c.items.filter((item) => {
            left -= itemWeight(item);
            if (left >= 0) return true;
            cut++;
            return false;
          }),
        }))
        .filter((c) => c.items.length > 0),
    }))
    .filter((g) => g.categories.length > 0);
  return { groups: kept, cut };
}
