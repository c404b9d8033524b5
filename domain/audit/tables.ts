/** The audit log: one row per change made through the api (domain/audit/record.ts). */
import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { id, tstz } from '../columns.js';
import { accountId } from '../accounts/tables.js';
import type { AuditChange } from './changes.js';

export const auditEvents = pgTable(
  'audit_events',
  {
    id: id(),
    accountId: accountId(),
    at: tstz('at').notNull().defaultNow(),
    /** The person, when one acted (a session, or a key a person made); no foreign key: the row outlives them. */
    actorUserId: uuid('actor_user_id'),
    /** The API key, when a machine called; no foreign key, as for the user. */
    actorKeyId: uuid('actor_key_id'),
    /** Who, as read when the event was written (an email, or a key's name and prefix): kept after they are gone. */
    actorLabel: text('actor_label').notNull(),
    /** 'link', 'folder', … (AUDIT_ENTITIES). */
    entity: text('entity').notNull(),
    /** The entity's id (a link's id, not its slug, which can change); '' for a change of many (bulk). */
    entityId: text('entity_id').notNull(),
    action: text('action').notNull(),
    /** What changed, bounded (domain/audit/changes.ts): [{field, before, after}]. */
    changes: jsonb('changes')
      .$type<AuditChange[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** The client's address truncated (an IPv4 /24, an IPv6 /48): domain/audit/address.ts. */
    ip: text('ip'),
    requestId: text('request_id'),
  },
  (t) => [
    index('audit_events_account_at_idx').on(t.accountId, t.at.desc(), t.id.desc()),
    index('audit_events_entity_idx').on(t.accountId, t.entity, t.entityId, t.at.desc()),
  ],
);
