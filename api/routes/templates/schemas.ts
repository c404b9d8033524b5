/** The templates endpoints' request and response schemas. */
import { z } from 'zod';
import { qrOptionsSchema } from '#domain/qr/options.js';

const templateName = z.string().trim().min(1, 'Name is required').max(255, 'Name must be at most 255 characters');

export const createTemplateBody = z.strictObject({ name: templateName, qrOptions: qrOptionsSchema });
export const updateTemplateBody = z.strictObject({ name: templateName.optional(), qrOptions: qrOptionsSchema.optional() });

/** Create answers with ISO timestamps, list/get with `Mon DD, YYYY` (API contract). */
export const templateResponse = z.object({
  id: z.string(),
  account_id: z.string(),
  name: z.string(),
  qr_options: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  updated_at: z.string(),
});
