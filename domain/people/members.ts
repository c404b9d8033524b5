/**
 * The people of an account and their roles (decision 0408). Nobody changes their own role; only
 * an owner makes or unmakes an owner; the last owner can neither be demoted nor leave (409
 * `last_owner`), checked with the account's owners locked, so two owners demoting each other at
 * once cannot both succeed. Every change is announced (announceMemberChange): the person's
 * sessions and the keys they made here answer to the new role at their next request, and a
 * removed member's sessions in the account end at once.
 */
import { and, eq, isNull, max, sql } from 'drizzle-orm';
import type { Database, Executor } from '../database.js';
import { memberships, sessions, users } from '../schema.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../errors.js';
import type { KeyChangeAnnouncer } from '../accounts/api-keys.js';
import { isUuid } from '#platform/format/ids.js';
import { mayGrant, refuseGrant, resolveAccess, type Access, type Actor } from './invitations.js';
import { roleAtLeast } from './roles.js';
import { announceMemberChange } from './users.js';

export async function listMembers(db: Database, accountId: string) {
  const lastSeen = db
    .select({ userId: sessions.userId, at: max(sessions.lastSeenAt).as('at') })
    .from(sessions)
    .where(eq(sessions.accountId, accountId))
    .groupBy(sessions.userId)
    .as('last_seen');
  return db
    .select({
      userId: memberships.userId,
      email: users.email,
      name: users.name,
      role: memberships.role,
      clientAccess: memberships.clientAccess,
      folderIds: memberships.folderIds,
      joinedAt: memberships.createdAt,
      totpEnabledAt: users.totpEnabledAt,
      lastSeenAt: lastSeen.at,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .leftJoin(lastSeen, eq(lastSeen.userId, memberships.userId))
    .where(eq(memberships.accountId, accountId))
    .orderBy(memberships.createdAt, memberships.userId);
}

/** The member's row, the account's owners locked until the transaction ends; 404 `member_not_found`. */
async function lockedMember(tx: Executor, accountId: string, userId: string) {
  const owners = await tx
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.accountId, accountId), eq(memberships.role, 'owner')))
    .for('update');
  const [member] = await tx
    .select()
    .from(memberships)
    .where(and(eq(memberships.accountId, accountId), eq(memberships.userId, userId)))
    .for('update');
  if (!member) throw new NotFoundError('Member');
  return { member, owners: owners.length };
}

function lastOwner(): ConflictError {
  return new ConflictError('last_owner', 'The account needs at least one owner: make someone else an owner first');
}

/** Changes a member's role, or a client's access and folders. */
export async function changeMember(
  db: Database,
  announcer: KeyChangeAnnouncer,
  actor: Actor,
  accountId: string,
  userId: string,
  change: Partial<Access>,
) {
  if (!isUuid(userId)) throw new NotFoundError('Member');
  await db.transaction(async (tx) => {
    const { member, owners } = await lockedMember(tx, accountId, userId);
    const role = change.role ?? member.role;
    if (role !== member.role) {
      if (userId === actor.userId) throw new ForbiddenError('own_role_unchangeable', 'Nobody changes their own role; ask another admin');
      if (!mayGrant(actor.role, role)) refuseGrant(actor.role, role);
      if (member.role === 'owner' && actor.role !== 'owner') refuseGrant(actor.role, 'owner');
      if (member.role === 'owner' && owners <= 1) throw lastOwner();
    } else if (!roleAtLeast(actor.role, 'admin') || (role === 'owner' && actor.role !== 'owner')) {
      refuseGrant(actor.role, role);
    }
    // A client keeps its access and folders unless the change names them; another role has none.
    const keep = role === 'client' && member.role === 'client';
    const access = await resolveAccess(tx, accountId, {
      role,
      clientAccess: change.clientAccess !== undefined ? change.clientAccess : keep ? member.clientAccess : null,
      folderIds: change.folderIds !== undefined ? change.folderIds : keep ? member.folderIds : null,
    });
    await tx
      .update(memberships)
      .set(access)
      .where(and(eq(memberships.accountId, accountId), eq(memberships.userId, userId)));
  });
  await announceMemberChange(db, announcer, accountId, [userId]);
}

/**
 * Removes a member (an admin; an owner only by an owner), or lets a person leave. Their sessions
 * in this account end at once, and the keys they made here stop working.
 */
export async function removeMember(db: Database, announcer: KeyChangeAnnouncer, actor: Actor, accountId: string, userId: string) {
  if (!isUuid(userId)) throw new NotFoundError('Member');
  const leaving = userId === actor.userId;
  await db.transaction(async (tx) => {
    const { member, owners } = await lockedMember(tx, accountId, userId);
    if (!leaving && !mayGrant(actor.role, member.role)) refuseGrant(actor.role, member.role);
    if (member.role === 'owner' && owners <= 1) throw lastOwner();
    await tx.delete(memberships).where(and(eq(memberships.accountId, accountId), eq(memberships.userId, userId)));
    await tx
      .update(sessions)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(sessions.userId, userId), eq(sessions.accountId, accountId), isNull(sessions.revokedAt)));
  });
  await announceMemberChange(db, announcer, accountId, [userId]);
}
