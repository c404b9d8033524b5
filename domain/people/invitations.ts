/**
 * Invitations to an account (decision 0408): an admin invites an address with a role; the mail
 * carries a one-time link valid for 7 days. Only an owner invites an owner, and nobody invites
 * above their own role. Accepting spends the token atomically (one UPDATE that only an unspent,
 * unrevoked, unexpired invitation passes), in the same transaction that makes the person (or
 * checks the password of the person who already has that address) and their membership: the
 * account joined is always the invitation's address's, whoever holds the link.
 */
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Database, Executor } from '../database.js';
import { accounts, folders, invitations, memberships, users } from '../schema.js';
import { AppError, ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../errors.js';
import { isUuid } from '#platform/format/ids.js';
import { MailAddressError, type Mailer } from '#platform/mail/index.js';
import { invitationMail } from './mails.js';
import { cleanEmail, emailKey } from './emails.js';
import { hashLinkToken, isLinkToken, newLinkToken } from './tokens.js';
import { checkPassword } from './sign-in.js';
import { checkSecondFactor, type TwoFactorKey } from './two-factor.js';
import { addMembership, createUser } from './users.js';
import { roleAtLeast, type ClientAccess, type Role } from './roles.js';

export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;

export type Registration = 'invite' | 'open' | 'closed';

/** Who acts: the person (null for an operator's key, which counts as an owner) and their role here. */
export interface Actor {
  userId: string | null;
  role: Role;
}

export interface Access {
  role: Role;
  clientAccess?: ClientAccess | null;
  folderIds?: readonly string[] | null;
}

/** Only admins and owners grant roles, none above their own: so only an owner grants owner. */
export function mayGrant(actor: Role, role: Role): boolean {
  return roleAtLeast(actor, 'admin') && roleAtLeast(actor, role);
}

export function refuseGrant(actor: Role, role: Role): never {
  const message =
    role === 'owner'
      ? 'Only an owner can make someone an owner'
      : roleAtLeast(actor, 'admin')
        ? `You cannot give a role above your own (${actor})`
        : `This needs the admin role or higher; yours here is ${actor}`;
  throw new ForbiddenError('role_required', message);
}

/**
 * A client's access and folders (checked to be this account's: 404 `folder_not_found`); null for
 * every other role, which may not name them (400).
 */
export async function resolveAccess(db: Executor, accountId: string, access: Access) {
  if (access.role !== 'client') {
    if ((access.clientAccess ?? null) !== null || (access.folderIds ?? null) !== null) {
      throw new ValidationError([{ path: 'folderIds', message: 'Only a client has folders and a client access' }]);
    }
    return { role: access.role, clientAccess: null, folderIds: null };
  }
  const folderIds = [...new Set(access.folderIds ?? [])];
  if (folderIds.some((id) => !isUuid(id))) throw new NotFoundError('Folder');
  if (folderIds.length > 0) {
    const found = await db
      .select({ id: folders.id })
      .from(folders)
      .where(and(eq(folders.accountId, accountId), inArray(folders.id, folderIds)));
    if (found.length !== folderIds.length) throw new NotFoundError('Folder');
  }
  return { role: access.role, clientAccess: access.clientAccess ?? 'view', folderIds };
}

export type InvitationRow = typeof invitations.$inferSelect;

export type InvitationStatus = 'pending' | 'accepted' | 'expired' | 'revoked';

export function invitationStatus(row: Pick<InvitationRow, 'acceptedAt' | 'revokedAt' | 'expiresAt'>, now = Date.now()): InvitationStatus {
  if (row.acceptedAt) return 'accepted';
  if (row.revokedAt) return 'revoked';
  return row.expiresAt.getTime() <= now ? 'expired' : 'pending';
}

/**
 * Invites `email` to the account with the access given. A pending invitation of the same address
 * here is revoked (one live link per person). Someone already a member is a 409 `already_member`;
 * with registration `closed`, an address nobody signs in with here is a 403 `registration_closed`.
 */
export async function createInvitation(
  db: Database,
  actor: Actor,
  accountId: string,
  input: Access & { email: string },
  registration: Registration,
): Promise<{ invitation: InvitationRow; token: string }> {
  if (!mayGrant(actor.role, input.role)) refuseGrant(actor.role, input.role);
  const key = emailKey(input.email);
  const access = await resolveAccess(db, accountId, input);
  const [existing] = await db
    .select({ id: users.id, member: memberships.userId })
    .from(users)
    .leftJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.accountId, accountId)))
    .where(eq(users.emailKey, key));
  if (existing?.member) throw new ConflictError('already_member', 'This person is already a member of this account', 'email');
  if (!existing && registration === 'closed') {
    throw new ForbiddenError('registration_closed', 'New sign-ins are closed here: only people who already sign in here can be invited');
  }
  const { token, tokenHash } = newLinkToken();
  const invitation = await db.transaction(async (tx) => {
    await tx
      .update(invitations)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(invitations.accountId, accountId), eq(invitations.emailKey, key), pending()));
    const [row] = await tx
      .insert(invitations)
      .values({
        accountId,
        email: cleanEmail(input.email),
        emailKey: key,
        ...access,
        tokenHash,
        invitedBy: actor.userId,
        expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
      })
      .returning();
    return row!;
  });
  return { invitation, token };
}

