/**
 * The words a menu page understands in an item's tags and allergens: the dietary tags it shows as
 * badges and filters by (compared by filterKey),
 * the allergens a menu usually declares, and spice levels in words. The console offers these as choices, so what an
 * owner ticks is what the guest page recognises.
 */

/** Dietary tags the page recognises among an item's tags (normalised keys), with their schema.org diet where one exists. */
export const DIETS: Readonly<Record<string, { label: string; schema?: string }>> = {
  vegan: { label: 'Vegan', schema: 'VeganDiet' },
  vegetarian: { label: 'Vegetarian', schema: 'VegetarianDiet' },
  'gluten-free': { label: 'Gluten-free', schema: 'GlutenFreeDiet' },
  'dairy-free': { label: 'Dairy-free' },
  'lactose-free': { label: 'Lactose-free', schema: 'LowLactoseDiet' },
  'nut-free': { label: 'Nut-free' },
  halal: { label: 'Halal', schema: 'HalalDiet' },
  kosher: { label: 'Kosher', schema: 'KosherDiet' },
  pescatarian: { label: 'Pescatarian' },
  keto: { label: 'Keto' },
  'low-calorie': { label: 'Low-calorie', schema: 'LowCalorieDiet' },
  'low-fat': { label: 'Low-fat', schema: 'LowFatDiet' },
  'low-salt': { label: 'Low-salt', schema: 'LowSaltDiet' },
  'sugar-free': { label: 'Sugar-free', schema: 'DiabeticDiet' },
};

/**
 * The allergens menus must declare in the EU (Regulation 1169/2011, Annex II), as the page lists
 * and filters them. Any other allergen is free text: the page filters by whatever an item names.
 */
export const COMMON_ALLERGENS: readonly string[] = [
  'Gluten',
  'Crustaceans',
  'Eggs',
  'Fish',
  'Peanuts',
  'Soy',
  'Milk',
  'Nuts',
  'Celery',
  'Mustard',
  'Sesame',
  'Sulphites',
  'Lupin',
  'Molluscs',
];

/** How a word is compared: case, accents and separators ignored ("Gluten free" = "gluten-free"). */
export function filterKey(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .trim()
    .replace(/[\s_|]+/g, '-');
}

/** The dietary tag a tag is, by its key, or null for any other tag. */
export const dietOf = (tag: string): string | null => (filterKey(tag) in DIETS ? filterKey(tag) : null);

/** Spice levels in the page's words. */
/** How hot a dish is, as a menu row stores it. */
export type SpiceLevel = 'none' | 'mild' | 'medium' | 'hot' | 'extra_hot';

export const SPICE_LABELS: Readonly<Record<SpiceLevel, string>> = {
  none: 'Not spicy',
  mild: 'Mild',
  medium: 'Medium hot',
  hot: 'Hot',
  extra_hot: 'Extra hot',
};
