/**
 * Request schemas of the links endpoints. `data` is checked against its type's schema
 * (domain/links/data) and its issues are reported under `data.…`; each linkConfigurations
 * feature checks its fields only when its *Active toggle is true.
 */
import { z } from 'zod';
import { qrOptionsSchema } from '../qr/options.js';
import { pageStyleSchema } from './page-style.js';
import {
  isIanaTimezone,
  LANDING_HTML_MAX_BYTES,
  LANDING_HTML_MAX_DEPTH,
  LINK_TYPES,
  linkDataSchemas,
  parseDateTimeInZone,
  type LinkType,
} from './data/index.js';
import { LINK_STATUSES } from './status.js';
import { CUSTOM_SLUG_PATTERN, isReservedSlug } from './slug-rules.js';

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

/** Body of POST /links and PUT /links/:id. `qrOptions` is our addition: styling at creation time. */
export const linkBodySchema = z
  .strictObject({
    name,
    type: z.enum(LINK_TYPES, { error: `Must be one of: ${LINK_TYPES.join(', ')}` }),
    data: z.record(z.string(), z.unknown(), { error: 'Must be an object' }).meta({
      description: `The fields of the link's type. landing: \`landingHTML\` is at most ${LANDING_HTML_MAX_BYTES / 1024} KiB of UTF-8 and nests elements at most ${LANDING_HTML_MAX_DEPTH} deep (a 400 at \`data.landingHTML\` otherwise); it is sanitized once per change of the link, not per scan. Its images must be uploaded files, written as the \`url\` POST /files answered or as \`/files/<fileId>\` (stored as the latter; shown as the photo's web-sized copies), or base64 \`data:image/(png|jpeg|gif|webp)\` URLs; any other \`<img>\` is a 400 at \`data.landingHTML\` naming it. A \`fileId\` (here or in \`pageStyle\`) may name any upload of the account, also one another link uses: this link then gets a file of its own on the same stored bytes (no quota used), and the stored and answered data name that file's id. Optional members beyond the type's basic fields: location \`name\` (≤255, the heading and map pin title) and \`address\` (≤500); vcard \`jobTitle\` (≤255), \`photo\` (\`{fileId}\` of an image, attached to the link like every file its data names) and \`socialLinks\` (≤10 \`{url}\`, http(s)); product \`buyUrl\` (http(s), the page's Buy button); each refused with a 400 at its own path.`,
    }),
    linkConfigurations: linkConfigurationsSchema.optional(),
    qrOptions: qrOptionsSchema.optional(),
    pageStyle: pageStyleSchema.nullable().optional(),
  })
  // A refinement rather than a transform, so data's issues are reported beside the other members'
  // (a transform runs only when all else passed). `body` is zod's own copy of the input, so
  // `data` can become the type schema's output here: what is stored (URLs serialised).
  .superRefine((body, ctx) => {
    const schema = linkDataSchemas[body.type];
    if (!schema) return;
    const result = schema.safeParse(body.data);
    if (result.success) body.data = result.data as Record<string, unknown>;
    else for (const issue of result.error.issues) ctx.addIssue({ ...issue, path: ['data', ...issue.path] });
  });

export type LinkBody = z.infer<typeof linkBodySchema>;

export const patchQrBodySchema = z.strictObject({ qrCode: qrOptionsSchema });

export const moveLinkBodySchema = z.strictObject({
  folder_id: z.string().max(64).nullable().meta({ description: "One of the account's folders, or null for none" }),
});

export const optionalNameBodySchema = z
  .strictObject({ name: z.string().trim().min(1, 'Name must not be empty').max(255, 'Must be at most 255 characters').optional() })
  .nullish();

const commaList = <T extends readonly [string, ...string[]]>(values: T, what: string) =>
  z
    .string()
    .transform((s) =>
      s
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(values, { error: `Unknown ${what}; allowed: ${values.join(', ')}` })));

export const booleanParam = z
  .enum(['true', 'false', '1', '0'], { error: 'Must be true or false' })
  .transform((v) => v === 'true' || v === '1');

export const SORTS = ['most_recent', 'name', 'last_modified', 'most_visited'] as const;

/** The API's page parameters: `page` from 1, `size` from 1 to 1000 (default 20); lists answer `meta: pageMeta`. */
export const pageQuery = {
  page: z.coerce
    .number({ error: 'Must be a whole number >= 1' })
    .int('Must be a whole number >= 1')
    .min(1, 'Must be a whole number >= 1')
    .default(1),
  size: z.coerce
    .number({ error: 'Must be a whole number from 1 to 1000' })
    .int('Must be a whole number from 1 to 1000')
    .min(1, 'Must be a whole number from 1 to 1000')
    .max(1000, 'Must be a whole number from 1 to 1000')
    .default(20),
};

export const listLinksQuerySchema = z.strictObject({
  ...pageQuery,
  search: z.string().max(255).optional(),
  q: z.string().max(255).optional().meta({
    description:
      "An addition: case-insensitive match on the link's name, its slug (dynamic_link_id) or its destination URL (a website link's url); `search` matches the name only",
  }),
  folder: z.string().max(64).optional(),
  qr_type: commaList(LINK_TYPES, 'type').optional(),
  status: commaList(LINK_STATUSES, 'status').optional(),
  only_favorites: booleanParam.optional(),
  sort_by: z.enum(SORTS, { error: `Must be one of: ${SORTS.join(', ')}` }).optional(),
  menu: z.string().max(255).optional(),
});

export type ListLinksQuery = z.infer<typeof listLinksQuerySchema>;

export const minimalLinksQuerySchema = listLinksQuerySchema.omit({ menu: true });
