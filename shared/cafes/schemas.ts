/**
 * Request and response schemas of the cafe endpoints. JSON bodies are checked as they are; the
 * multipart forms (profile, groups, items) are checked on the form's text fields gathered into an
 * object (api/routes/cafes/form.ts): every value a string, list fields arrays of strings, booleans
 * the text `true` / `false`. Text is kept exactly as sent (a blank required name is refused);
 * optional text sent empty clears the field.
 */
import { z } from 'zod';
import { hexColorSchema } from '../format/hex-color.js';
import { SPICE_LEVELS } from '../../db/schema.js';
import { httpUrlHref, isCurrencyCode, isIanaTimezone, TIMEZONE_MAX, URL_MAX, EMAIL_MAX } from '../links/data/index.js';
import { qrOptionsSchema } from '../qr/options.js';
import { MENU_THEME_KEYS } from './themes.js';

export const NAME_MAX = 255;
export const CAFE_DESCRIPTION_MAX = 2000;
export const ITEM_DESCRIPTION_MAX = 2000;
export const CATEGORY_DESCRIPTION_MAX = 1000;
export const CATEGORY_TYPE_MAX = 50;
export const PROFILE_TEXT_MAX = 255;
export const ADDRESS_MAX = 500;
export const PHONE_MAX = 50;
/** Entries of one item's ingredients, tags or allergens, and the length of each. */
export const ITEM_LIST_MAX = 50;
export const ITEM_LIST_ENTRY_MAX = 100;
export const FACILITIES_MAX = 50;
export const SOCIAL_LINKS_MAX = 20;
/** Items a cafe holds at most (hidden ones too), and so the entries of one bulk insert (a whole menu). */
export const MENU_ITEMS_MAX = 5000;
/** Entries of one reorder request: a whole menu's items, so bulk insert's limit. */
const REORDER_MAX = MENU_ITEMS_MAX;
export const ORDER_MAX = 2_147_483_647;
export const PRICE_MAX_TEXT = '999999999.999';
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

const REQUIRED = 'Required';
const atMost = (max: number) => `Must be at most ${max} characters`;
const typeError = (expected: string) => (issue: { input?: unknown }) => (issue.input === undefined ? REQUIRED : expected);
const THEME_MESSAGE = `Must be one of: ${MENU_THEME_KEYS.join(', ')}`;
const ORDER_MESSAGE = `Must be a whole number from 0 to ${ORDER_MAX}`;
const PRICE_MESSAGE = `Must be a number from 0 to ${PRICE_MAX_TEXT} with at most 3 decimals`;
const BOOLEAN_TEXT_MESSAGE = 'Must be true or false';

/** Unknown members are "Unknown field" (zodIssuesToFieldErrors); a wrong type says what was expected. */
function strict<T extends z.core.$ZodLooseShape>(shape: T) {
  return z.strictObject(shape, { error: (issue) => (issue.code === 'invalid_type' ? typeError('Must be an object')(issue) : undefined) });
}

/** Required text: not blank, at most `max` characters, kept exactly as sent. */
const requiredText = (max: number) =>
  z
    .string({ error: typeError('Must be a string') })
    .refine((s) => s.trim().length > 0, { error: REQUIRED, abort: true })
    .max(max, { error: atMost(max) });
const nameText = () => requiredText(NAME_MAX);

/** Optional text: null or empty clears it. */
const clearableText = (max: number) =>
  z
    .string({ error: typeError('Must be a string') })
    .max(max, { error: atMost(max) })
    .nullable()
    .transform((s) => (s === '' ? null : s));

/** A menu position: 0 first; lists are sorted by it, then by creation. */
const orderNumber = () => z.int({ error: ORDER_MESSAGE }).min(0, { error: ORDER_MESSAGE }).max(ORDER_MAX, { error: ORDER_MESSAGE });

/** An id in a body. Any text is accepted here; one that is not in the cafe is a 400 naming it. */
const bodyId = (what: string) => z.string({ error: typeError('Must be a string') }).max(64, { error: `${what} not found in this cafe` }).meta({ format: 'uuid' });

const urlText = () => z.string({ error: typeError('Must be a string') }).max(URL_MAX, { error: atMost(URL_MAX) });

