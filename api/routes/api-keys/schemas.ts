/** The api-keys endpoints' request and response schemas. */
import { z } from 'zod';
import { SCOPES } from '#domain/accounts/scopes.js';

const scopeList = z.array(z.enum(SCOPES, { error: `Must be one of: ${SCOPES.join(', ')}` })).min(1, 'At least one scope is required');

export const createApiKeyBody = z.strictObject({
  name: z.string().trim().min(1, 'Name is required').max(255, 'Name must be at most 255 characters'),
  scopes: scopeList,
  expiresAt: z.iso
    .datetime({ offset: true, error: 'Must be an ISO 8601 date-time' })
    .refine((v) => Date.parse(v) > Date.now(), 'Must be in the future')
    .optional(),
});

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
