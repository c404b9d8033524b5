/**
 * The links endpoints' wire format: the bodies and queries they take and the answers they give.
 * `data` is checked against its type's schema (domain/links/data) and its issues are reported
 * under `data.…`; what a link is made of is the domain's (domain/links/schemas.ts).
 */
import { z } from 'zod';
import { LANDING_HTML_MAX_BYTES, LANDING_HTML_MAX_DEPTH, LINK_TYPES, linkDataSchemas } from '#domain/links/data/index.js';
import { booleanParam, linkConfigurationsSchema, linkNameSchema, linkUtmSchema, queryPolicySchema, SORTS } from '#domain/links/schemas.js';
import { QUERY_POLICIES } from '#domain/links/utm-fields.js';
import { pageStyleSchema } from '#domain/links/page-style.js';
import { LINK_STATUSES } from '#domain/links/status.js';
import { qrOptionsSchema } from '#domain/qr/options.js';
import { pageQuery } from '../../schemas.js';

/** A link's UTM parameters as answered: only those set; null for none. */
const utmView = z
  .object({
    source: z.string().optional(),
    medium: z.string().optional(),
    campaign: z.string().optional(),
    term: z.string().optional(),
    content: z.string().optional(),
  })
  .nullable()
  .meta({ description: 'An addition: the UTM parameters the link adds to its destination (only those set), or null for none' });