function hrefOrIssue(value: string, ctx: z.RefinementCtx, message: string) {
  const href = httpUrlHref(value);
  if (href !== null) return href;
  ctx.addIssue({ code: 'custom', message });
  return z.NEVER;
}

const httpUrl = () => urlText().transform((value, ctx) => hrefOrIssue(value, ctx, 'Must be an http(s) URL'));

/** '' clears the field (null); anything else must be an http(s) URL, said in one message. */
const clearableHttpUrl = () => urlText().transform((value, ctx) => (value === '' ? null : hrefOrIssue(value, ctx, 'Must be an http(s) URL, or empty to clear it')));

// ---------------------------------------------------------------------------------------------
// Cafes (JSON)

const timeOfDay = z
  .string({ error: typeError('Must be a string') })
  .regex(/^(?:(?:[01]\d|2[0-3]):[0-5]\d|24:00)$/, { error: 'Must be a time HH:MM from 00:00 to 24:00' });

/** `to` before `from` is a range past midnight (a bar open 18:00-02:00). */
const timeRange = strict({ from: timeOfDay, to: timeOfDay }).refine((r) => r.from !== r.to, { error: 'Must differ from from', path: ['to'] });

const dayHours = strict({
  day: z.enum(WEEKDAYS, { error: typeError(`Must be one of: ${WEEKDAYS.join(', ')}`) }),
  enabled: z.boolean({ error: typeError(BOOLEAN_TEXT_MESSAGE) }),
  ranges: z.array(timeRange, { error: typeError('Must be an array') }).max(6, { error: 'Must have at most 6 items' }).default([]),
});

const operatingHours = z
  .array(dayHours, { error: typeError('Must be an array') })
  .max(7, { error: 'Must have at most 7 items' })
  .superRefine((days, ctx) => {
    const seen = new Set<string>();
    days.forEach((d, i) => {
      if (seen.has(d.day)) ctx.addIssue({ code: 'custom', message: 'Each day at most once', path: [i, 'day'] });
      seen.add(d.day);
    });
  });

const socialLink = strict({
  platform: requiredText(50),
  url: httpUrl(),
});

const timezone = z
  .string({ error: typeError('Must be a string') })
  .max(TIMEZONE_MAX, { error: atMost(TIMEZONE_MAX) })
  .refine(isIanaTimezone, { error: 'Must be an IANA time zone such as Europe/Paris' });

export const createCafeBody = strict({
  name: nameText(),
  description: clearableText(CAFE_DESCRIPTION_MAX).optional(),
});

export const updateCafeBody = strict({
  name: nameText().optional(),
  description: clearableText(CAFE_DESCRIPTION_MAX).optional(),
  timezone: timezone.optional().meta({ description: 'IANA time zone the operating hours are in (default UTC)' }),
  operating_hours: operatingHours.optional(),
  facilities: z
    .array(requiredText(ITEM_LIST_ENTRY_MAX), { error: typeError('Must be an array') })
    .max(FACILITIES_MAX, { error: `Must have at most ${FACILITIES_MAX} items` })
    .optional(),
  social_links: z
    .array(socialLink, { error: typeError('Must be an array') })
    .max(SOCIAL_LINKS_MAX, { error: `Must have at most ${SOCIAL_LINKS_MAX} items` })
    .optional(),
  qr_options: qrOptionsSchema.optional().meta({ description: "The QR styling of the cafe's link, checked as PATCH /links/:id's" }),
}).meta({
  example: {
    timezone: 'Europe/Lisbon',
    operating_hours: [
      { day: 'monday', enabled: true, ranges: [{ from: '08:00', to: '15:00' }] },
      { day: 'friday', enabled: true, ranges: [{ from: '08:00', to: '15:00' }, { from: '19:00', to: '01:00' }] },
      { day: 'sunday', enabled: false, ranges: [] },
    ],
    facilities: ['wifi', 'terrace', 'wheelchair access'],
    social_links: [{ platform: 'instagram', url: 'https://instagram.com/cafe.lisboa' }],
    qr_options: { dotsOptions: { type: 'rounded', color: '#6b4423' } },
  },
});
export type UpdateCafeBody = z.output<typeof updateCafeBody>;


