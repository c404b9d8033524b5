/**
 * The `data` member of POST /links, one strict zod schema per link type.
 *
 * Rules the API contract leaves to us, applied the same way everywhere:
 *
 * - **Stored as sent, URLs excepted.** Nothing is trimmed, defaulted or case-folded: for valid
 *   input the parsed output equals the input, because the link service stores the output as
 *   `meta_data`. Codes that are case-insensitive (currency, country codes, time zone names) are
 *   validated case-insensitively and kept as written. URL fields alone come out in their WHATWG
 *   serialisation (see URL below).
 * - **Objects are strict**: an unknown member is an error at its own path ("Unknown field").
 * - **Optional** means the member may be absent; `null` is not accepted for it.
 * - **Required strings** must not be blank (empty or only whitespace → "Required"). Optional
 *   strings may be empty (forms send `""` for a field left blank), unless they have a format
 *   (URL, email, phone...), in which case a present value must match it.
 * - **Lengths** count UTF-16 code units (JavaScript's `length`, as everywhere in this API). Strings
 *   the API contract leaves unbounded: 255 for names, titles, labels and other short fields
 *   (`SHORT_TEXT_MAX`), 5000 for descriptions, bodies and messages (`LONG_TEXT_MAX`).
 * - **URL**: an absolute `http://` or `https://` URL with a host, at most 2048 characters, no
 *   whitespace or control characters, and no `user:password@` part (a classic phishing disguise:
 *   `https://bank.com@evil.example`). `javascript:`, `data:`, `ftp:`, `mailto:` and relative URLs
 *   are refused. A valid URL is stored as the WHATWG URL standard serialises it (`httpUrlHref`:
 *   UTF-8 percent-encoding, punycode hosts, lower-case host, `/` for an empty path), which must
 *   also fit in 2048 characters: the form a Location header can carry and browsers send anyway.
 *   Every URL field gets it (website `url`, smart-url `defaultUrl` and rule `url`, event
 *   `registrationUrl`, multi-links `value`, product `buyUrl`, vcard `socialLinks[].url`), so one rule covers what is redirected to and what a
 *   page links to. Free-text fields that may hold a URL (vCard `website`, multi-links `icon`) are
 *   text and kept as sent.
 * - **Email**: zod's email pattern, at most 254 characters.
 * - **Phone**: 3–32 characters of digits, spaces and `+ - ( ) .`, with at least 3 digits.
 * - **Numbers** must be finite JSON numbers (a numeric string is not a number).
 * - **fileId**: a UUID string (any letter case). Whether the file exists, belongs to the account
 *   and is of the right kind is the link service's check (`fileRefs` lists what to check).
 * - **Date-times** (event `startDateTime`, `endDateTime`): `YYYY-MM-DDTHH:MM[:SS[.fff]]` with an
 *   optional `Z` or `±HH:MM` (see `parseIsoDateTimeParts`). Without an offset the time is wall-clock
 *   time in the event's `timezone` (DST gaps/overlaps resolved as in `timezone.ts`).
 * - **Time zones**: IANA names Intl knows (incl. aliases such as `Asia/Kolkata`), at most 64
 *   characters; `Mars/Base` and offsets such as `+05:30` are refused.
 * - **Arrays** the API contract leaves unbounded get a cap: 100 files for image/pdf and product images,
 *   50 multi-links links (API contract), 250 countries. Countries and devices may not repeat.
 *
 * Per type (beyond the API contract's own rules):
 * - vcard: the optional members are free text as the API contract says (no phone or URL rule: vCards carry
 *   things like `+1 555 0100 ext. 12` or `example.com`), each at most 255. Our additions: `jobTitle`
 *   (text), `photo` (`{fileId}`, an image) and `socialLinks` (at most 10 `{url}`, each an http(s) URL).
 * - location: optional `name` (255) and `address` (500, line breaks kept) of the place.
 * - event: `location` is short text (255); the image is `{fileId}`. Start and end, as instants,
 *   lie between 1900-01-01T00:00Z and 9999-12-31T23:59Z (`EVENT_EARLIEST_MS`, `EVENT_LATEST_MS`).
 * - product: currency must be an ISO 4217 code in use (`isCurrencyCode`); the totals are not
 *   cross-checked against each other (tax and rounding rules vary). `images.files` may be empty.
 * - multi-links: `icon` is a string up to 2048 (an icon name or an image URL; non-blank when
 *   required, i.e. on social links); `logo`
 *   is any JSON value up to 256 KiB serialised and nested at most 32 deep (each limit has its own
 *   message).
 * - landing: `landingHTML` is at most 512 KiB of UTF-8 and nests elements at most 100 deep
 *   (`LANDING_HTML_MAX_DEPTH`): the page sanitizes it, and a parser's work grows with the depth.
 * - smart-url rules: see `smartUrlRuleSchema`.
 *
 * The shared pieces live in limits.ts (lengths), formats.ts (plain predicates) and fields.ts (zod
 * builders and field schemas), each type's schema in by-type/<type>.ts; this module gathers them.
 */
