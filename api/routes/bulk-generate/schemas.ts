/**
 * POST /bulk-generate's request and response schemas. The body's records are checked by the
 * domain's record schemas (domain/bulk/schemas.ts), which the CSV reader shares.
 */
import { z } from 'zod';
import { BULK_MAX_RECORDS, BULK_TYPES, bulkRecordSchemas } from '#domain/bulk/schemas.js';
import { fieldErrorListShape } from '#domain/errors.js';
import { qrOptionsSchema } from '#domain/qr/options.js';
import { distanceMmQuery, sizeMmQuery } from '#domain/qr/qr-images.js';
import { linkUtmSchema, queryPolicySchema } from '#domain/links/schemas.js';

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
    domain: z
      .string({ error: 'Must be a string or null' })
      .max(300, { error: 'A domain name has at most 253 characters' })
      .nullable()
      .optional()
      .meta({
        description:
          "An addition: the domain of every link of the batch, as a link's `domain` (one of the account's domains, or null for the default domain; absent: the account's default domain)",
      }),
    placement: z
      .string({ error: 'Must be a string or null' })
      .trim()
      .min(1, 'Name is required')
      .max(100, 'Name must be at most 100 characters')
      .regex(/^[^\p{Cc}]*$/u, 'Name must not contain control characters')
      .nullable()
      .optional()
      .meta({
        description:
          'An addition: a placement every link of the batch gets (e.g. "Flyer A"); the ZIP\'s codes are that placement\'s (`?q=1`), so its scans are counted apart from other codes of the links',
      }),
    utm: linkUtmSchema
      .optional()
      .meta({ description: "An addition: every link's UTM parameters, as a link's `utm` (website links send them)" }),
    queryPolicy: queryPolicySchema.optional().meta({ description: "An addition: every link's query policy, as a link's `queryPolicy`" }),
    print: z
      .strictObject({
        sizeMm: sizeMmQuery,
        distanceMm: distanceMmQuery.optional(),
        autoFix: z.boolean({ error: 'Must be true or false' }).default(true),
      })
      .optional()
      .meta({
        description:
          'An addition: the printed width (mm) the batch is judged at before its links are made. The design is scored once by the ' +
          "scannability gate on a short URL of the batch's length; with autoFix (the default) a design that does not scan well is " +
          'stored and drawn with the smallest change that does. The ZIP holds print-report.json; the result says `print`.',
      }),
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

export const bulkQuerySchema = z.strictObject({
  dryRun: z
    .enum(['true', 'false', '1', '0'], { error: 'Must be true or false' })
    .transform((v) => v === 'true' || v === '1')
    .optional(),
});

/** One link made by the batch, in request order: `{id, dynamicLinkId}` as the API documents it. */
export const bulkLinkResponse = z.object({
  id: z.string().meta({ description: 'The database id of the link' }),
  dynamicLinkId: z.string().meta({ description: 'Its slug (`{short_url_base}/<dynamicLinkId>`)' }),
});

export const bulkResultResponse = z
  .object({
    jobId: z.string(),
    count: z.number().int(),
    links: z.array(bulkLinkResponse).meta({ description: 'In the order of the request’s records' }),
    qrZipUrl: z
      .string()
      .optional()
      .meta({ description: 'The ZIP of every code (PNG and SVG, manifest.csv); present once rendered (see GET /jobs/{jobId})' }),
    print: z
      .object({
        verdict: z.enum(['scans-well', 'risky', 'will-fail']),
        score: z.number(),
        fixed: z.array(z.string()).meta({ description: 'What auto-fix changed in the stored design, in words; empty: nothing' }),
      })
      .optional()
      .meta({ description: 'An addition, when `print` was asked: the gate’s verdict on the batch’s design as stored' }),
  })
  .meta({
    example: {
      jobId: '9b7e2c4a-1f3d-4a5b-8c6d-7e8f9a0b1c2d',
      count: 2,
      links: [
        { id: '0d6e1f2a-3b4c-4d5e-8f90-a1b2c3d4e5f6', dynamicLinkId: 'aB3x9Qz' },
        { id: '1e7f203b-4c5d-4e6f-9a01-b2c3d4e5f6a7', dynamicLinkId: 'Q7mZ2kP' },
      ],
    },
  });

export const dryRunResponse = z.object({
  dryRun: z.literal(true),
  valid: z.boolean(),
  count: z.number().int().meta({ description: 'Records sent' }),
  ...fieldErrorListShape,
});
