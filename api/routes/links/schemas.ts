/** Response schemas of the links endpoints (request schemas are the domain's: domain/links/schemas.ts). */
import { z } from 'zod';
import { LINK_STATUSES } from '../../../domain/links/status.js';

const fileView = z.object({ fileId: z.string(), url: z.string(), contentType: z.string(), size: z.number() });

/** A link as answered by get, list and update (view.ts). */
export const linkResponse = z.object({
  id: z.string(),
  dynamic_link_id: z.string(),
  full_dynamic_url: z.string(),
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
