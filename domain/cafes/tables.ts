/**
 * Cafes: digital menus (domain/cafes). A cafe is served by its link (type `menu`, `links.menu` =
 * the cafe's id) and goes with it. Every row carries the account and the cafe, so one cafe's menu
 * is one index range per table, and replacing a whole menu (bulk insert) is three deletes by
 * cafe_id and three inserts in one transaction. Writes to a menu hold the cafe row (FOR UPDATE)
 * first, so they never interleave with each other or with a bulk replacement.
 */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, numeric, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { id, createdAt, updatedAt } from '../columns.js';
import { accountId } from '../accounts/tables.js';
import { files } from '../files/tables.js';
import { links } from '../links/tables.js';

export const cafes = pgTable(
  'cafes',
  {
    id: id(),
    accountId: accountId(),
    /** The link that serves this cafe's menu (type menu); deleting the link deletes the cafe. */
    linkId: uuid('link_id')
      .notNull()
      .references(() => links.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    /** IANA zone the operating hours are read in (for "open now"). */
    timezone: text('timezone').notNull().default('UTC'),
    operatingHours: jsonb('operating_hours')
      .$type<unknown[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    facilities: jsonb('facilities')
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    socialLinks: jsonb('social_links')
      .$type<unknown[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    title: text('title'),
    subtitle: text('subtitle'),
    address: text('address'),
    phone: text('phone'),
    email: text('email'),
    website: text('website'),
    logoFileId: uuid('logo_file_id').references(() => files.id, { onDelete: 'set null' }),
    coverFileId: uuid('cover_file_id').references(() => files.id, { onDelete: 'set null' }),
    themeImage: text('theme_image'),
    primaryColor: text('primary_color'),
    secondaryColor: text('secondary_color'),
    showDietarySection: boolean('show_dietary_section').notNull().default(true),
    /** The menu page's language (a canonical BCP 47 tag); null: each guest's browser language. */
    language: text('language'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('cafes_account_created_idx').on(t.accountId, t.createdAt.desc()), index('cafes_link_idx').on(t.linkId)],
);

export const cafeGroups = pgTable(
  'cafe_groups',
  {
    id: id(),
    accountId: accountId(),
    cafeId: uuid('cafe_id')
      .notNull()
      .references(() => cafes.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    visible: boolean('visible').notNull().default(true),
    sortOrder: integer('sort_order').notNull().default(0),
    imageFileId: uuid('image_file_id').references(() => files.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('cafe_groups_cafe_idx').on(t.cafeId, t.sortOrder)],
);

export const cafeCategories = pgTable(
  'cafe_categories',
  {
    id: id(),
    accountId: accountId(),
    cafeId: uuid('cafe_id')
      .notNull()
      .references(() => cafes.id, { onDelete: 'cascade' }),
    /** Deleting a group keeps its categories, ungrouped. */
    groupId: uuid('group_id').references(() => cafeGroups.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    description: text('description'),
    type: text('type'),
    sortOrder: integer('sort_order').notNull().default(0),
    visible: boolean('visible').notNull().default(true),
    imageFileId: uuid('image_file_id').references(() => files.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Category names are unique ignoring case within a cafe: the database decides, so two
    // concurrent creates of "Drinks" and "drinks" cannot both win.
    uniqueIndex('cafe_categories_name_idx').on(t.cafeId, sql`lower(${t.name})`),
    index('cafe_categories_cafe_idx').on(t.cafeId, t.sortOrder),
  ],
);

export { SPICE_LEVELS } from './schema-parts.js';

export const cafeItems = pgTable(
  'cafe_items',
  {
    id: id(),
    accountId: accountId(),
    cafeId: uuid('cafe_id')
      .notNull()
      .references(() => cafes.id, { onDelete: 'cascade' }),
    /** Deleting a category deletes its items. */
    categoryId: uuid('category_id')
      .notNull()
      .references(() => cafeCategories.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Money is exact: numeric with 3 decimals (every ISO 4217 minor unit), read back as a string. */
    price: numeric('price', { precision: 12, scale: 3 }).notNull(),
    currency: text('currency').notNull().default('USD'),
    description: text('description'),
    visible: boolean('visible').notNull().default(true),
    isFeatured: boolean('is_featured').notNull().default(false),
    isNew: boolean('is_new').notNull().default(false),
    isRecommended: boolean('is_recommended').notNull().default(false),
    spiceLevel: text('spice_level').notNull().default('none'),
    ingredients: text('ingredients')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    allergens: text('allergens')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    imageFileId: uuid('image_file_id').references(() => files.id, { onDelete: 'set null' }),
    sortOrder: integer('sort_order').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('cafe_items_cafe_idx').on(t.cafeId, t.categoryId, t.sortOrder),
    check('cafe_items_spice_level_check', sql`${t.spiceLevel} in ('none', 'mild', 'medium', 'hot', 'extra_hot')`),
    check('cafe_items_price_check', sql`${t.price} >= 0`),
  ],
);
