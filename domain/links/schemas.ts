/**
 * What a link is made of, whichever way it is made (the api's bodies, bulk rows, templates): its
 * name, its configurations (each feature checks its fields only when its *Active toggle is true)
 * and when a schedule ends; and the plain inputs the link use cases take. The HTTP bodies and
 * queries that carry them are the api's (api/routes/links/schemas.ts).
 */
import { z } from 'zod';
import type { QrOptions } from '../qr/options.js';
import type { PageStyle } from './page-style.js';
import { isIanaTimezone, parseDateTimeInZone, type LinkType } from './data/index.js';
import type { LinkStatus } from './status.js';
import { CUSTOM_SLUG_PATTERN, isReservedSlug } from './slug-rules.js';
import { QUERY_POLICIES, type QueryPolicy, type Utm } from './utm-fields.js';
import { UTM_VALUE_MAX } from './utm-url.js';

/** A link's display name, as every way of making links takes it. */
export const linkNameSchema = z.string().trim().min(1, 'Name is required').max(255, 'Must be at most 255 characters');
const name = linkNameSchema;

const isDateOnly = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v);

export const linkConfigurationsSchema = z
  .strictObject({
    folder_id: z.string().max(64).nullable().optional(),
    urlActive: z.boolean().optional(),
    customUrl: z.string().max(200).nullable().optional(),
    scheduleActive: z.boolean().optional(),
    startDate: z.string().max(64).nullable().optional(),
    endDate: z.string().max(64).nullable().optional(),
    scheduleTimezone: z.string().max(200).nullable().optional(),
    scanLimitActive: z.boolean().optional(),
    scanLimit: z.number().nullable().optional(),
    passwordProtectedActive: z.boolean().optional(),
    password: z.string().max(1000).nullable().optional().meta({
      description: 'Required when passwordProtectedActive is true, except on PUT: left out there, the link keeps its current password',
    }),
  })
  .superRefine((c, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (c.urlActive) {
      if (!c.customUrl) issue('customUrl', 'Required when urlActive is true');
      else if (c.customUrl.length > 64) issue('customUrl', 'Must be at most 64 characters');
      else if (!CUSTOM_SLUG_PATTERN.test(c.customUrl)) issue('customUrl', 'Only letters, digits, - and _ are allowed');
      else if (isReservedSlug(c.customUrl)) issue('customUrl', 'This URL is reserved');
    }
    if (c.scheduleActive) {
      let zoneOk = false;
      if (!c.scheduleTimezone) issue('scheduleTimezone', 'Required when scheduleActive is true');
      else if (c.scheduleTimezone.length > 64) issue('scheduleTimezone', 'Must be at most 64 characters');
      else if (!isIanaTimezone(c.scheduleTimezone)) issue('scheduleTimezone', 'Must be an IANA time zone such as Europe/Paris');
      else zoneOk = true;
      const zone = zoneOk ? c.scheduleTimezone! : 'UTC';
      const start = c.startDate ? parseDateTimeInZone(c.startDate, zone) : null;
      const end = c.endDate ? scheduleEnd(c.endDate, zone) : null;
      if (!c.startDate) issue('startDate', 'Required when scheduleActive is true');
      else if (!start) issue('startDate', 'Must be a date (YYYY-MM-DD) or an ISO 8601 date-time');
      if (!c.endDate) issue('endDate', 'Required when scheduleActive is true');
      else if (!end) issue('endDate', 'Must be a date (YYYY-MM-DD) or an ISO 8601 date-time');
      else if (start && end <= start) issue('endDate', 'Must be after startDate');
    }
    if (c.scanLimitActive) {
      if (c.scanLimit === undefined || c.scanLimit === null) issue('scanLimit', 'Required when scanLimitActive is true');
      else if (!Number.isInteger(c.scanLimit) || c.scanLimit < 1 || c.scanLimit > 2_147_483_647) {
        issue('scanLimit', 'Must be a positive whole number');
      }
    }
    // Left out (undefined), the password is the link's current one: PUT keeps it, create has none (links.ts).
    if (c.passwordProtectedActive && c.password !== undefined) {
      if (!c.password) issue('password', 'Required when passwordProtectedActive is true');
      else if (c.password.length > 32) issue('password', 'Must be at most 32 characters');
    }
  });

