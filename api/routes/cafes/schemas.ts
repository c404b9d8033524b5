/** Response schemas of the cafe endpoints (view.ts builds them; request schemas: domain/cafes/schemas.ts). */
import { z } from 'zod';
import { WEEKDAYS } from '../../../domain/cafes/schemas.js';
import { MENU_THEME_KEYS } from '../../../domain/cafes/themes.js';
import { SPICE_LEVELS } from '../../../domain/schema.js';

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