export const themeBody = strict({
  themeImage: z.enum(MENU_THEME_KEYS, { error: typeError(THEME_MESSAGE) }).meta({ description: 'The menu page’s theme' }),
  primaryColor: hexColorSchema.nullable().optional().meta({ description: 'Replaces the theme’s primary color; null returns to it' }),
  secondaryColor: hexColorSchema.nullable().optional().meta({ description: 'Replaces the theme’s secondary color; null returns to it' }),
  showDietarySection: z.boolean({ error: typeError(BOOLEAN_TEXT_MESSAGE) }).optional(),
}).meta({ example: { themeImage: 'rustic', primaryColor: '#6b4423', secondaryColor: null, showDietarySection: true } });
export type ThemeBody = z.output<typeof themeBody>;

// ---------------------------------------------------------------------------------------------
// Multipart form fields

const formBoolean = () =>
  z.enum(['true', 'false'], { error: typeError(BOOLEAN_TEXT_MESSAGE) }).transform((v) => v === 'true');

const formOrder = () =>
  z
    .string({ error: typeError('Must be a string') })
    .regex(/^\d{1,10}$/, { error: ORDER_MESSAGE })
    .transform(Number)
    .refine((n) => n <= ORDER_MAX, { error: ORDER_MESSAGE });

/** Kept as text: the column is exact numeric, and a float would round 0.1 + 0.2. */
const formPrice = () =>
  z
    .string({ error: typeError('Must be a string') })
    .regex(/^\d{1,9}(?:\.\d{1,3})?$/, { error: PRICE_MESSAGE });

const currency = () =>
  z
    .string({ error: typeError('Must be a string') })
    .refine(isCurrencyCode, { error: 'Must be an ISO 4217 currency code such as USD' })
    .transform((c) => c.toUpperCase())
    .meta({ description: 'An ISO 4217 currency code (any case, stored uppercase)', example: 'USD' });

/**
 * An item's ingredients, tags or allergens: in a form, repeated fields or one field holding a JSON
 * array of strings (gathered by the form reader); in bulk insert's JSON, an array of strings.
 */
const itemList = () =>
  z
    .array(
      requiredText(ITEM_LIST_ENTRY_MAX),
      { error: typeError('Must be a list of strings') },
    )
    .max(ITEM_LIST_MAX, { error: `Must have at most ${ITEM_LIST_MAX} items` });

/** The form fields that may be sent more than once (each occurrence one entry). */
export const FORM_LIST_FIELDS: ReadonlySet<string> = new Set(['ingredients', 'tags', 'allergens']);

export const PROFILE_FILE_FIELDS = ['logo', 'cover'] as const;
export const IMAGE_FILE_FIELDS = ['image'] as const;

export const profileForm = strict({
  name: nameText().optional(),
  title: clearableText(PROFILE_TEXT_MAX).optional(),
  subtitle: clearableText(PROFILE_TEXT_MAX).optional(),
  address: clearableText(ADDRESS_MAX).optional(),
  phone: clearableText(PHONE_MAX).optional(),
  email: z
    .string({ error: typeError('Must be a string') })
    .max(EMAIL_MAX, { error: atMost(EMAIL_MAX) })
    .refine((s) => s === '' || z.regexes.email.test(s), { error: 'Must be a valid email' })
    .transform((s) => (s === '' ? null : s))
    .optional(),
  website: clearableHttpUrl().optional(),
  description: clearableText(CAFE_DESCRIPTION_MAX).optional(),
  delete_logo: formBoolean().optional(),
  delete_cover: formBoolean().optional(),
  /** The same flag as delete_cover, under the name some clients send. */
  'delete_cafe-cover': formBoolean().optional(),
});
export type ProfileForm = z.output<typeof profileForm>;

const groupFields = {
  name: nameText(),
  visible: formBoolean().optional(),
  order: formOrder().optional(),
};
export const createGroupForm = strict(groupFields);
export const updateGroupForm = strict({ ...groupFields, name: nameText().optional(), delete_image: formBoolean().optional() });
export type GroupForm = z.output<typeof updateGroupForm>;

