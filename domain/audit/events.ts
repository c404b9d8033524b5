/**
 * Audit events: written one insert each (api/plugins/app/audit.ts), read by filters a page at a
 * time newest first (GET /audit-events, a link's history, the CSV export), and pruned past
 * AUDIT_RETENTION_DAYS by the maintenance queue (docs/decisions/0405-audit-retention-and-readers.md).
 */
import { and, desc, eq, gte, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Database, Executor } from '../database.js';
import { auditEvents, links } from '../schema.js';
import { ValidationError } from '../errors.js';
import { isUuid } from '#platform/format/ids.js';
import { boundChanges, type AuditChange } from './changes.js';
import type { AuditEntity } from './snapshots.js';

/** Who made a change: the person and/or the key, of an account. */
export interface AuditActor {
  accountId: string;
  keyId: string | null;
  userId: string | null;
}

export interface NewAuditEvent {
  actor: AuditActor;
  entity: AuditEntity;
  entityId: string;
  action: string;
  changes: readonly AuditChange[];
  /** Already truncated (domain/audit/address.ts). */
  ip: string | null;
  requestId: string | null;
  at?: Date;
}

/**
 * Writes one event in one statement: the actor's label (the person's email, else the key's name
 * and prefix) is read by the insert itself, so a change costs one round trip, and the label stays
 * when the person or the key is deleted.
 */
export async function recordAuditEvent(db: Executor, event: NewAuditEvent): Promise<void> {
  const { actor } = event;
  const changes = JSON.stringify(boundChanges(event.changes));
  const keyLabel = actor.keyId
    ? sql`(select case when coalesce(k.name, '') = '' then k.key_prefix || '…' else k.name || ' (' || k.key_prefix || '…)' end
           from api_keys k where k.id = ${actor.keyId})`
    : sql`null`;
  const userLabel = actor.userId ? sql`(select u.email from users u where u.id = ${actor.userId})` : sql`null`;
  await db.execute(sql`
    insert into audit_events (account_id, at, actor_user_id, actor_key_id, actor_label, entity, entity_id, action, changes, ip, request_id)
    values (${actor.accountId}, ${(event.at ?? new Date()).toISOString()}, ${actor.userId}, ${actor.keyId},
      coalesce(${userLabel}, ${keyLabel}, 'unknown'), ${event.entity}, ${event.entityId}, ${event.action}, ${changes}::jsonb,
      ${event.ip}, ${event.requestId})`);
}

export interface AuditFilters {
  /** A user's or a key's id. */
  actor?: string;
  entity?: AuditEntity;
  entityId?: string;
  /** A link's id or its slug: that link's events. */
  linkId?: string;
  from?: Date;
  to?: Date;
}

export interface AuditEventRow {
  id: string;
  at: Date;
  actorUserId: string | null;
  actorKeyId: string | null;
  actorLabel: string;
  entity: string;
  entityId: string;
  action: string;
  changes: AuditChange[];
  ip: string | null;
  requestId: string | null;
}

export interface AuditPage {
  data: AuditEventRow[];
  nextCursor: string | null;
}

export const AUDIT_PAGE_MAX = 200;

/** Where the next page starts: the last row's time (as Postgres wrote it, microseconds and all) and id. */
function encodeCursor(atText: string, id: string): string {
  return Buffer.from(JSON.stringify([atText, id])).toString('base64url');
}

/**
 * A time as Postgres writes a timestamptz (`2026-11-29 21:30:40.123456+00`), and one it can read
 * back: a shape alone let a forged cursor's month 13 reach the query, and its error was a 500.
 */
function isPostgresTime(text: string): boolean {
  const m = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(\.\d{1,6})?[+-](\d\d)(:(\d\d))?$/.exec(text);
  if (!m) return false;
  const [year, month, day, hour, minute, second, offsetHours] = [1, 2, 3, 4, 5, 6, 8].map((i) => Number(m[i]));
  const date = new Date(Date.UTC(year!, month! - 1, day));
  return (
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month! - 1 &&
    date.getUTCDate() === day &&
    hour! < 24 &&
    minute! < 60 &&
    second! < 60 &&
    offsetHours! < 16 &&
    Number(m[10] ?? 0) < 60
  );
}

