/**
 * Message catalogues of the hosted pages. Each page area keeps its words in one catalogue: the
 * English text of every key, and the same keys in every other catalogue language. A key missing
 * in a language falls back to its English text alone, so a label is never half translated.
 *
 * Texts take `{name}` parameters; the result is plain text, escaped where the page template puts it.
 */
import { dateTimeFormat, type CatalogueLanguage, type PageLocale } from './locale.js';

type Translations<K extends string> = { readonly [L in Exclude<CatalogueLanguage, 'en'>]: Partial<Readonly<Record<K, string>>> };
type Params = Readonly<Record<string, string | number>>;

export interface Catalogue<K extends string> {
  /** The text of `key` in the locale's language (English where that language lacks it), parameters filled in. */
  (locale: PageLocale, key: K, params?: Params): string;
  /** Every key, and each language's texts: for the completeness test. */
  readonly english: Readonly<Record<K, string>>;
  readonly translations: Translations<K>;
}

const PARAMETER = /\{(\w+)\}/g;

export function catalogue<const K extends string>(english: Readonly<Record<K, string>>, translations: Translations<K>): Catalogue<K> {
  const text = (locale: PageLocale, key: K, params?: Params): string => {
    const template = (locale.language === 'en' ? undefined : translations[locale.language][key]) ?? english[key];
    return params ? template.replace(PARAMETER, (whole, name: string) => (name in params ? String(params[name]) : whole)) : template;
  };
  return Object.assign(text, { english, translations });
}

const pluralRules = new Map<string, Intl.PluralRules>();

/** The CLDR plural category of `count` in the locale ("one", "other", …), to pick a key by. */
export function pluralOf(locale: PageLocale, count: number): Intl.LDMLPluralRule {
  let rules = pluralRules.get(locale.tag);
  if (!rules) pluralRules.set(locale.tag, (rules = new Intl.PluralRules(locale.tag)));
  return rules.select(count);
}

/** A weekday's name in the locale (0 = Sunday), for opening hours. */
export function weekdayName(locale: PageLocale, day: number, width: 'long' | 'short' = 'long'): string {
  // 2023-01-01 was a Sunday.
  return dateTimeFormat(locale, { weekday: width, timeZone: 'UTC' }).format(Date.UTC(2023, 0, 1 + day));
}
