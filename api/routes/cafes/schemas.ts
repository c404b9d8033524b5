/**
 * The cafe endpoints' request and response schemas (view.ts builds the answers). JSON bodies are
 * checked as they are; the multipart forms (profile, groups, items) are checked on the form's text
 * fields gathered into an object (form.ts): every value a string, list fields arrays of strings,
 * booleans the text `true` / `false`. Text is kept exactly as sent (a blank required name is
 * refused); optional text sent empty clears the field. The limits and the plain inputs the use
 * cases take are the domain's (domain/cafes/schemas.ts).
 */
import { z } from 'zod';
import { hexColorSchema } from '#domain/colour-contrast.js';
import { SPICE_LEVELS } from '#domain/schema.js';
import { httpUrlHref, isIanaTimezone, TIMEZONE_MAX, URL_MAX, EMAIL_MAX } from '#domain/links/data/index.js';
import { qrOptionsSchema } from '#domain/qr/options.js';
import { MENU_THEME_KEYS } from '#domain/cafes/themes.js';
import {
  ADDRESS_MAX,
  CAFE_DESCRIPTION_MAX,
  CATEGORY_DESCRIPTION_MAX,
  CATEGORY_TYPE_MAX,
  FACILITIES_MAX,
  ORDER_MAX,
  PHONE_MAX,
  PROFILE_TEXT_MAX,
  REORDER_MAX,
  SOCIAL_LINKS_MAX,
  WEEKDAYS,
} from '#domain/cafes/schemas.js';
import {
  atMost,
  clearableText,
  currency,
  ITEM_DESCRIPTION_MAX,
  ITEM_LIST_ENTRY_MAX,
  itemList,
  nameText,
  PRICE_MESSAGE,
  requiredText,
  strict,
  typeError,
} from '#domain/cafes/schema-parts.js';
import { canonicalLanguageTag, LANGUAGE_TAG_MAX, LANGUAGE_TAG_MESSAGE } from '#platform/format/language-tag.js';

const THEME_MESSAGE = `Must be one of: ${MENU_THEME_KEYS.join(', ')}`;
const ORDER_MESSAGE = `Must be a whole number from 0 to ${ORDER_MAX}`;
const BOOLEAN_TEXT_MESSAGE = 'Must be true or false';

/** A menu position: 0 first; lists are sorted by it, then by creation. */
const orderNumber = () => z.int({ error: ORDER_MESSAGE }).min(0, { error: ORDER_MESSAGE }).max(ORDER_MAX, { error: ORDER_MESSAGE });

/** An id in a body. Any text is accepted here; one that is not in the cafe is a 400 naming it. */
const bodyId = (what: string) =>
  z
    .string({ error: typeError('Must be a string') })
    .max(64, { error: `${what} not found in this cafe` })
    .meta({ format: 'uuid' });

const urlText = () => z.string({ error: typeError('Must be a string') }).max(URL_MAX, { error: atMost(URL_MAX) });

function hrefOrIssue(value: string, ctx: z.RefinementCtx, message: string) {
  const href = httpUrlHref(value);
  if (href !== null) return href;
  ctx.addIssue({ code: 'custom', message });
  return z.NEVER;
}

const httpUrl = () => urlText().transform((value, ctx) => hrefOrIssue(value, ctx, 'Must be an http(s) URL'));

/** '' clears the field (null); anything else must be an http(s) URL, said in one message. */
const clearableHttpUrl = () =>
  urlText().transform((value, ctx) => (value === '' ? null : hrefOrIssue(value, ctx, 'Must be an http(s) URL, or empty to clear it')));

// ---------------------------------------------------------------------------------------------
// Cafes (JSON)

const timeOfDay = z
  .string({ error: typeError('Must be a string') })
  .regex(/^(?:(?:[01]\d|2[0-3]):[0-5]\d|24:00)$/, { error: 'Must be a time HH:MM from 00:00 to 24:00' });

/** `to` before `from` is a range past midnight (a bar open 18:00-02:00). */
const timeRange = strict({ from: timeOfDay, to: timeOfDay }).refine((r) => r.from !== r.to, {
  error: 'Must differ from from',
  path: ['to'],
});

