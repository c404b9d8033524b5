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
 */
import { z } from 'zod';
import { isCssColor } from '../../qr/color.js';
import { isUuid } from '../../../platform/format/ids.js';
import { isCountryCode, isCurrencyCode } from './codes.js';
import { nestsAtMost } from './html-depth.js';
import { isIanaTimezone, parseDateTimeInZone, parseIsoDateTimeParts } from './timezone.js';
import { CONDITION_TYPES, DEVICES, OPERATORS, SMART_URL_RULES_MAX } from './smart-url-values.js';
import type { LinkType } from './types.js';

export const SHORT_TEXT_MAX = 255;
export const LONG_TEXT_MAX = 5000;
export const URL_MAX = 2048;
export const EMAIL_MAX = 254;
export const TIMEZONE_MAX = 64;
export const EVENT_TITLE_MAX = 100;
export const PAGE_TITLE_MAX = 100;
export const ICON_MAX = 2048;
export const LANDING_HTML_MAX_BYTES = 512 * 1024;
export const LANDING_HTML_MAX_DEPTH = 100;
export const LOGO_MAX_BYTES = 256 * 1024;
export const LOGO_MAX_DEPTH = 32;
export const FILES_MAX = 100;
export const GALLERY_FILES_MAX = 20;
export const MULTI_PDF_MAX = 10;
export const MULTI_LINKS_MAX = 50;
export const COUNTRIES_MAX = 250;
export const VCARD_SOCIAL_LINKS_MAX = 10;
export const ADDRESS_MAX = 500;
/**
 * The instants an event may start and end at: what a calendar file can carry (a four-digit UTC
 * year) and calendar apps agree on (the Gregorian calendar and standard time zones, not the local
 * mean times of earlier years).
 */
export const EVENT_EARLIEST_MS = Date.UTC(1900, 0, 1);
export const EVENT_LATEST_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
export const EVENT_RANGE_MESSAGE = 'Must be between 1900-01-01T00:00Z and 9999-12-31T23:59Z';

export const WIFI_ENCRYPTIONS = ['WPA', 'WEP', 'nopass'] as const;
export const DISCOUNT_TYPES = ['amount', 'percent'] as const;
export const MULTI_LINK_TYPES = ['custom', 'social'] as const;

const REQUIRED = 'Required';
const oneOf = (values: readonly string[]) => `Must be one of: ${values.join(', ')}`;
const atMost = (max: number) => `Must be at most ${max} characters`;

/** "Required" when the member is missing, otherwise what the value should have been. */
const typeError = (expected: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? REQUIRED : expected;

const stringType = () => z.string({ error: typeError('Must be a string') });
const numberType = () => z.number({ error: typeError('Must be a number') });
const booleanType = () => z.boolean({ error: typeError('Must be true or false') });

/** A required string: not blank, at most `max` characters, kept exactly as sent. */
function text(max: number) {
  return stringType()
    .refine((s) => s.trim().length > 0, { error: REQUIRED, abort: true })
    .max(max, { error: atMost(max) });
}

/** An optional string: may be empty, at most `max` characters. */
function optionalText(max: number) {
  return stringType().max(max, { error: atMost(max) }).optional();
}

function enumOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: typeError(oneOf(values)) });
}

/** Only the type mismatch gets our wording; unknown keys are "Unknown field" via zodIssuesToFieldErrors. */
function strict<T extends z.core.$ZodLooseShape>(shape: T) {
  return z.strictObject(shape, {
    error: (issue) => (issue.code === 'invalid_type' ? typeError('Must be an object')(issue) : undefined),
  });
}

function list<T extends z.ZodType>(item: T, min: number, max: number) {
  let schema = z.array(item, { error: typeError('Must be an array') });
  if (min > 0) schema = schema.min(min, { error: min === 1 ? 'Must have at least 1 item' : `Must have at least ${min} items` });
  return schema.max(max, { error: `Must have at most ${max} items` });
}

/** The `error` of a discriminated union: what is wrong with the discriminator (or the whole value). */
function discriminatorError(key: string, values: readonly string[]) {
  return (issue: { code?: string; input?: unknown }) => {
    if (issue.code === 'invalid_type') return typeError('Must be an object')(issue);
    if (issue.code === 'invalid_union') {
      const input = issue.input as Record<string, unknown> | undefined;
      return input?.[key] === undefined ? REQUIRED : oneOf(values);
    }
    return undefined;
  };
}