const itemFields = {
  category_id: bodyId('Category'),
  name: nameText(),
  price: formPrice(),
  currency: currency().optional(),
  description: clearableText(ITEM_DESCRIPTION_MAX).optional(),
  visible: formBoolean().optional(),
  is_featured: formBoolean().optional(),
  is_new: formBoolean().optional(),
  is_recommended: formBoolean().optional(),
  spice_level: z.enum(SPICE_LEVELS, { error: typeError(`Must be one of: ${SPICE_LEVELS.join(', ')}`) }).optional(),
  ingredients: itemList().optional(),
  tags: itemList().optional(),
  allergens: itemList().optional(),
  order: formOrder().optional(),
};
export const createItemForm = strict(itemFields);
export const updateItemForm = strict({
  ...itemFields,
  category_id: itemFields.category_id.optional(),
  name: itemFields.name.optional(),
  price: itemFields.price.optional(),
  delete_image: formBoolean().optional(),
});
export type ItemForm = z.output<typeof updateItemForm>;

/** What a multipart route documents: its text fields plus its file fields (the handler reads the parts). */
export function formDocument<T extends z.ZodObject>(form: T, files: readonly string[], description: string) {
  const fileShape = Object.fromEntries(
    files.map((f) => [f, z.string().meta({ format: 'binary', description: 'An image (PNG, JPEG, WebP, GIF or SVG); its type is read from its content' }).optional()]),
  );
  return form.extend(fileShape).nullish().meta({ description });
}

// ---------------------------------------------------------------------------------------------
// Categories (JSON)

const categoryFields = {
  name: nameText(),
  description: clearableText(CATEGORY_DESCRIPTION_MAX).optional(),
  group_id: bodyId('Group').nullable().optional(),
  type: clearableText(CATEGORY_TYPE_MAX).optional().meta({ description: 'Free text such as food or drinks' }),
  order: orderNumber().optional(),
  visible: z.boolean({ error: typeError(BOOLEAN_TEXT_MESSAGE) }).optional(),
};
export const createCategoryBody = strict(categoryFields).meta({
  example: { name: 'Coffee', description: 'Single origin, roasted in house', group_id: '0b9c6f57-3d0e-4d67-9a43-7c1f0f1d2e11', type: 'drinks', visible: true },
});
export const updateCategoryBody = strict({
  ...categoryFields,
  name: categoryFields.name.optional(),
  delete_image: z.boolean({ error: typeError(BOOLEAN_TEXT_MESSAGE) }).optional().meta({ description: 'true removes the image' }),
});
export type CategoryBody = z.output<typeof updateCategoryBody>;

// ---------------------------------------------------------------------------------------------
// Reorder

const reorderEntry = (what: string) => strict({ id: bodyId(what), order: orderNumber() });
const reorderList = (what: string) =>
  z
    .array(reorderEntry(what), { error: typeError('Must be an array') })
    .min(1, { error: 'Must have at least 1 item' })
    .max(REORDER_MAX, { error: `Must have at most ${REORDER_MAX} items` });

const REORDER_EXAMPLE = [
  { id: '0b9c6f57-3d0e-4d67-9a43-7c1f0f1d2e11', order: 0 },
  { id: '5f2d7a3e-8c1b-4f6a-9e0d-2b3c4d5e6f70', order: 1 },
];
export const reorderGroupsBody = strict({ orders: reorderList('Group') }).meta({ example: { orders: REORDER_EXAMPLE } });
export const reorderCategoriesBody = strict({ orders: reorderList('Category') }).meta({ example: { orders: REORDER_EXAMPLE } });
/** Items are reordered with the array itself as the body. */
export const reorderItemsBody = reorderList('Item').meta({ example: REORDER_EXAMPLE });
export type ReorderEntry = { id: string; order: number };

export const listItemsQuery = z.object({
  category_id: z.string().max(64).optional().meta({ description: 'Only the items of this category' }),
});

// ---------------------------------------------------------------------------------------------
// Bulk insert (JSON): a whole menu replaces the cafe's

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
  category: nameText()
    .transform((c) => c.toLowerCase())
    .meta({ description: 'A category name; entries naming the same one (ignoring case) share it. Stored lowercased.' }),
  group: nameText().optional().meta({ description: `A group name (entries naming the same one, ignoring case, share it); none: the ${GENERAL_GROUP} group` }),
  description: clearableText(ITEM_DESCRIPTION_MAX).optional(),
  ingredients: itemList().optional(),
});

