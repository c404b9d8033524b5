/**
 * The audit log as CSV (POST /audit-events/export, run by the audit-export job): one record per
 * change, an event without changes as one record with the change cells empty, newest first, read
 * a page at a time so memory stays flat. Cells are made safe for spreadsheets: control characters
 * become spaces, and a cell a spreadsheet would run as a formula is neutralised (domain/csv.ts).
 */
import type { Executor } from '../database.js';
import { csvRecords } from '../csv.js';
import { listAuditEvents, type AuditEventRow, type AuditFilters } from './events.js';
import type { AuditEntity } from './snapshots.js';

export const AUDIT_CSV_COLUMNS = [
  'at',
  'actor',
  'actor_user_id',
  'actor_key_id',
  'entity',
  'entity_id',
  'action',
  'field',
  'before',
  'after',
  'ip',
  'request_id',
] as const;

/** What the api hands the job: the filters, instants as epoch ms. */
export interface AuditExportPayload {
  actor?: string;
  entity?: AuditEntity;
  entityId?: string;
  linkId?: string;
  from?: number;
  to?: number;
  fileName: string;
}

export interface AuditExportResult {
  downloadUrl: string;
  fileName: string;
  rows: number;
  bytes: number;
}

export function exportFilters(p: AuditExportPayload): AuditFilters {
  return {
    ...(p.actor !== undefined && { actor: p.actor }),
    ...(p.entity !== undefined && { entity: p.entity }),
    ...(p.entityId !== undefined && { entityId: p.entityId }),
    ...(p.linkId !== undefined && { linkId: p.linkId }),
    ...(p.from !== undefined && { from: new Date(p.from) }),
    ...(p.to !== undefined && { to: new Date(p.to) }),
  };
}

/** C0 and C1 control characters (line breaks and tabs too): a cell of the log is one line of text. */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** A value as its cell: text without control characters; null is the empty cell. */
export function auditCell(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.replace(CONTROLS, ' ');
}

function recordsOf(event: AuditEventRow): Array<Array<string | null>> {
  const head = [
    event.at.toISOString(),
    event.actorLabel,
    event.actorUserId,
    event.actorKeyId,
    event.entity,
    event.entityId,
    event.action,
  ].map(auditCell);
  const tail = [event.ip, event.requestId].map(auditCell);
  if (event.changes.length === 0) return [[...head, null, null, null, ...tail]];
  return event.changes.map((c) => [...head, auditCell(c.field), auditCell(c.before), auditCell(c.after), ...tail]);
}

/** The CSV, header first, a page of events a chunk; `onRows` hears the records written so far. */
export async function* auditCsv(
  db: Executor,
  accountId: string,
  filters: AuditFilters,
  onRows?: (rows: number) => Promise<void>,
  pageSize = 500,
): AsyncGenerator<Buffer> {
  yield Buffer.from(csvRecords([[...AUDIT_CSV_COLUMNS]]));
  let cursor: string | undefined;
  let rows = 0;
  do {
    const page = await listAuditEvents(db, accountId, filters, { limit: pageSize, ...(cursor !== undefined && { cursor }) });
    const records = page.data.flatMap(recordsOf);
    rows += records.length;
    if (records.length > 0) yield Buffer.from(csvRecords(records));
    await onRows?.(rows);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
}