/** Runs an object-level refinement even when some members failed, as long as the value is an object. */
const WHEN_OBJECT = {
  when: (payload: { value: unknown }) =>
    typeof payload.value === 'object' && payload.value !== null && !Array.isArray(payload.value),
};

/** Rejects repeated elements (compared by `key`), reporting each repeat at its own index. */
function noDuplicates(key: (value: string) => string = (v) => v) {
  return (values: readonly string[], ctx: z.RefinementCtx<readonly string[]>) => {
    const seen = new Set<string>();
    values.forEach((value, i) => {
      const k = key(value);
      if (seen.has(k)) ctx.addIssue({ code: 'custom', message: 'Duplicate value', path: [i], input: value });
      seen.add(k);
    });
  };
}

// ---------------------------------------------------------------------------------------------
// Formats

export function isHttpUrl(value: string): boolean {
  return httpUrlHref(value) !== null;
}

/**
 * An absolute http(s) URL (see the module comment) as the WHATWG URL standard serialises it, or
 * null when the value is not one. The serialisation is plain printable ASCII: path, query and
 * fragment percent-encoded as UTF-8, an IDN host in punycode (`bücher.example` →
 * `xn--bcher-kva.example`). That is the form browsers send and the only one a Location header can
 * carry, so it is the form stored and redirected to.
 */
export function httpUrlHref(value: string): string | null {
  if (typeof value !== 'string' || value.length > URL_MAX) return null;
  // The WHATWG parser would quietly fix `http:example.com`, `https:/x` or stray whitespace, which
  // would store something the client did not mean; those are refused rather than repaired.
  // eslint-disable-next-line no-control-regex
  if (!/^https?:\/\//i.test(value) || /[\u0000-\u0020\u007f]/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  const ok = (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' && url.username === '' && url.password === '';
  return ok ? url.href : null;
}

export function isPhoneNumber(value: string): boolean {
  return typeof value === 'string' && /^[0-9 +\-().]{3,32}$/.test(value) && (value.match(/[0-9]/g)?.length ?? 0) >= 3;
}

/** `YYYY-MM-DD`, a real calendar date. */
export function isIsoDate(value: string): boolean {
  const parts = typeof value === 'string' && value.length === 10 ? parseIsoDateTimeParts(value) : null;
  return parts !== null && !parts.hasTime;
}

/** A date and a time, optionally with an offset (a plain date is not a date-time). */
export function isIsoDateTime(value: string): boolean {
  return parseIsoDateTimeParts(value)?.hasTime === true;
}

/** `HH:MM`, 24-hour. */
export function isTimeOfDay(value: string): boolean {
  return typeof value === 'string' && /^(?:[01][0-9]|2[0-3]):[0-5][0-9]$/.test(value);
}

function utf8Length(value: string): number {
  return Buffer.byteLength(value, 'utf8');
}

/**
 * Why `value` is not a small JSON value (null, boolean, finite number, string, array, plain
 * object, nested at most `LOGO_MAX_DEPTH` deep, at most `LOGO_MAX_BYTES` when serialised), or null
 * when it is one. Each cause has its own message. Walks iteratively, so deep junk cannot overflow
 * the stack.
 */
export function smallJsonValueProblem(value: unknown): string | null {
  if (value === undefined) return REQUIRED;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v === 'boolean' || typeof v === 'string') continue;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) return 'Must be a JSON value (numbers must be finite)';
      continue;
    }
    if (typeof v !== 'object') return 'Must be a JSON value';
    if (depth >= LOGO_MAX_DEPTH) return `Must be nested at most ${LOGO_MAX_DEPTH} levels deep`;
    if (Array.isArray(v)) {
      for (const item of v) stack.push([item, depth + 1]);
      continue;
    }
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return 'Must be a JSON value';
    for (const item of Object.values(v)) stack.push([item, depth + 1]);
  }
  const json = JSON.stringify(value);
  return json.length <= LOGO_MAX_BYTES && utf8Length(json) <= LOGO_MAX_BYTES ? null : `Must be at most ${LOGO_MAX_BYTES / 1024} KiB as JSON`;
}

export function isSmallJsonValue(value: unknown): boolean {
  return smallJsonValueProblem(value) === null;
}

// ---------------------------------------------------------------------------------------------
// Field schemas

