/** Response schemas of the audit log (request schemas: domain/audit/schemas.ts). */
import { z } from 'zod';

const auditValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const auditEventResponse = z.object({
  id: z.string(),
  at: z.string().meta({ description: 'ISO 8601' }),
  actor: z.object({
    userId: z.string().nullable(),
    keyId: z.string().nullable(),
    label: z.string().meta({ description: "The person's email or the key's name and prefix, as they were then" }),
  }),
  entity: z.string(),
  entityId: z.string().meta({ description: "The entity's id (a link's `id`, not its slug); empty for a change of many" }),
  action: z.string(),
  changes: z.array(z.object({ field: z.string(), before: auditValue, after: auditValue })).meta({
    description: 'Fields that differ; values over 1 KB end with "…[truncated]", past 50 fields or 16 KB a last "…" entry counts the rest',
  }),
  ip: z.string().nullable().meta({ description: 'The network the change came from: an IPv4 /24 or IPv6 /48' }),
  requestId: z.string().nullable(),
});

export const auditPageResponse = z.object({
  data: z.array(auditEventResponse),
  nextCursor: z.string().nullable().meta({ description: 'Pass as `cursor` for the next page; null on the last' }),
});
