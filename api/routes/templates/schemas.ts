/** Response schemas of the templates endpoints (request schemas: domain/templates/schemas.ts). */
import { z } from 'zod';

/** Create answers with ISO timestamps, list/get with `Mon DD, YYYY` (API contract). */
export const templateResponse = z.object({
  id: z.string(),
  account_id: z.string(),
  name: z.string(),
  qr_options: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  updated_at: z.string(),
});