/** An http(s) URL, validated, then stored in its WHATWG serialisation (`httpUrlHref`), which must fit URL_MAX as well. */
export const urlSchema = () =>
  stringType()
    .max(URL_MAX, { error: atMost(URL_MAX), abort: true })
    .transform((value, ctx) => {
      const href = httpUrlHref(value);
      if (href === null) ctx.issues.push({ code: 'custom', message: 'Must be a valid URL', input: value });
      else if (href.length > URL_MAX) ctx.issues.push({ code: 'custom', message: `Must be at most ${URL_MAX} characters once percent-encoded`, input: value });
      else return href;
      return z.NEVER;
    });

const emailSchema = () =>
  stringType()
    .max(EMAIL_MAX, { error: atMost(EMAIL_MAX), abort: true })
    .regex(z.regexes.email, { error: 'Must be a valid email' });

const phoneSchema = () => stringType().refine(isPhoneNumber, { error: 'Must be a valid phone number' });

const timezoneSchema = () =>
  stringType()
    .max(TIMEZONE_MAX, { error: atMost(TIMEZONE_MAX), abort: true })
    .refine(isIanaTimezone, { error: 'Must be a valid IANA time zone' });

const dateTimeSchema = () =>
  stringType().refine(isIsoDateTime, { error: 'Must be an ISO 8601 date-time (YYYY-MM-DDTHH:MM)' });

const dateSchema = () => stringType().refine(isIsoDate, { error: 'Must be a date (YYYY-MM-DD)' });

const timeSchema = () => stringType().refine(isTimeOfDay, { error: 'Must be a time (HH:MM, 24-hour)' });

const nonNegative = () => numberType().min(0, { error: 'Must be >= 0' });

const colorSchema = () =>
  stringType()
    .max(SHORT_TEXT_MAX, { error: atMost(SHORT_TEXT_MAX), abort: true })
    .refine(isCssColor, { error: 'Must be a CSS color or hex' });

const fileIdSchema = () => stringType().refine(isUuid, { error: 'Must be a file id (UUID)' });

/** `{fileId}`: a file uploaded through the files API. */
export const fileRefSchema = strict({ fileId: fileIdSchema() });

// ---------------------------------------------------------------------------------------------
// Link types

export const websiteDataSchema = strict({ url: urlSchema() });

export const emailDataSchema = strict({
  email: emailSchema(),
  subject: optionalText(SHORT_TEXT_MAX),
  body: optionalText(LONG_TEXT_MAX),
});

export const smsDataSchema = strict({
  phone: phoneSchema(),
  message: optionalText(LONG_TEXT_MAX),
});

export const vcardDataSchema = strict({
  firstName: text(SHORT_TEXT_MAX),
  lastName: text(SHORT_TEXT_MAX),
  email: emailSchema(),
  contact: optionalText(SHORT_TEXT_MAX),
  phone: optionalText(SHORT_TEXT_MAX),
  fax: optionalText(SHORT_TEXT_MAX),
  website: optionalText(SHORT_TEXT_MAX),
  company: optionalText(SHORT_TEXT_MAX),
  department: optionalText(SHORT_TEXT_MAX),
  street: optionalText(SHORT_TEXT_MAX),
  state: optionalText(SHORT_TEXT_MAX),
  city: optionalText(SHORT_TEXT_MAX),
  zip: optionalText(SHORT_TEXT_MAX),
  country: optionalText(SHORT_TEXT_MAX),
  jobTitle: optionalText(SHORT_TEXT_MAX).meta({ description: 'The person\'s job title (the vCard\'s TITLE), apart from `department`' }),
  photo: fileRefSchema.optional().meta({ description: 'An uploaded image (`{fileId}`) shown on the contact page' }),
  socialLinks: list(strict({ url: urlSchema() }), 0, VCARD_SOCIAL_LINKS_MAX)
    .optional()
    .meta({ description: `Profiles elsewhere, at most ${VCARD_SOCIAL_LINKS_MAX}: \`{url}\` each, an http(s) URL (the page names the platform from its host)` }),
});

export const wifiDataSchema = strict({
  ssid: text(SHORT_TEXT_MAX),
  encryption: enumOf(WIFI_ENCRYPTIONS),
  password: optionalText(SHORT_TEXT_MAX),
  hidden: booleanType().optional(),
});

export const locationDataSchema = strict({
  latitude: numberType().min(-90, { error: 'Must be >= -90' }).max(90, { error: 'Must be <= 90' }),
  longitude: numberType().min(-180, { error: 'Must be >= -180' }).max(180, { error: 'Must be <= 180' }),
  name: optionalText(SHORT_TEXT_MAX).meta({ description: "The place's name: the page's heading and the map pin's title (default: the link's name)" }),
  address: optionalText(ADDRESS_MAX).meta({ description: 'The place\'s address as people write it, shown under its name (line breaks kept)' }),
});