/** Neither accepted nor revoked (expired or not). */
function pending() {
  return and(isNull(invitations.acceptedAt), isNull(invitations.revokedAt));
}

/** The account's invitations, newest first, with who invited. */
export async function listInvitations(db: Database, accountId: string) {
  return db
    .select({
      invitation: invitations,
      inviter: { id: users.id, email: users.email, name: users.name },
    })
    .from(invitations)
    .leftJoin(users, eq(users.id, invitations.invitedBy))
    .where(eq(invitations.accountId, accountId))
    .orderBy(desc(invitations.createdAt), desc(invitations.id))
    .limit(1000);
}

/** Revokes a pending invitation of the account; anything else (another account's, spent, revoked) is a 404. */
export async function revokeInvitation(db: Database, accountId: string, id: string): Promise<void> {
  if (!isUuid(id)) throw new NotFoundError('Invitation');
  const rows = await db
    .update(invitations)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(invitations.id, id), eq(invitations.accountId, accountId), pending()))
    .returning({ id: invitations.id });
  if (rows.length === 0) throw new NotFoundError('Invitation');
}

/** A new token and 7 more days for an invitation not yet spent or revoked; the old link stops working. */
export async function renewInvitation(
  db: Database,
  actor: Actor,
  accountId: string,
  id: string,
): Promise<{ invitation: InvitationRow; token: string }> {
  if (!isUuid(id)) throw new NotFoundError('Invitation');
  const [current] = await db
    .select({ role: invitations.role })
    .from(invitations)
    .where(and(eq(invitations.id, id), eq(invitations.accountId, accountId), pending()));
  if (!current) throw new NotFoundError('Invitation');
  if (!mayGrant(actor.role, current.role)) refuseGrant(actor.role, current.role);
  const { token, tokenHash } = newLinkToken();
  const [row] = await db
    .update(invitations)
    .set({ tokenHash, expiresAt: new Date(Date.now() + INVITATION_TTL_MS) })
    .where(and(eq(invitations.id, id), eq(invitations.accountId, accountId), pending()))
    .returning();
  if (!row) throw new NotFoundError('Invitation');
  return { invitation: row, token };
}

/** What the mail and the join page say: the account's name and who invited. */
export async function invitationContext(db: Database, invitation: Pick<InvitationRow, 'accountId' | 'invitedBy'>) {
  const [row] = await db
    .select({ accountName: accounts.name, inviterName: users.name, inviterEmail: users.email })
    .from(accounts)
    .leftJoin(users, invitation.invitedBy ? eq(users.id, invitation.invitedBy) : sql`false`)
    .where(eq(accounts.id, invitation.accountId));
  return { accountName: row?.accountName ?? '', inviterName: row?.inviterName ?? row?.inviterEmail ?? null };
}

