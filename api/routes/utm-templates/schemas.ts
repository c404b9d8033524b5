/** The UTM templates endpoints' request and response schemas. */
import { z } from 'zod';
import { utmSchema } from '#domain/links/schemas.js';

const templateName = z.string().trim().min(1, 'Name is required').max(255, 'Name must be at most 255 characters');

/** A template holds at least one parameter: an empty one would fill a link with nothing. */
const templateUtm = utmSchema.refine((utm) => Object.values(utm).some((v) => v !== undefined), {
  message: 'Give at least one UTM parameter',
});

export const createUtmTemplateBody = z.strictObject({ name: templateName, utm: templateUtm });
export const updateUtmTemplateBody = z.strictObject({ name: templateName.optional(), utm: templateUtm.optional() });

export const utmTemplateResponse = z.object({
  id: z.string(),
  name: z.string(),
  utm: z.object({
    source: z.string().optional(),
    medium: z.string().optional(),
    campaign: z.string().optional(),
    term: z.string().optional(),
    content: z.string().optional(),
  }),
  created_at: z.string(),
  updated_at: z.string(),
});
