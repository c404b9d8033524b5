/**
 * Signing in with an email address and a password. Every refusal of the pair is the same 401
 * `invalid_credentials`, and an unknown address costs the same hash as a known one, so neither the
 * answer nor its time tells whether someone uses the address here. How often one may try is the
 * caller's (the api limits per address and per client).
 */
import { and, desc, eq } from 'drizzle-orm';
import type { Database } from '../database.js';
import { memberships, sessions } from '../schema.js';
import { ForbiddenError, UnauthorizedError } from '../errors.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { findUserByEmail } from './users.js';

/** A hash of nothing anyone knows, verified when the address is unknown so both cost one hash. */
let decoy: Promise<string> | undefined;

export async function checkPassword(db: Database, email: string, password: string) {
  const user = await findUserByEmail(db, email);
  const stored = user?.passwordHash ?? (await (decoy ??= hashPassword(`decoy-${Math.random()}`)));
  const ok = await verifyPassword(password, stored);
  if (!user || !user.passwordHash || !ok) throw new UnauthorizedError('invalid_credentials');
  return user;
}

/**
 * The account a person signing in lands in: the one they last worked in, else the one they joined
 * first. A person in no account cannot sign in (403, said plainly).
 */
export async function landingAccount(db: Database, userId: string): Promise<string> {
  const [last] = await db
    .select({ accountId: sessions.accountId })
    .from(sessions)
    .innerJoin(memberships, and(eq(memberships.accountId, sessions.accountId), eq(memberships.userId, sessions.userId)))
    .where(eq(sessions.userId, userId))
    .orderBy(desc(sessions.lastSeenAt))
    .limit(1);
  if (last) return last.accountId;
  const [first] = await db
    .select({ accountId: memberships.accountId })
    .from(memberships)
    .where(eq(memberships.userId, userId))
    .orderBy(memberships.createdAt)
    .limit(1);
  if (!first) throw new ForbiddenError('forbidden', 'You are not a member of any account here; ask an admin to invite you');
  return first.accountId;
}
