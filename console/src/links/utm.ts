/**
 * The link editor's UTM section <-> the link's `utm` and `queryPolicy`. The preview of where a scan
 * goes is made by the redirect's own `withUtm`, so what the form shows is what visitors get.
 */
import { withUtm } from '#domain/links/utm-url.js';
import { UTM_FIELDS, type QueryPolicy, type Utm } from '#domain/links/utm-fields.js';
import type { StoredLink } from './link-form.js';

export { UTM_FIELDS };
export type UtmField = (typeof UTM_FIELDS)[number];

export interface UtmForm {
  values: Record<UtmField, string>;
  queryPolicy: QueryPolicy;
}

export const UTM_LABELS: Record<UtmField, string> = {
  source: 'Source',
  medium: 'Medium',
  campaign: 'Campaign',
  term: 'Term',
  content: 'Content',
};

export const UTM_HINTS: Record<UtmField, string> = {
  source: 'Where people come from, e.g. flyer, poster, newsletter.',
  medium: 'The kind of channel, e.g. print, email, qr.',
  campaign: 'The campaign, e.g. spring-sale.',
  term: 'Optional: a keyword.',
  content: 'Optional: which version, e.g. front-page.',
};

/** Only website and smart-url links have a destination to tag. */
export const sendsUtm = (type: string) => type === 'website' || type === 'smart-url';

const EMPTY: Record<UtmField, string> = { source: '', medium: '', campaign: '', term: '', content: '' };

/** The form for a link (or a blank one for a new link). */
export function utmFormOf(link: Pick<StoredLink, 'utm' | 'query_policy'> | null): UtmForm {
  return { values: valuesOf(link?.utm ?? null), queryPolicy: link?.query_policy ?? 'drop' };
}

/** A template's or a link's parameters as the form's fields. */
export function valuesOf(utm: Utm | null): Record<UtmField, string> {
  return Object.fromEntries(UTM_FIELDS.map((f) => [f, utm?.[f] ?? ''])) as Record<UtmField, string>;
}

/** The parameters the form holds, trimmed, empty ones left out; null for none. */
export function utmOf(values: Record<UtmField, string>): Utm | null {
  const utm: Utm = {};
  for (const field of UTM_FIELDS) {
    const value = values[field].trim();
    if (value) utm[field] = value;
  }
  return Object.keys(utm).length > 0 ? utm : null;
}

/** Where a scan of a website link goes, for the preview; null until the destination is a URL. */
export function previewOf(destination: string, form: UtmForm): string | null {
  const url = destination.trim();
  if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) return null;
  return withUtm(new URL(url).href, utmOf(form.values));
}

export { EMPTY as NO_UTM };
