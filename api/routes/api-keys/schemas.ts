/** Response schemas of the api-keys endpoints (request schemas: domain/accounts/schemas.ts). */
import { z } from 'zod';

export const apiKeyResponse = z.object({
  id: z.string(),
  name: z.string().nullable(),
  prefix: z.string(),
  scopes: z.array(z.string()),
  active: z.boolean(),
  expires_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  created_at: z.string(),
});
