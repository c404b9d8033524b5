/**
 * A signed-in person changes their password: the current one first, then the new one must pass
 * the password rules. Every other session of theirs ends at once (one that knew the old password
 * is shut out); the one that changed it stays.
 */
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../database.js';
import { users } from '../schema.js';
import type { KeyChangeAnnouncer } from '../accounts/api-keys.js';
import { hashPassword } from './passwords.js';
import { proveOwnPassword } from './password-proof.js';
import { endOtherSessions } from './sessions.js';

export interface PasswordChange {
  user: { id: string; passwordHash: string | null };
  /** The session that asked: it stays signed in. */
  sessionId: string;
  currentPassword: string;
  newPassword: string;
}

/** 403 `password_incorrect`, 400 `password_too_weak` (at `newPassword`); else how many other sessions ended. */
export async function changePassword(db: Database, announcer: KeyChangeAnnouncer, change: PasswordChange): Promise<number> {
  await proveOwnPassword(change.user, change.currentPassword, 'currentPassword');
  const passwordHash = await hashPassword(change.newPassword, 'newPassword');
  await db
    .update(users)
    .set({ passwordHash, passwordChangedAt: sql`now()`, updatedAt: sql`now()` })
    .where(eq(users.id, change.user.id));
  return endOtherSessions(db, announcer, change.user.id, change.sessionId);
}
