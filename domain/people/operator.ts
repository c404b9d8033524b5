/**
 * What the operator does for people from the shell (cli/index.ts): set someone's password when
 * mail is not an option (a reset link to hand over is `startPasswordReset`'s, as mailed ones are).
 */
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../database.js';
import { users } from '../schema.js';
import type { KeyChangeAnnouncer } from '../accounts/api-keys.js';
import { hashPassword } from './passwords.js';
import { endOtherSessions } from './sessions.js';
import { findUserByEmail } from './users.js';

/** Sets the password of the person with this address and ends every session of theirs; false when nobody has it. */
export async function setPassword(db: Database, announcer: KeyChangeAnnouncer, email: string, password: string): Promise<boolean> {
  const user = await findUserByEmail(db, email);
  if (!user) return false;
  const passwordHash = await hashPassword(password);
  await db
    .update(users)
    .set({ passwordHash, passwordChangedAt: sql`now()`, updatedAt: sql`now()` })
    .where(eq(users.id, user.id));
  await endOtherSessions(db, announcer, user.id, null);
  return true;
}
