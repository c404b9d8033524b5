/** What POST /bulk-generate answers (what it takes: domain/bulk/schemas.ts). */
import { z } from 'zod';
import { fieldErrorListShape } from '../../../domain/errors.js';

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
