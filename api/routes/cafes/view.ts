/**
 * The cafe endpoints' answers (schemas.ts): snake_case (the theme's fields keep the names PUT
 * /cafes/:id/theme takes), images as the URLs they are served at, timestamps as ISO 8601.
 */
import type { Config } from '#platform/config/index.js';
import type { CafeWithLink } from '#domain/cafes/cafes.js';
import type { CategoryRow } from '#domain/cafes/categories.js';
import type { GroupRow } from '#domain/cafes/groups.js';
import type { ItemRow } from '#domain/cafes/items.js';
import type { WEEKDAYS } from '#domain/cafes/schemas.js';
import { DEFAULT_MENU_THEME, type MenuThemeKey } from '#domain/cafes/themes.js';
import { fileUrl } from '#domain/files/files.js';
import { linkShortUrl } from '#domain/links/link-addresses.js';
import type { SPICE_LEVELS } from '#domain/schema.js';

type ViewContext = { config: Pick<Config, 'SHORT_URL_BASE'> };

const isoTimestamps = (row: { createdAt: Date; updatedAt: Date }) => ({
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});
const iso = (d: Date) => d.toISOString();

/** Where an image file is served, or null. */
function imageUrl(ctx: ViewContext, fileId: string | null): string | null {
  return fileId ? fileUrl(ctx.config, fileId) : null;
}

export function cafeView(ctx: ViewContext, { cafe: row, ...link }: CafeWithLink) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    timezone: row.timezone,
    language: row.language,
    operating_hours: row.operatingHours as Array<{
      day: (typeof WEEKDAYS)[number];
      enabled: boolean;
      ranges: Array<{ from: string; to: string }>;
    }>,
    facilities: row.facilities,
    social_links: row.socialLinks as Array<{ platform: string; url: string }>,
    title: row.title,
    subtitle: row.subtitle,
    address: row.address,
    phone: row.phone,
    email: row.email,
    website: row.website,
    logo: imageUrl(ctx, row.logoFileId),
    cover: imageUrl(ctx, row.coverFileId),
    // The theme's fields keep the names PUT /cafes/:id/theme takes, so a client reads back what it wrote.
    themeImage: (row.themeImage ?? DEFAULT_MENU_THEME) as MenuThemeKey,
    primaryColor: row.primaryColor,
    secondaryColor: row.secondaryColor,
    showDietarySection: row.showDietarySection,
    link: {
      id: row.linkId,
      dynamic_link_id: link.slug,
      full_dynamic_url: linkShortUrl(ctx.config, link.host, link.slug),
      qr_options: link.qrOptions,
    },
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

export function groupView(ctx: ViewContext, row: GroupRow) {
  return {
    id: row.id,
    cafe_id: row.cafeId,
    name: row.name,
    visible: row.visible,
    order: row.sortOrder,
    image: imageUrl(ctx, row.imageFileId),
    ...isoTimestamps(row),
  };
}

export function categoryView(ctx: ViewContext, row: CategoryRow) {
  return {
    id: row.id,
    cafe_id: row.cafeId,
    group_id: row.groupId,
    name: row.name,
    description: row.description,
    type: row.type,
    order: row.sortOrder,
    visible: row.visible,
    image: imageUrl(ctx, row.imageFileId),
    ...isoTimestamps(row),
  };
}

export function itemView(ctx: ViewContext, row: ItemRow) {
  return {
    id: row.id,
    cafe_id: row.cafeId,
    category_id: row.categoryId,
    name: row.name,
    price: Number(row.price),
    currency: row.currency,
    description: row.description,
    visible: row.visible,
    is_featured: row.isFeatured,
    is_new: row.isNew,
    is_recommended: row.isRecommended,
    spice_level: row.spiceLevel as (typeof SPICE_LEVELS)[number],
    ingredients: row.ingredients,
    tags: row.tags,
    allergens: row.allergens,
    image: imageUrl(ctx, row.imageFileId),
    order: row.sortOrder,
    ...isoTimestamps(row),
  };
}