function decodeCursor(cursor: string): [string, string] {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && isPostgresTime(value[0]) && isUuid(value[1]))
      return [value[0], value[1]];
  } catch {
    // Falls through to the 400.
  }
  throw new ValidationError([{ path: 'cursor', message: 'Not a cursor this list answered' }]);
}

/** The conditions of the filters; null when they name nothing the account has (a link it does not own). */
async function conditions(db: Executor, accountId: string, f: AuditFilters): Promise<SQL[] | null> {
  const where: SQL[] = [eq(auditEvents.accountId, accountId)];
  if (f.actor !== undefined) {
    if (!isUuid(f.actor)) return null;
    where.push(or(eq(auditEvents.actorUserId, f.actor), eq(auditEvents.actorKeyId, f.actor))!);
  }
  if (f.linkId !== undefined) {
    // A slug is the link's id in the API; events name the link's stored id, which a new slug does not change.
    const [link] = await db
      .select({ id: links.id })
      .from(links)
      .where(
        and(
          eq(links.accountId, accountId),
          isUuid(f.linkId) ? or(eq(links.slug, f.linkId), eq(links.id, f.linkId)) : eq(links.slug, f.linkId),
        ),
      );
    // A deleted link's events are still found by its id.
    const id = link?.id ?? (isUuid(f.linkId) ? f.linkId.toLowerCase() : null);
    if (id === null) return null;
    where.push(eq(auditEvents.entity, 'link'), eq(auditEvents.entityId, id));
  }
  if (f.entity !== undefined) where.push(eq(auditEvents.entity, f.entity));
  if (f.entityId !== undefined) where.push(eq(auditEvents.entityId, f.entityId));
  if (f.from !== undefined) where.push(gte(auditEvents.at, f.from));
  if (f.to !== undefined) where.push(lt(auditEvents.at, f.to));
  return where;
}

/** A page of the account's events, newest first; `nextCursor` null on the last page. */
export async function listAuditEvents(
  db: Executor,
  accountId: string,
  filters: AuditFilters,
  page: { cursor?: string; limit: number },
): Promise<AuditPage> {
  const after = page.cursor === undefined ? null : decodeCursor(page.cursor);
  const where = await conditions(db, accountId, filters);
  if (!where) return { data: [], nextCursor: null };
  if (after) where.push(sql`(${auditEvents.at}, ${auditEvents.id}) < (${after[0]}::timestamptz, ${after[1]}::uuid)`);
  const limit = Math.max(1, Math.min(AUDIT_PAGE_MAX, page.limit));
  const rows = await db
    .select({
      id: auditEvents.id,
      at: auditEvents.at,
      atText: sql<string>`${auditEvents.at}::text`,
      actorUserId: auditEvents.actorUserId,
      actorKeyId: auditEvents.actorKeyId,
      actorLabel: auditEvents.actorLabel,
      entity: auditEvents.entity,
      entityId: auditEvents.entityId,
      action: auditEvents.action,
      changes: auditEvents.changes,
      ip: auditEvents.ip,
      requestId: auditEvents.requestId,
    })
    .from(auditEvents)
    .where(and(...where))
    .orderBy(desc(auditEvents.at), desc(auditEvents.id))
    .limit(limit + 1);
  const more = rows.length > limit;
  const data = rows.slice(0, limit);
  const last = data[data.length - 1];
  return {
    data: data.map(({ atText: _t, ...row }) => row),
    nextCursor: more && last ? encodeCursor(last.atText, last.id) : null,
  };
}

/**
 * Deletes events older than `days` days, a batch at a time (no long lock on the table); how many
 * went. Each account's old events are found through its (account_id, at) index.
 */
export async function pruneAuditEvents(db: Database, days: number, batch = 10_000): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await db.execute(sql`
      delete from audit_events where id in (
        select old.id from accounts a cross join lateral (
          select e.id from audit_events e
          where e.account_id = a.id and e.at < now() - make_interval(days => ${days})
          limit ${batch}) old
        limit ${batch})`);
    const n = result.rowCount ?? 0;
    total += n;
    if (n < batch) return total;
  }
}
