/**
 * "Forgot my password" (docs/decisions/0411): a link mailed to the person's address, valid for
 * 30 minutes and one use, whose token (256 random bits) is stored only as its SHA-256. Using one
 * link uses up every other link of the person, sets the new password and ends all their sessions.
 * Asking for a link says nothing about whether the address is someone's: that is the caller's to
 * keep (the api answers alike and mails only when there is someone to mail).
 */
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database } from '../database.js';
import { passwordResets, users } from '../schema.js';
import { AppError } from '../errors.js';
import type { KeyChangeAnnouncer } from '../accounts/api-keys.js';
import { hashPassword } from './passwords.js';
import { endOtherSessions } from './sessions.js';
import { hashLinkToken, isLinkToken, newLinkToken } from './tokens.js';
import { findUserByEmail } from './users.js';

export const PASSWORD_RESET_TTL_MS = 30 * 60 * 1000;

/** A new reset link's token for the person with this address, or null when no one has it. */
export async function startPasswordReset(db: Database, email: string) {
  const user = await findUserByEmail(db, email);
  if (!user) return null;
  const { token, tokenHash } = newLinkToken();
  const expiresAt = new Date(Date.now() + PASSWORD_RESET_TTL_MS);
  await db.insert(passwordResets).values({ userId: user.id, tokenHash, expiresAt });
  return { user: { id: user.id, email: user.email }, token, expiresAt };
}

function invalid(): AppError {
  return new AppError('reset_link_invalid', { message: 'This reset link is unknown, used already or expired; ask for a new one' });
}

/** The person a live (unused, unexpired) link is for, with what sign-in needs of them; 404 `reset_link_invalid` otherwise. */
export async function passwordResetOf(db: Database, token: string) {
  if (!isLinkToken(token)) throw invalid();
  const [row] = await db
    .select({ resetId: passwordResets.id, user: users })
    .from(passwordResets)
    .innerJoin(users, eq(users.id, passwordResets.userId))
    .where(
      and(eq(passwordResets.tokenHash, hashLinkToken(token)), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, sql`now()`)),
    );
  if (!row) throw invalid();
  return row;
}

/**
 * Uses the link (at most once, whoever races for it) to set `password`: 400 `password_too_weak`
 * before anything is used, 404 `reset_link_invalid` when it is used or expired by now. Every link
 * of the person is used up and every session of theirs ends.
 */
export async function completePasswordReset(
  db: Database,
  announcer: KeyChangeAnnouncer,
  reset: { resetId: string; userId: string },
  password: string,
): Promise<void> {
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    const used = await tx
      .update(passwordResets)
      .set({ usedAt: sql`now()` })
      .where(and(eq(passwordResets.id, reset.resetId), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, sql`now()`)))
      .returning({ id: passwordResets.id });
    if (used.length === 0) throw invalid();
    await tx
      .update(passwordResets)
      .set({ usedAt: sql`now()` })
      .where(and(eq(passwordResets.userId, reset.userId), isNull(passwordResets.usedAt)));
    await tx
      .update(users)
      .set({ passwordHash, passwordChangedAt: sql`now()`, updatedAt: sql`now()` })
      .where(eq(users.id, reset.userId));
  });
  await endOtherSessions(db, announcer, reset.userId, null);
}