export const eventDataSchema = strict({
  description: text(LONG_TEXT_MAX),
  location: text(SHORT_TEXT_MAX),
  startDateTime: dateTimeSchema(),
  endDateTime: dateTimeSchema().optional(),
  timezone: timezoneSchema(),
  organizerName: optionalText(SHORT_TEXT_MAX),
  registrationUrl: urlSchema().optional(),
  eventTitle: optionalText(EVENT_TITLE_MAX),
  image: fileRefSchema.optional(),
}).superRefine((data, ctx) => {
  // Runs even when other members failed, so each end is checked whenever it is readable.
  const { timezone } = data as Record<string, unknown>;
  if (typeof timezone !== 'string') return;
  const instant = (field: 'startDateTime' | 'endDateTime') => {
    const value = (data as Record<string, unknown>)[field];
    if (typeof value !== 'string' || !isIsoDateTime(value)) return null;
    const at = parseDateTimeInZone(value, timezone);
    if (at && (at.getTime() < EVENT_EARLIEST_MS || at.getTime() > EVENT_LATEST_MS)) {
      ctx.addIssue({ code: 'custom', message: EVENT_RANGE_MESSAGE, path: [field], input: value });
      return null;
    }
    return at;
  };
  const start = instant('startDateTime');
  const end = instant('endDateTime');
  if (start && end && end.getTime() < start.getTime()) {
    ctx.addIssue({ code: 'custom', message: 'Must not be before startDateTime', path: ['endDateTime'], input: data.endDateTime });
  }
}, WHEN_OBJECT);

export const imageDataSchema = strict({ files: list(fileRefSchema, 1, FILES_MAX) });
export const pdfDataSchema = strict({ files: list(fileRefSchema, 1, FILES_MAX) });
export const galleryDataSchema = strict({ files: list(fileRefSchema, 1, GALLERY_FILES_MAX) });

export const landingDataSchema = strict({
  landingHTML: stringType()
    .refine((s) => s.trim().length > 0, { error: REQUIRED, abort: true })
    .refine((s) => s.length <= LANDING_HTML_MAX_BYTES && utf8Length(s) <= LANDING_HTML_MAX_BYTES, {
      error: 'Must be at most 512 KiB',
      abort: true,
    })
    .refine((s) => nestsAtMost(s, LANDING_HTML_MAX_DEPTH), { error: `Must not nest elements more than ${LANDING_HTML_MAX_DEPTH} deep` }),
});

export const discountSchema = z.discriminatedUnion(
  'type',
  [
    strict({ type: z.literal('amount'), value: nonNegative() }),
    strict({ type: z.literal('percent'), value: nonNegative().max(100, { error: 'Must be <= 100' }) }),
  ],
  { error: discriminatorError('type', DISCOUNT_TYPES) },
);

export const productDataSchema = strict({
  productName: text(SHORT_TEXT_MAX),
  productDescription: text(LONG_TEXT_MAX),
  currency: stringType().refine(isCurrencyCode, { error: 'Must be a currency code (ISO 4217, e.g. USD)' }),
  subTotal: nonNegative(),
  tax: nonNegative(),
  totalNet: nonNegative(),
  discount: discountSchema.optional(),
  images: strict({ files: list(fileRefSchema, 0, FILES_MAX) }).optional(),
  buyUrl: urlSchema().optional().meta({ description: 'Where the product is bought: the page\'s main "Buy" button' }),
});

export const multiLinkSchema = z.discriminatedUnion(
  'type',
  [
    strict({ type: z.literal('custom'), value: urlSchema(), title: text(SHORT_TEXT_MAX), icon: optionalText(ICON_MAX) }),
    strict({ type: z.literal('social'), value: urlSchema(), title: optionalText(SHORT_TEXT_MAX), icon: text(ICON_MAX) }),
  ],
  { error: discriminatorError('type', MULTI_LINK_TYPES) },
);

export const multiLinksDataSchema = strict({
  title: text(SHORT_TEXT_MAX),
  description: optionalText(LONG_TEXT_MAX),
  logo: z
    .unknown()
    .superRefine((value, ctx) => {
      const problem = smallJsonValueProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem, input: value });
    })
    .optional(),
  isRound: booleanType().optional(),
  design: strict({
    backgroundColor: colorSchema(),
    linkBackgroundColor: colorSchema(),
    textColor: colorSchema(),
  }),
  links: list(multiLinkSchema, 0, MULTI_LINKS_MAX).optional(),
});