/** Mails the invitation's link; whether the mail server took it (false: no SMTP_URL, refused, or an address it cannot take). */
export async function mailInvitation(db: Database, mailer: Mailer, invitation: InvitationRow, link: string): Promise<boolean> {
  const { accountName, inviterName } = await invitationContext(db, invitation);
  const mail = invitationMail({ accountName, inviterName, role: invitation.role, link, expiresAt: invitation.expiresAt });
  try {
    return (await mailer.send({ to: invitation.email, ...mail })).delivered;
  } catch (err) {
    // An address our rules take and a mail header cannot (quotes, brackets): the link is handed over instead.
    if (err instanceof MailAddressError) return false;
    throw err;
  }
}

/** The live invitation of a token: 404 `invitation_not_found` (unknown, spent, revoked), 409 `invitation_expired`. */
/** The invitation of `token`, while it can still be accepted: else 404 `invitation_not_found` or 409 `invitation_expired`. */
export async function liveInvitation(db: Database, token: string): Promise<InvitationRow> {
  const [row] = isLinkToken(token)
    ? await db
        .select()
        .from(invitations)
        .where(eq(invitations.tokenHash, hashLinkToken(token)))
    : [];
  const status = row ? invitationStatus(row) : null;
  if (!row || status === 'accepted' || status === 'revoked') throw invitationNotFound();
  if (status === 'expired') throw invitationExpired();
  return row;
}

function invitationNotFound(): AppError {
  return new AppError('invitation_not_found', { message: 'This invitation link is unknown, was already used, or was withdrawn' });
}

function invitationExpired(): AppError {
  return new ConflictError('invitation_expired', 'This invitation has expired; ask for a new one');
}

/** What the join page shows before the person accepts. */
export async function lookupInvitation(db: Database, token: string) {
  const row = await liveInvitation(db, token);
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.emailKey, row.emailKey));
  return { email: row.email, role: row.role, userExists: user !== undefined, ...(await invitationContext(db, row)) };
}

/**
 * Accepts `seen` (liveInvitation's answer): the person with its address (made now with `password`,
 * or the one who has it, whose password it must be: 401 `invalid_credentials`) joins the account.
 * Someone who is already a member keeps their membership. One use: of two acceptances of one
 * token, the second is a 404.
 */
export async function acceptInvitation(
  db: Database,
  seen: InvitationRow,
  input: { password: string; name?: string | null; totp?: string | null },
  twoFactor: TwoFactorKey,
) {
  const [known] = await db.select({ id: users.id }).from(users).where(eq(users.emailKey, seen.emailKey));
  // Joining signs the person in: an existing person proves both steps, as at sign-in.
  if (known) await checkSecondFactor(db, twoFactor, await checkPassword(db, seen.email, input.password), input.totp, new Date());
  return db.transaction(async (tx) => {
    const [spent] = await tx
      .update(invitations)
      .set({ acceptedAt: sql`now()` })
      .where(and(eq(invitations.id, seen.id), pending(), sql`${invitations.expiresAt} > now()`))
      .returning();
    // Spent or revoked in between (a second acceptance), or past its end since it was read.
    if (!spent) throw seen.expiresAt.getTime() <= Date.now() ? invitationExpired() : invitationNotFound();
    const user = known
      ? (await tx.select({ id: users.id, email: users.email, name: users.name }).from(users).where(eq(users.id, known.id)))[0]!
      : await createUser(tx, { email: spent.email, password: input.password, name: input.name ?? null });
    const [member] = await tx
      .select({ role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.accountId, spent.accountId), eq(memberships.userId, user.id)));
    if (!member) {
      await addMembership(tx, {
        accountId: spent.accountId,
        userId: user.id,
        role: spent.role,
        clientAccess: spent.clientAccess,
        folderIds: spent.folderIds,
      });
    }
    return { user, accountId: spent.accountId };
  });
}
