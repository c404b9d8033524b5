/**
 * What an audit event compares: a flat record of an entity's fields that matter, read before a
 * change and after it (api/plugins/app/audit.ts). Never a secret: a link's password is only
 * `password_set`, an API key's hash is left out, and a link data field named like a secret
 * (a Wi-Fi password) is only `set` or `not set`. Values that are objects are kept as JSON text,
 * bounded later with the rest (domain/audit/changes.ts).
 */
import { and, eq, getTableColumns, or, type AnyColumn } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '../database.js';
import {
  apiKeys,
  cafeCategories,
  cafeGroups,
  cafeItems,
  cafes,
  domains,
  files,
  folders,
  invitations,
  links,
  memberships,
  templates,
  users,
  utmTemplates,
  webhookEndpoints,
} from '../schema.js';
import { isUuid } from '#platform/format/ids.js';
import type { AuditSnapshot, AuditValue } from './changes.js';

/** The kinds of thing an audit event is about. */
export const AUDIT_ENTITIES = [
  'link',
  'folder',
  'template',
  'api_key',
  'file',
  'cafe',
  'cafe_group',
  'cafe_category',
  'cafe_item',
  'job',
  'member',
  'invitation',
  'domain',
  'webhook',
  'webhook_delivery',
  'utm_template',
] as const;
export type AuditEntity = (typeof AUDIT_ENTITIES)[number];

/** An entity as found: its stored id (a link's, not its slug) and its fields. */
export interface EntitySnapshot {
  id: string;
  fields: AuditSnapshot;
}

type Loader = (db: Executor, accountId: string, ref: string) => Promise<EntitySnapshot | null>;

/** A stored value as a snapshot value: dates as ISO 8601, objects and arrays as JSON text. */
export function flatValue(value: unknown): AuditValue {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return value.toString();
  return JSON.stringify(value);
}

const SECRET_NAME = /pass|secret|token|pin\b|key$/i;

/** A link's fields that matter: what it is, where it sends, how it is set up; its password only as set or not. */
async function linkSnapshot(db: Executor, accountId: string, ref: string): Promise<EntitySnapshot | null> {
  const [row] = await db
    .select({ link: links, folder: folders.name })
    .from(links)
    .leftJoin(folders, eq(folders.id, links.folderId))
    .where(and(eq(links.accountId, accountId), isUuid(ref) ? or(eq(links.id, ref), eq(links.slug, ref)) : eq(links.slug, ref)));
  if (!row) return null;
  const l = row.link;
  const fields: AuditSnapshot = {
    name: l.name,
    type: l.type,
    slug: l.slug,
    folder: row.folder,
    paused: l.paused,
    favorite: l.favorite,
    custom_url_active: l.urlActive,
    schedule_active: l.scheduleActive,
    start_date: flatValue(l.startDate),
    end_date: flatValue(l.endDate),
    scan_limit_active: l.scanLimitActive,
    scan_limit: l.scanLimit,
    password_protected: l.passwordProtectedActive,
    password_set: l.password !== null,
    utm: flatValue(l.utm),
    query_policy: l.queryPolicy,
  };
  for (const [key, value] of Object.entries(l.metaData ?? {})) {
    fields[`data.${key}`] = SECRET_NAME.test(key) ? (value === null || value === '' ? 'not set' : 'set') : flatValue(value);
  }
  fields.qr_options = flatValue(l.qrOptions);
  fields.page_style = flatValue(l.pageStyle);
  return { id: l.id, fields };
}

/**
 * Any other entity: its row less ids, times of the record and what is never shown, each column by
 * its snake_case name.
 */
function rowSnapshot(table: PgTable & { id: AnyColumn; accountId: AnyColumn }, omit: readonly string[]): Loader {
  const columns = Object.entries(getTableColumns(table)).filter(
    ([key]) => !['id', 'accountId', 'createdAt', 'updatedAt', ...omit].includes(key),
  );
  return async (db, accountId, ref) => {
    if (!isUuid(ref)) return null;
    const [row] = await db
      .select()
      .from(table)
      .where(and(eq(table.id, ref), eq(table.accountId, accountId)));
    if (!row) return null;
    const fields: AuditSnapshot = {};
    for (const [key, column] of columns) fields[column.name] = flatValue((row as Record<string, unknown>)[key]);
    return { id: ref, fields };
  };
}

/** A person's membership of the account, by their user id: who they are and what they may do. */
async function memberSnapshot(db: Executor, accountId: string, ref: string): Promise<EntitySnapshot | null> {
  if (!isUuid(ref)) return null;
  const [row] = await db
    .select({ email: users.email, role: memberships.role, clientAccess: memberships.clientAccess, folderIds: memberships.folderIds })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.userId, ref), eq(memberships.accountId, accountId)));
  if (!row) return null;
  return {
    id: ref,
    fields: { email: row.email, role: row.role, client_access: row.clientAccess, folder_ids: flatValue(row.folderIds) },
  };
}

const LOADERS: Partial<Record<AuditEntity, Loader>> = {
  member: memberSnapshot,
  invitation: rowSnapshot(invitations, ['tokenHash', 'emailKey']),
  link: linkSnapshot,
  folder: rowSnapshot(folders, ['createdBy', 'updatedBy']),
  // What a check saw changes every minute at first; the state it led to is what matters.
  domain: rowSnapshot(domains, ['observed', 'checkedAt']),
  template: rowSnapshot(templates, []),
  utm_template: rowSnapshot(utmTemplates, []),
  // Never its secrets; its run of failures is the delivery log's business.
  webhook: rowSnapshot(webhookEndpoints, ['secret', 'previousSecret', 'consecutiveFailures', 'failingSince', 'lastSuccessAt']),
  api_key: rowSnapshot(apiKeys, ['keyHash', 'lastUsedAt']),
  file: rowSnapshot(files, ['blobId']),
  cafe: rowSnapshot(cafes, []),
  cafe_group: rowSnapshot(cafeGroups, []),
  cafe_category: rowSnapshot(cafeCategories, []),
  cafe_item: rowSnapshot(cafeItems, []),
};

/** The entity as it is now, or null: not found, not the account's, or a kind with no loader. */
export function snapshotOf(db: Executor, entity: AuditEntity, accountId: string, ref: string): Promise<EntitySnapshot | null> {
  const loader = LOADERS[entity];
  return loader ? loader(db, accountId, ref) : Promise.resolve(null);
}
