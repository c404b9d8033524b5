/** People and their memberships of accounts. */
import { and, eq, inArray } from 'drizzle-orm';
import type { Database, Executor } from '../database.js';
import { apiKeys, memberships, users } from '../schema.js';
import { ConflictError } from '../errors.js';
import { announceApiKeyChanges, type KeyChangeAnnouncer } from '../accounts/api-keys.js';
import { cleanEmail, emailKey } from './emails.js';
import { hashPassword } from './passwords.js';
import { announcePeopleChanges } from './sessions.js';
import type { ClientAccess, Role } from './roles.js';

export interface NewUser {
  email: string;
  /** None for a person who signs in only through single sign-on. */
  password?: string | null;
  name?: string | null;
}

/** Creates a person; an address already taken (in any case or compatibility form) is a 409 `email_taken`. */
export async function createUser(db: Executor, input: NewUser) {
  const key = emailKey(input.email);
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  const [row] = await db
    .insert(users)
    .values({
      email: cleanEmail(input.email),
      emailKey: key,
      name: input.name?.trim() || null,
      passwordHash,
      passwordChangedAt: passwordHash ? new Date() : null,
    })
    .onConflictDoNothing({ target: users.emailKey })
    .returning({ id: users.id, email: users.email, name: users.name });
  if (!row) throw new ConflictError('email_taken', 'Someone already uses this email address here', 'email');
  return row;
}

/** The person with this address, or undefined (an address that is not one is no one). */
export async function findUserByEmail(db: Database, email: string) {
  let key: string;
  try {
    key = emailKey(email);
  } catch {
    return undefined;
  }
  const [row] = await db.select().from(users).where(eq(users.emailKey, key));
  return row;
}

export interface NewMembership {
  accountId: string;
  userId: string;
  role: Role;
  clientAccess?: ClientAccess | null;
  folderIds?: string[] | null;
}

/** Makes the person a member of the account with the role (a client with its folders); an existing membership is replaced. */
export async function addMembership(db: Executor, input: NewMembership): Promise<void> {
  const client = input.role === 'client';
  const values = {
    role: input.role,
    clientAccess: client ? (input.clientAccess ?? 'view') : null,
    folderIds: client ? [...new Set(input.folderIds ?? [])] : null,
  };
  await db
    .insert(memberships)
    .values({ accountId: input.accountId, userId: input.userId, ...values })
    .onConflictDoUpdate({ target: [memberships.accountId, memberships.userId], set: values });
}

/**
 * Tells every api process that what this person may do in the account changed (a role, folders,
 * a membership removed): their sessions and the keys they made there are looked up afresh.
 */
export async function announceMemberChange(
  db: Database,
  announcer: KeyChangeAnnouncer,
  accountId: string,
  userIds: string[],
): Promise<void> {
  if (userIds.length === 0) return;
  const keys = await db
    .select({ keyHash: apiKeys.keyHash })
    .from(apiKeys)
    .where(and(eq(apiKeys.accountId, accountId), inArray(apiKeys.createdByUserId, userIds)));
  await Promise.all([
    announceApiKeyChanges(
      announcer,
      keys.map((k) => k.keyHash),
    ),
    announcePeopleChanges(announcer, userIds),
  ]);
}

/** The person with this id, or undefined. */
export async function findUserById(db: Database, userId: string) {
  const [row] = await db.select().from(users).where(eq(users.id, userId));
  return row;
}