export type LinkConfigurations = z.infer<typeof linkConfigurationsSchema>;

const utmValue = z
  .string({ error: 'Must be a string' })
  .trim()
  .min(1, `Must be 1 to ${UTM_VALUE_MAX} characters`)
  .max(UTM_VALUE_MAX, `Must be 1 to ${UTM_VALUE_MAX} characters`)
  .regex(/^[^\u0000-\u001f\u007f-\u009f]*$/, 'Must not contain control characters')
  .optional();

/**
 * UTM parameters as a link or a UTM template takes them: each optional, trimmed, 1 to
 * UTM_VALUE_MAX characters. Sent as `utm_<name>` on the link's destination.
 */
export const utmSchema = z
  .strictObject({ source: utmValue, medium: utmValue, campaign: utmValue, term: utmValue, content: utmValue })
  .meta({
    description: 'UTM parameters, each sent as `utm_<name>`: source, medium, campaign, term, content (each optional, 1–200 characters)',
  });

/** A link's `utm` in a body: an object of UTM parameters; an empty object or null clears them. */
export const linkUtmSchema = utmSchema.nullable().meta({
  description:
    "An addition: UTM parameters added to a website or smart-url link's destinations as `utm_<name>`, replacing any of the same name the destination has; an empty object or null clears them. Absent: none on create, unchanged on update.",
});

export const queryPolicySchema = z.enum(QUERY_POLICIES, { error: `Must be one of: ${QUERY_POLICIES.join(', ')}` }).meta({
  description:
    "An addition: what a website or smart-url link does with the query a visitor arrives with: `drop` it (the default) or `merge` it into the destination (the destination's own parameters and the link's UTM win; the QR source marker `q` is never passed on). Absent: drop on create, unchanged on update.",
});

/** UTM parameters as stored: null for none (null or an empty object). */
export function storedUtm(utm: Utm | null): Utm | null {
  if (!utm) return null;
  const kept = Object.fromEntries(Object.entries(utm).filter(([, value]) => value !== undefined)) as Utm;
  return Object.keys(kept).length > 0 ? kept : null;
}

/**
 * The instant a schedule ends. A bare date means "through that day": the window closes at the
 * next midnight in the schedule's zone, so startDate = endDate = 2026-12-24 is one whole day.
 */
export function scheduleEnd(value: string, zone: string): Date | null {
  if (!isDateOnly(value)) return parseDateTimeInZone(value, zone);
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  const next = new Date(Date.UTC(y, m - 1, d + 1));
  return parseDateTimeInZone(next.toISOString().slice(0, 10), zone);
}

/**
 * A link as createLink and updateLink take it: its `data` already checked against its type's
 * schema (data/), as stored.
 */
export interface LinkInput {
  name: string;
  type: LinkType;
  data: Record<string, unknown>;
  linkConfigurations?: LinkConfigurations | undefined;
  qrOptions?: QrOptions | undefined;
  pageStyle?: PageStyle | null | undefined;
  /**
   * The domain to serve it on (link-domains.ts): a name of one of the account's domains, null or
   * the default host for the default domain; absent, the account's default domain on create and
   * the link's own on update.
   */
  domain?: string | null | undefined;
  /** Absent: none on create, unchanged on update; null or an empty object clears them. */
  utm?: Utm | null | undefined;
  /** Absent: 'drop' on create, unchanged on update. */
  queryPolicy?: QueryPolicy | undefined;
}

/** "true"/"false" (or 1/0) in a query string, as a boolean. */
export const booleanParam = z
  .enum(['true', 'false', '1', '0'], { error: 'Must be true or false' })
  .transform((v) => v === 'true' || v === '1');

export const SORTS = ['most_recent', 'name', 'last_modified', 'most_visited'] as const;

export type LinkSort = (typeof SORTS)[number];

/** Which page of which links listLinks reads. */
export interface LinkListQuery {
  page: number;
  size: number;
  search?: string | undefined;
  q?: string | undefined;
  folder?: string | undefined;
  qr_type?: LinkType[] | undefined;
  status?: LinkStatus[] | undefined;
  only_favorites?: boolean | undefined;
  sort_by?: LinkSort | undefined;
  menu?: string | undefined;
}
