/**
 * The language a hosted page speaks, and the Intl formats that go with it.
 *
 * The owner's language (a link's `pageStyle.language`, a cafe's `language`) wins: a Portuguese
 * menu stays Portuguese for a tourist. With none set, the scanner's Accept-Language picks among
 * the languages the catalogue has, else English. Dates, times and prices always follow the page's
 * tag through Intl, even for a language the catalogue lacks (its words then fall back to English,
 * string by string).
 */

import { canonicalLanguageTag } from '#platform/format/language-tag.js';

/** The languages every page's words are written in. */
export const CATALOGUE_LANGUAGES = ['en', 'pt', 'es', 'fr', 'de'] as const;
export type CatalogueLanguage = (typeof CATALOGUE_LANGUAGES)[number];

export interface PageLocale {
  /** A canonical BCP 47 tag: the page's `lang`, and the locale of its Intl formats. */
  tag: string;
  /** The catalogue its words come from (English for a language the catalogue lacks). */
  language: CatalogueLanguage;
  /** True when the scanner's Accept-Language chose it: the answer then varies by that header. */
  negotiated: boolean;
}

export const ENGLISH: PageLocale = Object.freeze({ tag: 'en', language: 'en', negotiated: false });

const ACCEPT_LANGUAGE_MAX = 512;
const ACCEPT_LANGUAGE_RANGES_MAX = 16;

function catalogueLanguageOf(tag: string): CatalogueLanguage | undefined {
  const base = tag.split('-')[0]!.toLowerCase();
  return (CATALOGUE_LANGUAGES as readonly string[]).includes(base) ? (base as CatalogueLanguage) : undefined;
}

/**
 * The ranges of an Accept-Language header, best first (RFC 9110 §12.5.4): `*` and malformed
 * ranges skipped; only the first 16 ranges of the first 512 characters read, so a hostile header
 * costs nothing.
 */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  const ranges = header
    .slice(0, ACCEPT_LANGUAGE_MAX)
    .split(',')
    .slice(0, ACCEPT_LANGUAGE_RANGES_MAX)
    .map((part, order) => {
      const [range = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(p)).find(Boolean);
      return { range: range.trim(), q: q ? Number(q[1]) : 1, order };
    })
    .filter(({ range, q }) => q > 0 && range !== '*' && /^[a-z]{1,8}(?:-[a-z0-9]{1,8})*$/i.test(range));
  ranges.sort((a, b) => b.q - a.q || a.order - b.order);
  return ranges.map(({ range }) => range);
}

/** The page's locale: the owner's language when set, else the scanner's best catalogue language, else English. */
export function pageLocale(ownerLanguage: string | null | undefined, acceptLanguage: string | undefined): PageLocale {
  if (ownerLanguage) {
    const tag = canonicalLanguageTag(ownerLanguage);
    if (tag) return { tag, language: catalogueLanguageOf(tag) ?? 'en', negotiated: false };
  }
  for (const range of acceptedLanguages(acceptLanguage)) {
    const language = catalogueLanguageOf(range);
    const tag = language && canonicalLanguageTag(range);
    if (language && tag) return { tag, language, negotiated: true };
  }
  return { ...ENGLISH, negotiated: acceptLanguage !== undefined };
}

/** The headers a page whose language came from Accept-Language needs, so no shared cache mixes languages. */
export function localeHeaders(locale: PageLocale): Record<string, string> {
  return locale.negotiated ? { Vary: 'Accept-Language' } : {};
}

// ---------------------------------------------------------------------------------------------
// Intl formats. Building an Intl formatter costs ~50 µs, a page may format dozens of values and a
// scan path renders thousands of pages a second, so each (locale, options) formatter is made once.

const FORMATTERS_MAX = 2_000;
const formatters = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();

function cached<T extends Intl.DateTimeFormat | Intl.NumberFormat>(key: string, make: () => T): T {
  let formatter = formatters.get(key) as T | undefined;
  if (!formatter) {
    if (formatters.size >= FORMATTERS_MAX) formatters.clear();
    formatter = make();
    formatters.set(key, formatter);
  }
  return formatter;
}

/** Dates and times of `locale` with `options` (a time zone among them when it matters). */
export function dateTimeFormat(locale: PageLocale, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return cached(`d|${locale.tag}|${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(locale.tag, options));
}

/** Numbers of `locale` with `options` (units, percentages, coordinates). */
export function numberFormat(locale: PageLocale, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  return cached(`n|${locale.tag}|${JSON.stringify(options)}`, () => new Intl.NumberFormat(locale.tag, options));
}

/** A price as the locale writes it: "€1.20" in en, "1,20 €" in pt-PT and de; the bare number for an unknown currency code. */
export function formatPrice(locale: PageLocale, amount: number, currency: string | null | undefined): string {
  const code = currency?.trim().toUpperCase();
  if (code && /^[A-Z]{3}$/.test(code)) {
    try {
      return cached(`p|${locale.tag}|${code}`, () => new Intl.NumberFormat(locale.tag, { style: 'currency', currency: code })).format(
        amount,
      );
    } catch {
      // a code Intl does not know: the number alone, with the code after it
    }
  }
  const number = numberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(amount);
  return code ? `${number} ${code}` : number;
}

/** The city of an IANA zone, as people name it ("Europe/Lisbon" → "Lisbon", "America/Argentina/Buenos_Aires" → "Buenos Aires"). */
export function zoneCity(timeZone: string): string {
  const last = timeZone.split('/').pop() ?? timeZone;
  return last.replace(/_/g, ' ');
}
