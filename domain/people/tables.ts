/** People: users, their memberships of accounts (with a role), sessions, invitations, resets. */
import { sql } from 'drizzle-orm';
import { check, index, pgTable, primaryKey, text, uniqueIndex, uuid, integer } from 'drizzle-orm/pg-core';
import { accountId } from '../accounts/tables.js';
import { createdAt, id, tstz, updatedAt } from '../columns.js';
import type { ClientAccess, Role } from './roles.js';

export const users = pgTable(
  'users',
  {
    id: id(),
    /** As typed at sign-up (trimmed), for mails and display. */
    email: text('email').notNull(),
    /** The address every look-up and uniqueness check uses (emailKey in emails.ts). */
    emailKey: text('email_key').notNull(),
    name: text('name'),
    /** Null for a person who signs in only through single sign-on. */
    passwordHash: text('password_hash'),
    passwordChangedAt: tstz('password_changed_at'),
    totpSecret: text('totp_secret'),
    totpEnabledAt: tstz('totp_enabled_at'),
    /** The last TOTP time step accepted, so a code is never used twice. */
    totpLastStep: integer('totp_last_step'),
    recoveryCodeHashes: text('recovery_code_hashes')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** `<issuer> <subject>` of the OpenID Connect identity this person signs in with, once linked. */
    oidcSubject: text('oidc_subject'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('users_email_key_idx').on(t.emailKey), uniqueIndex('users_oidc_subject_idx').on(t.oidcSubject)],
);

const ROLE_CHECK = `in ('owner', 'admin', 'editor', 'viewer', 'client')`;

export const memberships = pgTable(
  'memberships',
  {
    accountId: accountId(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').$type<Role>().notNull(),
    /** A client's access inside its folders; null for every other role. */
    clientAccess: text('client_access').$type<ClientAccess>(),
    /** A client's folders; null for every other role. */
    folderIds: uuid('folder_ids').array(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.userId] }),
    index('memberships_user_idx').on(t.userId),
    check('memberships_role_check', sql.raw(`role ${ROLE_CHECK}`)),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    /** SHA-256 (hex) of the cookie's token; the token itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The account the console is working in; switched by PATCH /sessions/current. */
    accountId: accountId(),
    createdAt: createdAt(),
    lastSeenAt: tstz('last_seen_at').notNull().defaultNow(),
    /** The absolute end, whatever the activity. */
    expiresAt: tstz('expires_at').notNull(),
    /** Truncated like a scan's address (an IPv4 /24, an IPv6 /48). */
    ip: text('ip'),
    userAgent: text('user_agent'),
    revokedAt: tstz('revoked_at'),
  },
  (t) => [uniqueIndex('sessions_token_hash_idx').on(t.tokenHash), index('sessions_user_idx').on(t.userId, t.createdAt.desc())],
);

export const invitations = pgTable(
  'invitations',
  {
    id: id(),
    accountId: accountId(),
    email: text('email').notNull(),
    emailKey: text('email_key').notNull(),
    role: text('role').$type<Role>().notNull(),
    clientAccess: text('client_access').$type<ClientAccess>(),
    folderIds: uuid('folder_ids').array(),
    tokenHash: text('token_hash').notNull(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: tstz('expires_at').notNull(),
    acceptedAt: tstz('accepted_at'),
    revokedAt: tstz('revoked_at'),
  },
  (t) => [
    uniqueIndex('invitations_token_hash_idx').on(t.tokenHash),
    index('invitations_account_idx').on(t.accountId, t.createdAt.desc()),
    check('invitations_role_check', sql.raw(`role ${ROLE_CHECK}`)),
  ],
);

export const passwordResets = pgTable(
  'password_resets',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: tstz('expires_at').notNull(),
    usedAt: tstz('used_at'),
  },
  (t) => [uniqueIndex('password_resets_token_hash_idx').on(t.tokenHash), index('password_resets_user_idx').on(t.userId)],
);

/** One-time links that let the first person create the owner and the first account. */
export const setupTokens = pgTable(
  'setup_tokens',
  {
    id: id(),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: tstz('expires_at').notNull(),
    usedAt: tstz('used_at'),
  },
  (t) => [uniqueIndex('setup_tokens_token_hash_idx').on(t.tokenHash)],
);