import type { z } from 'zod';
import { fileRefSchema } from './fields.js';
import { emailDataSchema } from './by-type/email.js';
import { eventDataSchema } from './by-type/event.js';
import { galleryDataSchema } from './by-type/gallery.js';
import { imageDataSchema } from './by-type/image.js';
import { landingDataSchema } from './by-type/landing.js';
import { locationDataSchema } from './by-type/location.js';
import { menuDataSchema } from './by-type/menu.js';
import { multiLinksDataSchema } from './by-type/multi-links.js';
import { multiPdfDataSchema } from './by-type/multi-pdf.js';
import { pdfDataSchema } from './by-type/pdf.js';
import { productDataSchema } from './by-type/product.js';
import { smartUrlRuleSchema, smartUrlDataSchema } from './by-type/smart-url.js';
import { smsDataSchema } from './by-type/sms.js';
import { vcardDataSchema } from './by-type/vcard.js';
import { websiteDataSchema } from './by-type/website.js';
import { wifiDataSchema } from './by-type/wifi.js';
import type { CONDITION_TYPES, DEVICES } from './smart-url-values.js';
import type { LinkType } from './types.js';

export { SHORT_TEXT_MAX, LONG_TEXT_MAX, URL_MAX, EMAIL_MAX, TIMEZONE_MAX, PAGE_TITLE_MAX, FILES_MAX } from './limits.js';
export { isHttpUrl, httpUrlHref, isPhoneNumber, isIsoDate, isIsoDateTime, isTimeOfDay } from './formats.js';
export { urlSchema, fileRefSchema } from './fields.js';
export { emailDataSchema } from './by-type/email.js';
export { EVENT_TITLE_MAX, EVENT_EARLIEST_MS, EVENT_LATEST_MS, EVENT_RANGE_MESSAGE, eventDataSchema } from './by-type/event.js';
export { GALLERY_FILES_MAX, galleryDataSchema } from './by-type/gallery.js';
export { imageDataSchema } from './by-type/image.js';
export { LANDING_HTML_MAX_BYTES, LANDING_HTML_MAX_DEPTH, landingDataSchema } from './by-type/landing.js';
export { ADDRESS_MAX, locationDataSchema } from './by-type/location.js';
export { menuDataSchema } from './by-type/menu.js';
export {
  ICON_MAX,
  LOGO_MAX_BYTES,
  LOGO_MAX_DEPTH,
  MULTI_LINKS_MAX,
  MULTI_LINK_TYPES,
  smallJsonValueProblem,
  isSmallJsonValue,
  multiLinkSchema,
  multiLinksDataSchema,
} from './by-type/multi-links.js';
export { MULTI_PDF_MAX, multiPdfDataSchema } from './by-type/multi-pdf.js';
export { pdfDataSchema } from './by-type/pdf.js';
export { DISCOUNT_TYPES, discountSchema, productDataSchema } from './by-type/product.js';
export { COUNTRIES_MAX, smartUrlRuleSchema, smartUrlDataSchema } from './by-type/smart-url.js';
export { smsDataSchema } from './by-type/sms.js';
export { VCARD_SOCIAL_LINKS_MAX, vcardDataSchema } from './by-type/vcard.js';
export { websiteDataSchema } from './by-type/website.js';
export { WIFI_ENCRYPTIONS, wifiDataSchema } from './by-type/wifi.js';

/** The schema of `data` for each link type. Parse output equals the input for valid input. */
export const linkDataSchemas: Record<LinkType, z.ZodType> = {
  website: websiteDataSchema,
  email: emailDataSchema,
  sms: smsDataSchema,
  vcard: vcardDataSchema,
  wifi: wifiDataSchema,
  location: locationDataSchema,
  event: eventDataSchema,
  image: imageDataSchema,
  pdf: pdfDataSchema,
  gallery: galleryDataSchema,
  landing: landingDataSchema,
  product: productDataSchema,
  'multi-links': multiLinksDataSchema,
  'multi-pdf': multiPdfDataSchema,
  'smart-url': smartUrlDataSchema,
  menu: menuDataSchema,
};

type FileRef = z.output<typeof fileRefSchema>;
export type SmartUrlRule = z.output<typeof smartUrlRuleSchema>;
type ConditionType = (typeof CONDITION_TYPES)[number];
export type Device = (typeof DEVICES)[number];

/** The parsed `data` of each link type. */
export interface LinkDataByType {
  website: z.output<typeof websiteDataSchema>;
  email: z.output<typeof emailDataSchema>;
  sms: z.output<typeof smsDataSchema>;
  vcard: z.output<typeof vcardDataSchema>;
  wifi: z.output<typeof wifiDataSchema>;
  location: z.output<typeof locationDataSchema>;
  event: z.output<typeof eventDataSchema>;
  image: z.output<typeof imageDataSchema>;
  pdf: z.output<typeof pdfDataSchema>;
  gallery: z.output<typeof galleryDataSchema>;
  landing: z.output<typeof landingDataSchema>;
  product: z.output<typeof productDataSchema>;
  'multi-links': z.output<typeof multiLinksDataSchema>;
  'multi-pdf': z.output<typeof multiPdfDataSchema>;
  'smart-url': z.output<typeof smartUrlDataSchema>;
  menu: z.output<typeof menuDataSchema>;
}

type LinkData = LinkDataByType[LinkType];
