/**
 * What POST /bulk-generate takes: one link type for the whole batch and 1 to BULK_MAX_RECORDS
 * records. A record is not the single link's `data`: it carries the link's `name` beside the
 * type's fields, and its own required/optional rules (a product needs only name and productName,
 * currency defaults to USD; a vCard also needs contact). Each field that a record shares with the
 * type's `data` is checked by that type's own field schema (domain/links/data), so a value valid in
 * one is valid in the other, and `recordToLink` turns a record into the `data` POST /links would
 * store for the same fields, so scanning a bulk link shows the same page.
 */
import { z } from 'zod';
import { productDataSchema, smsDataSchema, vcardDataSchema, websiteDataSchema } from '../links/data/index.js';
import { linkNameSchema } from '../links/schemas.js';
import { qrOptionsSchema } from '../qr/options.js';

export const BULK_TYPES = ['website', 'product', 'sms', 'vcard'] as const;
export type BulkType = (typeof BULK_TYPES)[number];
export const BULK_MAX_RECORDS = 1200;

const recordName = z.string({ error: (issue) => (issue.input === undefined ? 'Required' : 'Must be a string') }).pipe(linkNameSchema);

const product = productDataSchema.shape;
const vcard = vcardDataSchema.shape;

/** One record per type: `name` plus the type's fields, as the bulk table requires them. */
export const bulkRecordSchemas = {
  website: websiteDataSchema.extend({ name: recordName }),
  product: productDataSchema
    .pick({ productName: true, productDescription: true, currency: true, subTotal: true, tax: true, totalNet: true })
    .extend({
      name: recordName,
      productDescription: product.productDescription.optional(),
      currency: product.currency.optional().default('USD'),
      subTotal: product.subTotal.optional(),
      tax: product.tax.optional(),
      totalNet: product.totalNet.optional(),
    }),
  // The single link's optional message is kept: an SMS code usually pre-fills one.
  sms: smsDataSchema.extend({ name: recordName }),
  // contact (the mobile number) is required here, optional on a single vCard link. A photo (an
  // uploaded file to attach) and social links (a list) are not cells of a CSV row.
  vcard: vcardDataSchema.omit({ photo: true, socialLinks: true }).extend({ name: recordName, contact: vcard.firstName }),
} satisfies Record<BulkType, z.ZodType>;

/** A record as stored: the link's name, and its `data` (meta_data) without members left out. */
export interface BulkLinkRecord {
  name: string;
  data: Record<string, unknown>;
}

export function recordToLink(record: Record<string, unknown>): BulkLinkRecord {
  const { name, ...rest } = record;
  const data: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rest)) if (value !== undefined) data[key] = value;
  return { name: name as string, data };
}

const optionalId = (what: string) =>
  z
    .string({ error: `Must be a ${what} id (string)` })
    .max(64, { error: `Must be a ${what} id` })
    .nullable()
    .optional();

/**
 * The JSON body (and, field by field, the CSV form). Every record is checked, and every issue of
 * every record is reported at `data[i].<field>` (a refinement, so they come beside the other
 * members' issues); the records come out as what the job stores.
 */
export const bulkBodySchema = z
  .strictObject({
    type: z.enum(BULK_TYPES, { error: (issue) => (issue.input === undefined ? 'Required' : `Must be one of: ${BULK_TYPES.join(', ')}`) }),
    data: z
      .array(z.unknown(), { error: (issue) => (issue.input === undefined ? 'Required' : 'Must be an array of records') })
      .min(1, { error: `Must have 1 to ${BULK_MAX_RECORDS} records` })
      .max(BULK_MAX_RECORDS, { error: `Must have 1 to ${BULK_MAX_RECORDS} records` }),
    folderId: optionalId('folder'),
    templateId: optionalId('template'),
    qrOptions: qrOptionsSchema.optional(),
  })
  .superRefine(
    (body, ctx) => {
      if (body.qrOptions !== undefined && body.templateId) {
        ctx.addIssue({ code: 'custom', path: ['templateId'], message: 'Give either qrOptions or templateId, not both' });
      }
      const schema: z.ZodType | undefined = bulkRecordSchemas[body.type];
      if (!schema || !Array.isArray(body.data)) return;
      body.data.forEach((record, i) => {
        const result = schema.safeParse(record);
        if (result.success) body.data[i] = result.data;
        else for (const issue of result.error.issues) ctx.addIssue({ ...issue, path: ['data', i, ...issue.path] });
      });
    },
    // Records are checked whenever type and data can be read, whatever else is wrong, so one
    // answer names every problem.
    {
      when: ({ value }) => {
        const v = value as { type?: unknown; data?: unknown } | null;
        return typeof v === 'object' && v !== null && (BULK_TYPES as readonly unknown[]).includes(v.type) && Array.isArray(v.data);
      },
    },
  )
  .meta({
    example: {
      type: 'website',
      folderId: '3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f',
      data: [
        { name: 'Table 1', url: 'https://example.com/menu?table=1' },
        { name: 'Table 2', url: 'https://example.com/menu?table=2' },
      ],
    },
  });

export type BulkBody = z.output<typeof bulkBodySchema>;

export const bulkQuerySchema = z.strictObject({
  dryRun: z
    .enum(['true', 'false', '1', '0'], { error: 'Must be true or false' })
    .transform((v) => v === 'true' || v === '1')
    .optional(),
});
