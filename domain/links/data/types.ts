/** The link types of POST /links, in the API contract's order. `data` is validated per type (`schemas.ts`). */
export const LINK_TYPES = [
  'website',
  'email',
  'sms',
  'vcard',
  'wifi',
  'location',
  'event',
  'image',
  'pdf',
  'gallery',
  'landing',
  'product',
  'multi-links',
  'multi-pdf',
  'smart-url',
  'menu',
] as const;

export type LinkType = (typeof LINK_TYPES)[number];

const LINK_TYPE_SET: ReadonlySet<string> = new Set(LINK_TYPES);

export function isLinkType(value: unknown): value is LinkType {
  return typeof value === 'string' && LINK_TYPE_SET.has(value);
}
