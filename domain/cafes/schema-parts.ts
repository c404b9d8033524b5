/**
 * The pieces the cafe schemas are built from (messages, text, price, currency, lists), apart from
 * the api's cafe schemas (api/routes/cafes/schemas.ts) so the console can check a bulk insert body
 * (bulk-insert-schema.ts) without bundling what that module also imports (the database schema).
 */
import { z } from 'zod';
import { isCurrencyCode } from '../links/data/codes.js';

export const NAME_MAX = 255;
export const ITEM_DESCRIPTION_MAX = 2000;
/** Entries of one item's ingredients, tags or allergens, and the length of each. */
export const ITEM_LIST_MAX = 50;
export const ITEM_LIST_ENTRY_MAX = 100;
/** Items a cafe holds at most (hidden ones too), and so the entries of one bulk insert (a whole menu). */
export const MENU_ITEMS_MAX = 5000;
export const PRICE_MAX_TEXT = '999999999.999';
/** An item's spice levels (the cafe_items check constraint's values). */
export const SPICE_LEVELS = ['none', 'mild', 'medium', 'hot', 'extra_hot'] as const;

export const REQUIRED = 'Required';
export const atMost = (max: number) => `Must be at most ${max} characters`;
export const typeError = (expected: string) => (issue: { input?: unknown }) => (issue.input === undefined ? REQUIRED : expected);
export const PRICE_MESSAGE = `Must be a number from 0 to ${PRICE_MAX_TEXT} with at most 3 decimals`;

/** Unknown members are "Unknown field" (zodIssuesToFieldErrors); a wrong type says what was expected. */
export function strict<T extends z.core.$ZodLooseShape>(shape: T) {
  return z.strictObject(shape, { error: (issue) => (issue.code === 'invalid_type' ? typeError('Must be an object')(issue) : undefined) });
}

/** Required text: not blank, at most `max` characters, kept exactly as sent. */
export const requiredText = (max: number) =>
  z
    .string({ error: typeError('Must be a string') })
    .refine((s) => s.trim().length > 0, { error: REQUIRED, abort: true })
    .max(max, { error: atMost(max) });
export const nameText = () => requiredText(NAME_MAX);

/** Optional text: null or empty clears it. */
export const clearableText = (max: number) =>
  z
    .string({ error: typeError('Must be a string') })
    .max(max, { error: atMost(max) })
    .nullable()
    .transform((s) => (s === '' ? null : s));

export const currency = () =>
  z
    .string({ error: typeError('Must be a string') })
    .refine(isCurrencyCode, { error: 'Must be an ISO 4217 currency code such as USD' })
    .transform((c) => c.toUpperCase())
    .meta({ description: 'An ISO 4217 currency code (any case, stored uppercase)', example: 'USD' });

/**
 * An item's ingredients, tags or allergens: in a form, repeated fields or one field holding a JSON
 * array of strings (gathered by the form reader); in bulk insert's JSON, an array of strings.
 */
export const itemList = () =>
  z
    .array(requiredText(ITEM_LIST_ENTRY_MAX), { error: typeError('Must be a list of strings') })
    .max(ITEM_LIST_MAX, { error: `Must have at most ${ITEM_LIST_MAX} items` });
