/**
 * Bulk insert's JSON body (a whole menu replaces the cafe's) and its result. Its own module, built
 * only from schema-parts.ts, so the console's CSV import (console/src/cafes/menu-import.ts) checks
 * the rows with this very schema before it sends them.
 */
import { z } from 'zod';
import {
  clearableText,
  currency,
  ITEM_DESCRIPTION_MAX,
  itemList,
  MENU_ITEMS_MAX,
  nameText,
  PRICE_MAX_TEXT,
  PRICE_MESSAGE,
  SPICE_LEVELS,
  strict,
  typeError,
} from './schema-parts.js';

/** The group of the entries that name none. */
export const GENERAL_GROUP = 'General';

/** A JSON price: a number ≥ 0 with at most 3 decimals, kept as exact text for the numeric column. */
const jsonPrice = () =>
  z
    .number({ error: typeError(PRICE_MESSAGE) })
    .refine((n) => n >= 0 && n <= Number(PRICE_MAX_TEXT) && Number(n.toFixed(3)) === n, { error: PRICE_MESSAGE })
    .transform((n) => n.toFixed(3));

const bulkInsertEntry = strict({
  name: nameText(),
  price: jsonPrice(),
  currency: currency(),
  category: nameText().meta({
    description: 'A category name; entries naming the same one (ignoring case) share it, named as the first of them writes it',
  }),
  group: nameText()
    .optional()
    .meta({ description: `A group name (entries naming the same one, ignoring case, share it); none: the ${GENERAL_GROUP} group` }),
  description: clearableText(ITEM_DESCRIPTION_MAX).optional(),
  ingredients: itemList().optional(),
  tags: itemList().optional().meta({ description: 'Such as vegan or gluten-free: the menu page shows the dietary ones as badges' }),
  allergens: itemList().optional(),
  spice_level: z.enum(SPICE_LEVELS, { error: typeError(`Must be one of: ${SPICE_LEVELS.join(', ')}`) }).optional(),
});

/** Which group (compared ignoring case) an entry's category is in. */
export const groupKeyOf = (entry: { group?: string | undefined }) => (entry.group ?? GENERAL_GROUP).toLowerCase();

/** Which category (compared ignoring case) an entry is in; the first entry naming it spells it. */
export const categoryKeyOf = (entry: { category: string }) => entry.category.toLowerCase();

export const bulkInsertBody = strict({
  items: z
    .array(bulkInsertEntry, { error: typeError('Must be an array') })
    .min(1, { error: 'Must have at least 1 item' })
    .max(MENU_ITEMS_MAX, { error: `Must have at most ${MENU_ITEMS_MAX} items` })
    // A category is in one group: the cafe's category names are unique. Checked also when other
    // entries have errors (`when`; zod still skips it after a blank required text, which aborts),
    // on the entries whose category and group are text, so one answer lists the problems together.
    .superRefine(
      (entries, ctx) => {
        const firstOf = new Map<string, { index: number; category: string; group: string | undefined }>();
        entries.forEach((entry: unknown, i) => {
          const { category, group } = (entry ?? {}) as { category?: unknown; group?: unknown };
          if (typeof category !== 'string' || !(group === undefined || typeof group === 'string')) return;
          const key = category.toLowerCase();
          const first = firstOf.get(key);
          if (first === undefined) firstOf.set(key, { index: i, category, group });
          else if (groupKeyOf(first) !== groupKeyOf({ group })) {
            ctx.addIssue({
              code: 'custom',
              path: [i, 'group'],
              message: `Category "${first.category}" is already in group "${first.group ?? GENERAL_GROUP}" (entry ${first.index}); a category is in one group`,
            });
          }
        });
      },
      { when: (payload) => Array.isArray(payload.value) },
    ),
}).meta({
  example: {
    items: [
      { name: 'Espresso', price: 2.5, currency: 'EUR', category: 'Coffee', group: 'Drinks', ingredients: ['coffee'] },
      { name: 'Flat white', price: 3.2, currency: 'EUR', category: 'coffee', group: 'Drinks', description: 'Double shot, steamed milk' },
      {
        name: 'Pastel de nata',
        price: 1.4,
        currency: 'EUR',
        category: 'Pastries',
        tags: ['vegetarian'],
        allergens: ['Gluten', 'Eggs', 'Milk'],
      },
      { name: 'Piri-piri chicken', price: 9.5, currency: 'EUR', category: 'Mains', spice_level: 'hot' },
    ],
  },
});
export type BulkInsertEntry = z.output<typeof bulkInsertEntry>;
export type BulkInsertBody = z.output<typeof bulkInsertBody>;

export const bulkInsertResult = z
  .object({
    groups: z
      .number()
      .int()
      .meta({ description: `Groups made (the ${GENERAL_GROUP} group included)` }),
    categories: z.number().int(),
    items: z.number().int(),
    deleted: z
      .object({ groups: z.number().int(), categories: z.number().int(), items: z.number().int() })
      .meta({ description: 'What the menu held before' }),
  })
  .meta({ example: { groups: 2, categories: 2, items: 3, deleted: { groups: 1, categories: 4, items: 37 } } });
export type BulkInsertResult = z.output<typeof bulkInsertResult>;

/**
 * What the cafe-bulk-insert job carries: entries already checked by the api (bulkInsertBody),
 * packed by its body thread (`packedItems`: the entries' JSON, gzipped, base64) so that a 14 MB
 * menu never passes the api's event loop as objects or as text: only as a string a fraction of
 * its size, on its way to the jobs row (docs/decisions/0398-bulk-insert-entries-packed-in-the-thread.md).
 * Jobs queued before carry `items`.
 */
export type CafeBulkInsertPayload = { cafeId: string } & ({ packedItems: string } | { items: BulkInsertEntry[] });
