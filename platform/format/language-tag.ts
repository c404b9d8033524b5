/** BCP 47 language tags as pages, cafes and links store them: well-formed and canonical (`pt-br` → `pt-BR`). */

export const LANGUAGE_TAG_MAX = 35;
export const LANGUAGE_TAG_MESSAGE = 'Must be a BCP 47 language tag such as en, fr or pt-BR';

/** The canonical form of a well-formed tag, else undefined. */
export function canonicalLanguageTag(tag: string): string | undefined {
  try {
    return Intl.getCanonicalLocales(tag)[0];
  } catch {
    return undefined;
  }
}
