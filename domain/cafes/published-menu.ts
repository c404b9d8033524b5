/**
 * The menu as a guest sees it: the cafe's profile, theme and hours, and its visible groups →
 * categories → items in menu order. Hidden rows, and everything under a hidden group or category,
 * are left out here, so the page cannot show them. Categories whose group was deleted
 * (ungrouped) come after the groups.
 *
 * Read in one statement (one snapshot: never half of a bulk insert), by the cafe's link, as a
 * record whose large parts (groups, categories, items, image copies) are still JSON text: the
 * redirect reads it on its event loop and hands it to its render thread, which parses it
 * (`publishedMenuOf`) and renders the page, so the work that grows with the menu never runs on
 * the event loop. `version` is the cafe's menu version (menu-version.ts), which is what the redirect's page cache
 * is keyed by.
 */
import type { ImageVariant } from '../files/image-variants.js';
import type { SpiceLevel } from './diets.js';
import type { Pool, QueryConfig } from '#platform/database/raw.js';
import type { DayHours } from './opening-hours.js';
import type { MenuThemeKey } from './themes.js';
import { DEFAULT_MENU_THEME, MENU_THEMES } from './themes.js';
import { menuVersionSql } from './menu-version.js';

export interface PublishedItem {
  id: string;
  name: string;
  description: string | null;
  /** Exact decimal text, e.g. "12.500". */
  price: string;
  currency: string;
  isFeatured: boolean;
  isNew: boolean;
  isRecommended: boolean;
  spiceLevel: SpiceLevel;
  ingredients: string[];
  allergens: string[];
  tags: string[];
  image: string | null;
}

export interface PublishedCategory {
  id: string;
  name: string;
  description: string | null;
  image: string | null;
  items: PublishedItem[];
}

export interface PublishedGroup {
  /** null: the categories whose group was deleted. */
  id: string | null;
  name: string | null;
  image: string | null;
  categories: PublishedCategory[];
}

export interface PublishedMenu {
  cafeId: string;
  version: string;
  name: string;
  description: string | null;
  title: string | null;
  subtitle: string | null;
  timezone: string;
  operatingHours: DayHours[];
  facilities: string[];
  socialLinks: Array<{ platform: string; url: string }>;
  address: string | null;
  phone: string | null;
  email: string | null;
  website: string | null;
  logo: string | null;
  cover: string | null;
  /** The web-sized copies of the menu's images that have them, by file id. */
  imageVariants: Record<string, ImageVariant[]>;
  theme: MenuThemeKey;
  primaryColor: string | null;
  secondaryColor: string | null;
  showDietarySection: boolean;
  groups: PublishedGroup[];
}

const LOAD_PUBLISHED_MENU: QueryConfig = {
  name: 'published-menu-by-link',
  text: `select c.id, ${menuVersionSql('c')} as version, c.name, c.description, c.title, c.subtitle,
      c.timezone, c.operating_hours, c.facilities, c.social_links, c.address, c.phone, c.email, c.website,
      c.logo_file_id, c.cover_file_id, c.theme_image, c.primary_color, c.secondary_color, c.show_dietary_section, c.language,
      coalesce((select json_agg(json_build_object('id', g.id, 'name', g.name, 'image', g.image_file_id)
                  order by g.sort_order, g.created_at, g.id)
                from cafe_groups g where g.cafe_id = c.id and g.visible), '[]'::json)::text as groups,
      coalesce((select json_agg(json_build_object('id', k.id, 'groupId', k.group_id, 'name', k.name, 'description', k.description,
                  'image', k.image_file_id) order by k.sort_order, k.created_at, k.id)
                from cafe_categories k where k.cafe_id = c.id and k.visible), '[]'::json)::text as categories,
      coalesce((select json_agg(json_build_object('id', i.id, 'categoryId', i.category_id, 'name', i.name, 'description', i.description,
                  'price', i.price::text, 'currency', i.currency, 'isFeatured', i.is_featured, 'isNew', i.is_new,
                  'isRecommended', i.is_recommended, 'spiceLevel', i.spice_level, 'ingredients', i.ingredients,
                  'allergens', i.allergens, 'tags', i.tags, 'image', i.image_file_id) order by i.sort_order, i.created_at, i.id)
                from cafe_items i where i.cafe_id = c.id and i.visible), '[]'::json)::text as items,
      coalesce((select json_object_agg(f.id, b.variants) from files f join file_blobs b on b.id = f.blob_id
                where f.link_id = c.link_id and b.variants is not null), '{}'::json)::text as image_variants
    from cafes c where c.link_id = $1`,
};