const dayHours = strict({
  day: z.enum(WEEKDAYS, { error: typeError(`Must be one of: ${WEEKDAYS.join(', ')}`) }),
  enabled: z.boolean({ error: typeError(BOOLEAN_TEXT_MESSAGE) }),
  ranges: z
    .array(timeRange, { error: typeError('Must be an array') })
    .max(6, { error: 'Must have at most 6 items' })
    .default([]),
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

/** The menu page's language, stored canonical; null or empty: each guest's browser language. */
const cafeLanguage = z
  .string({ error: typeError('Must be a string') })
  .max(LANGUAGE_TAG_MAX, { error: atMost(LANGUAGE_TAG_MAX) })
  .nullable()
  .transform((tag, ctx) => {
    if (!tag) return null;
    const canonical = canonicalLanguageTag(tag);
    if (!canonical) ctx.addIssue({ code: 'custom', message: LANGUAGE_TAG_MESSAGE });
    return canonical ?? z.NEVER;
  })
  .meta({
    description:
      "The menu page's language (BCP 47, e.g. pt-PT, en, de), stored canonical; null or empty: each guest's browser language among en, pt, es, fr, de, else English",
  });

export const createCafeBody = strict({
  name: nameText(),
  description: clearableText(CAFE_DESCRIPTION_MAX).optional(),
  language: cafeLanguage.optional(),
});

export const updateCafeBody = strict({
  name: nameText().optional(),
  description: clearableText(CAFE_DESCRIPTION_MAX).optional(),
  timezone: timezone.optional().meta({ description: 'IANA time zone the operating hours are in (default UTC)' }),
  language: cafeLanguage.optional(),
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
    language: 'pt-PT',
    operating_hours: [
      { day: 'monday', enabled: true, ranges: [{ from: '08:00', to: '15:00' }] },
      {
        day: 'friday',
        enabled: true,
        ranges: [
          { from: '08:00', to: '15:00' },
          { from: '19:00', to: '01:00' },
        ],
      },
      { day: 'sunday', enabled: false, ranges: [] },
    ],
    facilities: ['wifi', 'terrace', 'wheelchair access'],
    social_links: [{ platform: 'instagram', url: 'https://instagram.com/cafe.lisboa' }],
    qr_options: { dotsOptions: { type: 'rounded', color: '#6b4423' } },
  },
});

export const themeBody = strict({
  themeImage: z.enum(MENU_THEME_KEYS, { error: typeError(THEME_MESSAGE) }).meta({ description: 'The menu page’s theme' }),
  primaryColor: hexColorSchema.nullable().optional().meta({ description: 'Replaces the theme’s primary color; null returns to it' }),
  secondaryColor: hexColorSchema.nullable().optional().meta({ description: 'Replaces the theme’s secondary color; null returns to it' }),
  showDietarySection: z.boolean({ error: typeError(BOOLEAN_TEXT_MESSAGE) }).optional(),
}).meta({ example: { themeImage: 'rustic', primaryColor: '#6b4423', secondaryColor: null, showDietarySection: true } });

// ---------------------------------------------------------------------------------------------
// Multipart form fields

const formBoolean = () => z.enum(['true', 'false'], { error: typeError(BOOLEAN_TEXT_MESSAGE) }).transform((v) => v === 'true');

const formOrder = () =>
  z
    .string({ error: typeError('Must be a string') })
    .regex(/^\d{1,10}$/, { error: ORDER_MESSAGE })
    .transform(Number)
    .refine((n) => n <= ORDER_MAX, { error: ORDER_MESSAGE });

/** Kept as text: the column is exact numeric, and a float would round 0.1 + 0.2. */
const formPrice = () => z.string({ error: typeError('Must be a string') }).regex(/^\d{1,9}(?:\.\d{1,3})?$/, { error: PRICE_MESSAGE });

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

const groupFields = {
  name: nameText(),
  visible: formBoolean().optional(),
  order: formOrder().optional(),
};
export const createGroupForm = strict(groupFields);
export const updateGroupForm = strict({ ...groupFields, name: nameText().optional(), delete_image: formBoolean().optional() });

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

/** What a multipart route documents: its text fields plus its file fields (the handler reads the parts). */
export function formDocument<T extends z.ZodObject>(form: T, files: readonly string[], description: string) {
  const fileShape = Object.fromEntries(
    files.map((f) => [
      f,
      z
        .string()
        .meta({ format: 'binary', description: 'An image (PNG, JPEG, WebP, GIF or SVG); its type is read from its content' })
        .optional(),
    ]),
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
  example: {
    name: 'Coffee',
    description: 'Single origin, roasted in house',
    group_id: '0b9c6f57-3d0e-4d67-9a43-7c1f0f1d2e11',
    type: 'drinks',
    visible: true,
  },
});
export const updateCategoryBody = strict({
  ...categoryFields,
  name: categoryFields.name.optional(),
  delete_image: z
    .boolean({ error: typeError(BOOLEAN_TEXT_MESSAGE) })
    .optional()
    .meta({ description: 'true removes the image' }),
});

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

export const listItemsQuery = z.object({
  category_id: z.string().max(64).optional().meta({ description: 'Only the items of this category' }),
});

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
  language: z.string().nullable().meta({ description: "The menu page's language (BCP 47); null: each guest's browser language" }),
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
