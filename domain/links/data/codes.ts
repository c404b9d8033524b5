/**
 * Country and currency codes, checked against the ICU data Node ships (Intl), case-insensitively.
 * Values are never rewritten: `us` is accepted and stays `us`; consumers compare case-insensitively.
 */

/**
 * Codes ICU names that are not ISO 3166-1 countries: exceptionally reserved codes (Ascension,
 * Clipperton, Sark, Diego Garcia, Ceuta & Melilla, Canary Islands, Tristan da Cunha, EU, Eurozone,
 * UN) and CLDR's private-use macro regions (QO, XA, XB, ZZ "Unknown Region").
 */
const NOT_COUNTRIES: ReadonlySet<string> = new Set(['AC', 'CP', 'CQ', 'DG', 'EA', 'IC', 'TA', 'EU', 'EZ', 'UN', 'QO', 'XA', 'XB', 'ZZ']);
/**
 * Kosovo has no ISO 3166-1 code, but `XK` is the user-assigned code everyone uses for it (EU,
 * geo-IP databases such as MaxMind and Cloudflare), so a visitor from Kosovo is reported as `XK`.
 */
const EXTRA_COUNTRIES: ReadonlySet<string> = new Set(['XK']);

let regionNames: Intl.DisplayNames | undefined;

/**
 * An officially assigned ISO 3166-1 alpha-2 code (any letter case), or `XK`. A code is real when
 * ICU has a region name for it, it is not a deprecated alias (`UK`→GB, `SU`→RU, `YU`→RS are
 * refused: geo-IP never reports them) and it is not one of the non-country codes above.
 */
export function isCountryCode(value: string): boolean {
  if (typeof value !== 'string' || !/^[A-Za-z]{2}$/.test(value)) return false;
  const code = value.toUpperCase();
  if (EXTRA_COUNTRIES.has(code)) return true;
  if (NOT_COUNTRIES.has(code)) return false;
  regionNames ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  if (regionNames.of(code) === undefined) return false;
  // Deprecated codes are canonicalised to their successor by Intl.
  return Intl.getCanonicalLocales(`und-${code}`)[0] === `und-${code}`;
}

let currencies: ReadonlySet<string> | undefined;

/**
 * A currency code in use (any letter case): one of `Intl.supportedValuesOf('currency')`, which is
 * ISO 4217's list of currencies without the fund, precious-metal, testing (`XTS`) and
 * no-currency (`XXX`) codes, none of which a product is priced in.
 */
export function isCurrencyCode(value: string): boolean {
  if (typeof value !== 'string' || !/^[A-Za-z]{3}$/.test(value)) return false;
  currencies ??= new Set(Intl.supportedValuesOf('currency'));
  return currencies.has(value.toUpperCase());
}
