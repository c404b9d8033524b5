/**
 * What a cafe and its menu are made of: the limits of their fields, the weekdays of the operating
 * hours, and the plain inputs the cafe use cases take. The HTTP bodies, forms and queries that
 * carry them are the api's (api/routes/cafes/schemas.ts), built from these limits and from
 * schema-parts.ts; a clearable text is null once cleared, a form's flags are booleans.
 */
import type { QrOptions } from '../qr/options.js';
import type { MenuThemeKey } from './themes.js';
import { MENU_ITEMS_MAX, type SPICE_LEVELS } from './schema-parts.js';

export const CAFE_DESCRIPTION_MAX = 2000;
export const CATEGORY_DESCRIPTION_MAX = 1000;
export const CATEGORY_TYPE_MAX = 50;
export const PROFILE_TEXT_MAX = 255;
export const ADDRESS_MAX = 500;
export const PHONE_MAX = 50;
export const FACILITIES_MAX = 50;
export const SOCIAL_LINKS_MAX = 20;
/** Entries of one reorder request: a whole menu's items, so bulk insert's limit. */
export const REORDER_MAX = MENU_ITEMS_MAX;
export const ORDER_MAX = 2_147_483_647;
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

/** What updateCafe takes (PUT /cafes/:id): a field left out keeps its value. */
export interface CafeUpdateInput {
  name?: string | undefined;
  description?: string | null | undefined;
  timezone?: string | undefined;
  language?: string | null | undefined;
  /** Each day at most once; a range whose `to` is before its `from` runs past midnight. */
  operating_hours?: Array<{ day: (typeof WEEKDAYS)[number]; enabled: boolean; ranges: Array<{ from: string; to: string }> }> | undefined;
  facilities?: string[] | undefined;
  social_links?: Array<{ platform: string; url: string }> | undefined;
  qr_options?: QrOptions | undefined;
}

/** What updateTheme and a menu preview take: a colour or the dietary switch left out keeps its value, null returns to the theme's. */
export interface ThemeInput {
  themeImage: MenuThemeKey;
  primaryColor?: string | null | undefined;
  secondaryColor?: string | null | undefined;
  showDietarySection?: boolean | undefined;
}

/** What updateProfile takes (PUT /cafes/:id/profile's text fields): null clears a field. */
export interface ProfileInput {
  name?: string | undefined;
  title?: string | null | undefined;
  subtitle?: string | null | undefined;
  address?: string | null | undefined;
  phone?: string | null | undefined;
  email?: string | null | undefined;
  website?: string | null | undefined;
  description?: string | null | undefined;
  delete_logo?: boolean | undefined;
  delete_cover?: boolean | undefined;
  /** The same flag as delete_cover, under the name some clients send. */
  'delete_cafe-cover'?: boolean | undefined;
}

/** A menu group's fields as createGroup (with a name) and updateGroup take them. */
export interface GroupInput {
  name?: string | undefined;
  visible?: boolean | undefined;
  order?: number | undefined;
  delete_image?: boolean | undefined;
}

/** A menu item's fields as createItem (with category, name and price) and updateItem take them. */
export interface ItemInput {
  category_id?: string | undefined;
  name?: string | undefined;
  /** Exact decimal text, as the numeric column stores it. */
  price?: string | undefined;
  /** An ISO 4217 code, uppercase. */
  currency?: string | undefined;
  description?: string | null | undefined;
  visible?: boolean | undefined;
  is_featured?: boolean | undefined;
  is_new?: boolean | undefined;
  is_recommended?: boolean | undefined;
  spice_level?: (typeof SPICE_LEVELS)[number] | undefined;
  ingredients?: string[] | undefined;
  tags?: string[] | undefined;
  allergens?: string[] | undefined;
  order?: number | undefined;
  delete_image?: boolean | undefined;
}

/** A menu category's fields as createCategory (with a name) and updateCategory take them. */
export interface CategoryInput {
  name?: string | undefined;
  description?: string | null | undefined;
  group_id?: string | null | undefined;
  type?: string | null | undefined;
  order?: number | undefined;
  visible?: boolean | undefined;
  delete_image?: boolean | undefined;
}

export type ReorderEntry = { id: string; order: number };