export const multiPdfDataSchema = strict({
  pageTitle: text(PAGE_TITLE_MAX),
  pdfs: list(strict({ label: text(SHORT_TEXT_MAX), fileId: fileIdSchema() }), 1, MULTI_PDF_MAX),
});

// ---------------------------------------------------------------------------------------------
// Smart-url rules

const dateRangeCheck = (rule: unknown, ctx: z.RefinementCtx<unknown>) => {
  const { dateFrom, dateTo } = rule as Record<string, unknown>;
  if (typeof dateFrom !== 'string' || typeof dateTo !== 'string' || !isIsoDate(dateFrom) || !isIsoDate(dateTo)) return;
  // YYYY-MM-DD compares correctly as text. The same day on both ends is a one-day range.
  if (dateTo < dateFrom) ctx.addIssue({ code: 'custom', message: 'Must not be before dateFrom', path: ['dateTo'], input: dateTo });
};

const dateRule = z.discriminatedUnion(
  'operator',
  [
    strict({ conditionType: z.literal('date'), operator: z.literal('after'), url: urlSchema(), timezone: timezoneSchema(), dateFrom: dateSchema() }),
    strict({ conditionType: z.literal('date'), operator: z.literal('before'), url: urlSchema(), timezone: timezoneSchema(), dateTo: dateSchema() }),
    strict({
      conditionType: z.literal('date'),
      operator: z.enum(['between', 'not_between']),
      url: urlSchema(),
      timezone: timezoneSchema(),
      dateFrom: dateSchema(),
      dateTo: dateSchema(),
    }).superRefine(dateRangeCheck, WHEN_OBJECT),
  ],
  { error: discriminatorError('operator', OPERATORS.date) },
);

/**
 * One smart-url rule: where to send a scan when its condition holds. The rule is a union on
 * `conditionType`, and a date rule also on `operator`, so each kind of rule is its own strict
 * object:
 * - every rule: `conditionType`, `operator` (valid for that type, else an error at `operator`), `url`;
 * - location: `countries` (non-empty, ISO 3166-1 alpha-2 any case, no repeats);
 * - device: `devices` (non-empty, no repeats);
 * - time: `timezone`, `timeFrom`, `timeTo` (`HH:MM`; `timeTo` before `timeFrom` is a window
 *   across midnight, so the two are not compared);
 * - date: `timezone` and, by operator, `dateFrom` (after), `dateTo` (before) or both
 *   (between, not_between; `dateTo` >= `dateFrom`, reported at `dateTo`).
 *
 * Unknown-field policy: a member of another kind of rule (`devices` on a time rule, `dateTo` on an
 * `after` date rule) is rejected as an unknown member at its own path
 * (`rules[i].devices`: "Unknown field"), exactly like a misspelt one. Accepting and ignoring it
 * would store a condition that is never applied, and the user would never learn why.
 */
export const smartUrlRuleSchema = z.discriminatedUnion(
  'conditionType',
  [
    strict({
      conditionType: z.literal('location'),
      operator: enumOf(OPERATORS.location),
      url: urlSchema(),
      countries: list(
        stringType().refine(isCountryCode, { error: 'Must be a country code (ISO 3166-1 alpha-2, e.g. US)' }),
        1,
        COUNTRIES_MAX,
      ).superRefine(noDuplicates((c) => c.toUpperCase())),
    }),
    strict({
      conditionType: z.literal('time'),
      operator: enumOf(OPERATORS.time),
      url: urlSchema(),
      timezone: timezoneSchema(),
      timeFrom: timeSchema(),
      timeTo: timeSchema(),
    }),
    dateRule,
    strict({
      conditionType: z.literal('device'),
      operator: enumOf(OPERATORS.device),
      url: urlSchema(),
      devices: list(enumOf(DEVICES), 1, DEVICES.length).superRefine(noDuplicates()),
    }),
  ],
  { error: discriminatorError('conditionType', CONDITION_TYPES) },
);

export const smartUrlDataSchema = strict({
  defaultUrl: urlSchema(),
  rules: list(smartUrlRuleSchema, 0, SMART_URL_RULES_MAX).optional(),
});

export const menuDataSchema = strict({ name: optionalText(SHORT_TEXT_MAX) });

// ---------------------------------------------------------------------------------------------

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
