/**
 * The audit log's request and response schemas: what GET /audit-events, a link's history
 * (GET /links/:id/history) and the audit export take, and what they answer.
 */
import { z } from 'zod';
import { AUDIT_PAGE_MAX, type AuditFilters } from '#domain/audit/events.js';
import { AUDIT_ENTITIES } from '#domain/audit/snapshots.js';

const instant = z.iso.datetime({ offset: true, error: 'Must be an ISO 8601 date-time' });
/** Ids are UUIDs and slugs (at most 64 characters); anything longer names nothing. */
const ref = z.string().min(1, 'Must not be empty').max(200, 'Must be at most 200 characters');

export const auditFilterShape = {
  actor: z.uuid({ error: 'Must be a user id or an API key id' }).optional().describe('A user id or an API key id: the changes they made'),
  entity: z.enum(AUDIT_ENTITIES, { error: `Must be one of: ${AUDIT_ENTITIES.join(', ')}` }).optional(),
  entityId: ref.optional().describe("The entity's id (a link's `id`, not its slug)"),
  linkId: ref.optional().describe("A link's id or its slug (dynamic_link_id): that link's events, as entity=link"),
  from: instant.optional().describe('Events at or after this instant'),
  to: instant.optional().describe('Events before this instant'),
};

export const pageShape = {
  cursor: z.string().max(500, 'Not a cursor this list answered').optional().describe("The previous page's `nextCursor`"),
  limit: z.coerce
    .number({ error: `Must be a whole number from 1 to ${AUDIT_PAGE_MAX}` })
    .int(`Must be a whole number from 1 to ${AUDIT_PAGE_MAX}`)
    .min(1, `Must be a whole number from 1 to ${AUDIT_PAGE_MAX}`)
    .max(AUDIT_PAGE_MAX, `Must be a whole number from 1 to ${AUDIT_PAGE_MAX}`)
    .default(50),
};

export const auditQuerySchema = z.strictObject({ ...auditFilterShape, ...pageShape });
export const historyQuerySchema = z.strictObject(pageShape);
export const auditExportBodySchema = z.strictObject(auditFilterShape);

/** The filters as the domain reads them. */
export function auditFiltersOf(q: z.infer<typeof auditExportBodySchema>): AuditFilters {
  return {
    ...(q.actor !== undefined && { actor: q.actor }),
    ...(q.entity !== undefined && { entity: q.entity }),
    ...(q.entityId !== undefined && { entityId: q.entityId }),
    ...(q.linkId !== undefined && { linkId: q.linkId }),
    ...(q.from !== undefined && { from: new Date(q.from) }),
    ...(q.to !== undefined && { to: new Date(q.to) }),
  };
}

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