/** A published menu as read: its lists still JSON text (plain data, so it can be sent to a thread). */
export interface PublishedMenuRecord {
  id: string;
  version: string;
  name: string;
  description: string | null;
  title: string | null;
  subtitle: string | null;
  timezone: string;
  operating_hours: DayHours[];
  facilities: string[];
  social_links: Array<{ platform: string; url: string }>;
  address: string | null;
  phone: string | null;
  email: string | null;
  website: string | null;
  logo_file_id: string | null;
  cover_file_id: string | null;
  theme_image: string | null;
  primary_color: string | null;
  secondary_color: string | null;
  show_dietary_section: boolean;
  /** The page's language (a canonical BCP 47 tag); null: each guest's browser language (redirect/page-cache.ts). */
  language: string | null;
  /** JSON: Array<{ id, name, image }> */
  groups: string;
  /** JSON: Array<PublishedCategory without items, with groupId> */
  categories: string;
  /** JSON: Array<PublishedItem with categoryId> */
  items: string;
  /** JSON: Record<fileId, ImageVariant[]> */
  image_variants: string;
}

/** The published menu of the cafe a menu link serves, as read (see `publishedMenuOf`), or null when the link serves no cafe. */
export async function loadPublishedMenu(pool: Pool, linkId: string): Promise<PublishedMenuRecord | null> {
  const { rows } = await pool.query<PublishedMenuRecord>({ ...LOAD_PUBLISHED_MENU, values: [linkId] });
  return rows[0] ?? null;
}

/** The menu a record holds, in menu order. */
export function publishedMenuOf(r: PublishedMenuRecord): PublishedMenu {
  const items = JSON.parse(r.items) as Array<PublishedItem & { categoryId: string }>;
  const categories = JSON.parse(r.categories) as Array<Omit<PublishedCategory, 'items'> & { groupId: string | null }>;
  const itemsOf = new Map<string, PublishedItem[]>();
  for (const { categoryId, ...item } of items) {
    const list = itemsOf.get(categoryId);
    if (list) list.push(item);
    else itemsOf.set(categoryId, [item]);
  }
  const groups: PublishedGroup[] = (JSON.parse(r.groups) as Array<Omit<PublishedGroup, 'categories'>>).map((g) => ({
    ...g,
    categories: [],
  }));
  const groupById = new Map(groups.map((g) => [g.id, g]));
  const ungrouped: PublishedGroup = { id: null, name: null, image: null, categories: [] };
  for (const { groupId, ...category } of categories) {
    // A category in a hidden group is hidden with it; one whose group was deleted is ungrouped.
    const group = groupId === null ? ungrouped : groupById.get(groupId);
    group?.categories.push({ ...category, items: itemsOf.get(category.id) ?? [] });
  }
  if (ungrouped.categories.length > 0) groups.push(ungrouped);
  return {
    cafeId: r.id,
    version: r.version,
    name: r.name,
    description: r.description,
    title: r.title,
    subtitle: r.subtitle,
    timezone: r.timezone,
    operatingHours: r.operating_hours,
    facilities: r.facilities,
    socialLinks: r.social_links,
    address: r.address,
    phone: r.phone,
    email: r.email,
    website: r.website,
    logo: r.logo_file_id,
    cover: r.cover_file_id,
    imageVariants: JSON.parse(r.image_variants) as Record<string, ImageVariant[]>,
    theme: r.theme_image && r.theme_image in MENU_THEMES ? (r.theme_image as MenuThemeKey) : DEFAULT_MENU_THEME,
    primaryColor: r.primary_color,
    secondaryColor: r.secondary_color,
    showDietarySection: r.show_dietary_section,
    groups,
  };
}
