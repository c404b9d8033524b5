import type { AuditEventRow, AuditPage } from '#domain/audit/events.js';

/** An audit event as the api answers it. */
export function auditEventView(row: AuditEventRow) {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor: { userId: row.actorUserId, keyId: row.actorKeyId, label: row.actorLabel },
    entity: row.entity,
    entityId: row.entityId,
    action: row.action,
    changes: row.changes,
    ip: row.ip,
    requestId: row.requestId,
  };
}

export function auditPageView(page: AuditPage) {
  return { data: page.data.map(auditEventView), nextCursor: page.nextCursor };
}