/** Which group (compared ignoring case) an entry's category is in. */
export const groupKeyOf = (entry: { group?: string | undefined }) => (entry.group ?? GENERAL_GROUP).toLowerCase();

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
        const firstOf = new Map<string, { index: number; group: string | undefined }>();
        entries.forEach((entry: unknown, i) => {
          const { category, group } = (entry ?? {}) as { category?: unknown; group?: unknown };
          if (typeof category !== 'string' || !(group === undefined || typeof group === 'string')) return;
          const name = category.toLowerCase();
          const first = firstOf.get(name);
          if (first === undefined) firstOf.set(name, { index: i, group });
          else if (groupKeyOf(first) !== groupKeyOf({ group })) {
            ctx.addIssue({
              code: 'custom',
              path: [i, 'group'],
              message: `Category "${name}" is already in group "${first.group ?? GENERAL_GROUP}" (entry ${first.index}); a category is in one group`,
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
      { name: 'Pastel de nata', price: 1.4, currency: 'EUR', category: 'Pastries' },
    ],
  },
});
export type BulkInsertEntry = z.output<typeof bulkInsertEntry>;

export const bulkInsertResult = z
  .object({
    groups: z.number().int().meta({ description: `Groups made (the ${GENERAL_GROUP} group included)` }),
    categories: z.number().int(),
    items: z.number().int(),
    deleted: z
      .object({ groups: z.number().int(), categories: z.number().int(), items: z.number().int() })
      .meta({ description: 'What the menu held before' }),
  })
  .meta({ example: { groups: 2, categories: 2, items: 3, deleted: { groups: 1, categories: 4, items: 37 } } });
export type BulkInsertResult = z.output<typeof bulkInsertResult>;

// ---------------------------------------------------------------------------------------------
// Answers

const timestamps = {
  created_at: z.string().meta({ description: 'ISO 8601' }),
  updated_at: z.string().meta({ description: 'ISO 8601' }),
};
const imageUrl = z.string().nullable().meta({ description: 'Where the image is served (the short-link host), or null' });

export const cafeResponse = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  timezone: z.string(),
  operating_hours: z.array(
    z.object({ day: z.enum(WEEKDAYS), enabled: z.boolean(), ranges: z.array(z.object({ from: z.string(), to: z.string() })) }),
  ),
  facilities: z.array(z.string()),
  social_links: z.array(z.object({ platform: z.string(), url: z.string() })),
  title: z.string().nullable(),
  subtitle: z.string().nullable(),
  address: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  website: z.string().nullable(),
  logo: imageUrl,
  cover: imageUrl,
  themeImage: z.enum(MENU_THEME_KEYS).meta({ description: 'The menu page’s theme (PUT /cafes/{id}/theme)' }),
  primaryColor: z.string().nullable().meta({ description: 'Replaces the theme’s primary color; null: the theme’s own' }),
  secondaryColor: z.string().nullable().meta({ description: 'Replaces the theme’s secondary color; null: the theme’s own' }),
  showDietarySection: z.boolean(),
  link: z
    .object({
      id: z.uuid(),
      dynamic_link_id: z.string(),
      full_dynamic_url: z.string(),
      qr_options: z.record(z.string(), z.unknown()),
    })
    .meta({ description: 'The menu link that serves the cafe (GET /links?menu=<cafe id> finds it)' }),
  ...timestamps,
});

export const groupResponse = z.object({
  id: z.uuid(),
  cafe_id: z.uuid(),
  name: z.string(),
  visible: z.boolean(),
  order: z.number().int(),
  image: imageUrl,
  ...timestamps,
});

export const categoryResponse = z.object({
  id: z.uuid(),
  cafe_id: z.uuid(),
  group_id: z.uuid().nullable(),
  name: z.string(),
  description: z.string().nullable(),
  type: z.string().nullable(),
  order: z.number().int(),
  visible: z.boolean(),
  image: imageUrl,
  ...timestamps,
});

export const itemResponse = z.object({
  id: z.uuid(),
  cafe_id: z.uuid(),
  category_id: z.uuid(),
  name: z.string(),
  price: z.number(),
  currency: z.string(),
  description: z.string().nullable(),
  visible: z.boolean(),
  is_featured: z.boolean(),
  is_new: z.boolean(),
  is_recommended: z.boolean(),
  spice_level: z.enum(SPICE_LEVELS),
  ingredients: z.array(z.string()),
  tags: z.array(z.string()),
  allergens: z.array(z.string()),
  image: imageUrl,
  order: z.number().int(),
  ...timestamps,
});