/** Body of POST /links and PUT /links/:id. `qrOptions` is our addition: styling at creation time. */
export const linkBodySchema = z
  .strictObject({
    name: linkNameSchema,
    type: z.enum(LINK_TYPES, { error: `Must be one of: ${LINK_TYPES.join(', ')}` }),
    data: z.record(z.string(), z.unknown(), { error: 'Must be an object' }).meta({
      description: `The fields of the link's type. landing: \`landingHTML\` is at most ${LANDING_HTML_MAX_BYTES / 1024} KiB of UTF-8 and nests elements at most ${LANDING_HTML_MAX_DEPTH} deep (a 400 at \`data.landingHTML\` otherwise); it is sanitized once per change of the link, not per scan. Its images must be uploaded files, written as the \`url\` POST /files answered or as \`/files/<fileId>\` (stored as the latter; shown as the photo's web-sized copies), or base64 \`data:image/(png|jpeg|gif|webp)\` URLs; any other \`<img>\` is a 400 at \`data.landingHTML\` naming it. A \`fileId\` (here or in \`pageStyle\`) may name any upload of the account, also one another link uses: this link then gets a file of its own on the same stored bytes (no quota used), and the stored and answered data name that file's id. Optional members beyond the type's basic fields: location \`name\` (≤255, the heading and map pin title) and \`address\` (≤500); vcard \`jobTitle\` (≤255), \`photo\` (\`{fileId}\` of an image, attached to the link like every file its data names) and \`socialLinks\` (≤10 \`{url}\`, http(s)); product \`buyUrl\` (http(s), the page's Buy button); each refused with a 400 at its own path.`,
    }),
    linkConfigurations: linkConfigurationsSchema.optional(),
    qrOptions: qrOptionsSchema.optional(),
    pageStyle: pageStyleSchema.nullable().optional(),
    domain: z
      .string({ error: 'Must be a string or null' })
      .max(300, { error: 'A domain name has at most 253 characters' })
      .nullable()
      .optional()
      .meta({
        description:
          "An addition: the domain to serve the link on, one of the account's domains (GET /domains) in any spelling, or null (or the default host) for the service's default domain. Absent: the account's default domain on create, the link's own on update. A move keeps the slug, so it must be free there (409 `slug_taken` at `domain`); a turned-off domain is a 409 `domain_disabled`.",
      }),
    utm: linkUtmSchema.optional(),
    queryPolicy: queryPolicySchema.optional(),
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

/**
 * PATCH /links/:id: new QR styling, and (additions) the link's UTM parameters and query policy;
 * what is absent stays as it is. At least one is given (the contract's body is `{qrCode}`).
 */
export const patchLinkBodySchema = z
  .strictObject({ qrCode: qrOptionsSchema.optional(), utm: linkUtmSchema.optional(), queryPolicy: queryPolicySchema.optional() })
  .superRefine((body, ctx) => {
    if (body.qrCode === undefined && body.utm === undefined && body.queryPolicy === undefined)
      ctx.addIssue({ code: 'custom', path: ['qrCode'], message: 'Required (or utm, or queryPolicy)' });
  });

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

export const minimalLinksQuerySchema = listLinksQuerySchema.omit({ menu: true });

const fileView = z.object({ fileId: z.string(), url: z.string(), contentType: z.string(), size: z.number() });

/** A link as answered by get, list and update (view.ts). */
export const linkResponse = z.object({
  id: z.string(),
  dynamic_link_id: z.string(),
  full_dynamic_url: z.string().meta({ description: "The short URL, on the link's domain" }),
  domain: z
    .string()
    .meta({ description: "An addition: the name of the link's domain (the default host, or one of the account's domains)" }),
  name: z.string(),
  type: z.string(),
  meta_data: z.record(z.string(), z.unknown()),
  qr_options: z.record(z.string(), z.unknown()),
  page_style: z
    .record(z.string(), z.unknown())
    .nullable()
    .meta({ description: 'The pageStyle set on the link (brand and language of its page), or null' }),
  folder_id: z.string().nullable(),
  menu: z.string().nullable(),
  favorite: z.boolean(),
  paused: z.boolean(),
  status: z.enum(LINK_STATUSES),
  url_active: z.boolean(),
  custom_url: z.string().nullable(),
  schedule_active: z.boolean(),
  start_date: z.string().nullable(),
  end_date: z.string().nullable(),
  schedule_timezone: z.string().nullable(),
  scan_limit_active: z.boolean(),
  scan_limit: z.number().nullable(),
  password_protected_active: z.boolean(),
  password: z.string().nullable().describe('bcrypt hash when password protection is on; never plaintext'),
  scan_count: z.number(),
  human_scan_count: z.number(),
  limit_scan_count: z.number().describe('human scans counted against scan_limit: each visitor once per UTC day'),
  last_scanned_at: z.string().nullable(),
  files: z.array(fileView),
  created_at: z.string(),
  updated_at: z.string(),
  created_by: z
    .string()
    .nullable()
    .meta({ description: 'Who made the link: a user id, or an API key id for a key of no person; null for older links and bulk jobs' }),
  updated_by: z.string().nullable().meta({ description: 'Who changed it last, as created_by' }),
  utm: utmView,
  query_policy: z
    .enum(QUERY_POLICIES)
    .meta({ description: "An addition: `drop` or `merge`, what a website or smart-url link does with a visitor's query" }),
});

/** The fields of a link that hold an object, whose members `fields` may name one by one. */
const OBJECT_FIELDS = ['meta_data', 'qr_options', 'page_style'] as const;
const LINK_FIELDS = Object.keys(linkResponse.shape);
/** Always answered, whatever `fields` names: what a client knows a link by. */
const IDENTITY_FIELDS = ['id', 'dynamic_link_id'] as const;
const MEMBER = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_FIELDS = 100;

/** What `fields` asks for: per top-level field, true for all of it or the members named. */
export type LinkFields = ReadonlyMap<string, true | ReadonlySet<string>>;

/**
 * An addition to GET /links (docs/decisions/0378-the-links-list-redesigned.md): `fields` names what
 * each link of the page holds, so a list screen can leave out the stored designs and their logos
 * (base64 images made a page of 100 links 808 KB). Without it the answer is the contract's.
 */
export const linkFieldsParam = z
  .string()
  .max(4000)
  .transform((value, ctx): LinkFields => {
    const fields = new Map<string, true | Set<string>>(IDENTITY_FIELDS.map((f) => [f, true]));
    const names = value
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean);
    if (names.length > MAX_FIELDS) {
      ctx.addIssue({ code: 'custom', message: `At most ${MAX_FIELDS} names` });
      return z.NEVER;
    }
    for (const name of names) {
      const [top = '', member, ...rest] = name.split('.');
      const objectField = (OBJECT_FIELDS as readonly string[]).includes(top);
      if (!LINK_FIELDS.includes(top) || (member !== undefined && (!objectField || !MEMBER.test(member) || rest.length > 0))) {
        ctx.addIssue({
          code: 'custom',
          message: `Unknown field "${name}": name fields of a link (${LINK_FIELDS.join(', ')}), or a member of ${OBJECT_FIELDS.join(', ')} as qr_options.dotsOptions`,
        });
        return z.NEVER;
      }
      const had = fields.get(top);
      if (member === undefined || had === true) fields.set(top, true);
      else fields.set(top, new Set([...(had ?? []), member]));
    }
    return fields;
  })
  .optional()
  .meta({
    description:
      'An addition: a comma-separated list of the fields each link holds, e.g. `name,type,status,meta_data.url,qr_options.dotsOptions`. ' +
      `A field of ${OBJECT_FIELDS.join(', ')} may be named whole or by its members (\`qr_options.dotsOptions\`: the member, when the link has it; ` +
      'the object then holds only the members named). `id` and `dynamic_link_id` are always there. Without `fields`, every field.',
  });

/** A link's view holding only what `fields` names (all of it without `fields`). */
export function pickFields(view: Record<string, unknown>, fields: LinkFields | undefined): Record<string, unknown> {
  if (!fields) return view;
  const picked: Record<string, unknown> = {};
  for (const [name, members] of fields) {
    const value = view[name];
    if (members === true || value === null || typeof value !== 'object') picked[name] = value;
    else {
      const whole = value as Record<string, unknown>;
      // fromEntries defines each member as data, so a stored member named __proto__ stays a member.
      picked[name] = Object.fromEntries([...members].filter((m) => Object.hasOwn(whole, m)).map((m) => [m, whole[m]]));
    }
  }
  return picked;
}
