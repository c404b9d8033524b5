/**
 * The menu page's words that are not plain catalogue texts (menu-messages.ts): which language a
 * page is in, counts, spice levels, and allergens and diets as guests read them and as the filters
 * key them.
 */
import { filterKey } from '#domain/cafes/diets.js';
import type { SpiceLevel } from '#domain/cafes/diets.js';
import { pageLocale, type PageLocale } from '../common/locale.js';
import { ALLERGEN_TEXT, DIET_TEXT, menuText, type MenuTextKey } from './menu-messages.js';

/**
 * A menu page's locale: the cafe's language when it has one (every guest reads the cafe's
 * language); else the guest's best catalogue language, by that language alone (`pt`, not `pt-BR`:
 * one page per catalogue language serves every guest of it, so a page cache keeps at most five).
 */
export function menuLocale(cafeLanguage: string | null, acceptLanguage: string | undefined): PageLocale {
  if (cafeLanguage) return pageLocale(cafeLanguage, undefined);
  const { language } = pageLocale(null, acceptLanguage);
  return { tag: language, language, negotiated: true };
}

export const SPICE: Record<SpiceLevel, { key: MenuTextKey; peppers: number }> = {
  none: { key: 'spiceNone', peppers: 0 },
  mild: { key: 'spiceMild', peppers: 1 },
  medium: { key: 'spiceMedium', peppers: 2 },
  hot: { key: 'spiceHot', peppers: 3 },
  extra_hot: { key: 'spiceExtraHot', peppers: 4 },
};

/** `one`'s text for 1 (it says "1" itself), else `other`'s with the count: every catalogue language says "1 dish", "0 dishes", "2 dishes". */
export function counted(locale: PageLocale, count: number, one: MenuTextKey, other: MenuTextKey): string {
  return menuText(locale, count === 1 ? one : other, { count });
}

/** An allergen's filter key: an EU allergen by one key whatever its spelling ("egg", "Eggs"), any other by its own. */
export function allergenKey(allergen: string): string {
  const known = ALLERGEN_TEXT[filterKey(allergen)];
  return known ? filterKey(menuText.english[known]) : filterKey(allergen);
}

/** An allergen as guests read it: an EU allergen's name in the page's language, any other as written, with a capital. */
export function allergenLabel(locale: PageLocale, allergen: string): string {
  const known = ALLERGEN_TEXT[filterKey(allergen)];
  if (known) return menuText(locale, known);
  const text = allergen.trim();
  return text.charAt(0).toLocaleUpperCase(locale.tag) + text.slice(1);
}

export const dietLabel = (locale: PageLocale, diet: string) => menuText(locale, DIET_TEXT[diet]!);
