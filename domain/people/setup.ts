/**
 * First start and registration (decision 0409). On a database where nobody signs in yet, a
 * one-time setup link (printed by `npm start` and `cli setup-link`) lets the first person make
 * the owner and the first account; once anyone exists it is refused (409 `setup_done`). A new
 * link voids the older ones. REGISTRATION=open lets anyone sign up with an account of their own;
 * otherwise people come in by invitation (or the CLI) only.
 */
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database, Executor } from '../database.js';
import { setupTokens, users } from '../schema.js';
import { ConflictError, ForbiddenError, AppError } from '../errors.js';
import { createAccount } from '../accounts/accounts.js';
import type { Plan } from '../accounts/plans.js';
import { addMembership, createUser } from './users.js';
import { hashLinkToken, isLinkToken, newLinkToken } from './tokens.js';
import type { Registration } from './invitations.js';

export const SETUP_LINK_TTL_MS = 24 * 3600 * 1000;

/** Serialises setups (and the links they spend) across processes for the length of a transaction. */
const SETUP_LOCK = sql`select pg_advisory_xact_lock(hashtext('qrlinks:setup'))`;

export interface NewOwner {
  email: string;
  password: string;
  name?: string | null;
  accountName: string;
}

/** Whether nobody signs in here yet. */
export async function setupNeeded(db: Executor): Promise<boolean> {
  const [anyone] = await db.select({ id: users.id }).from(users).limit(1);
  return !anyone;
}

/** A fresh one-time setup token while nobody exists (older ones stop working), else null. */
export async function issueSetupToken(db: Database): Promise<string | null> {
  return db.transaction(async (tx) => {
    await tx.execute(SETUP_LOCK);
    if (!(await setupNeeded(tx))) return null;
    const { token, tokenHash } = newLinkToken();
    await tx.delete(setupTokens).where(isNull(setupTokens.usedAt));
    await tx.insert(setupTokens).values({ tokenHash, expiresAt: new Date(Date.now() + SETUP_LINK_TTL_MS) });
    return token;
  });
}

/** The person, an account of their own with `plan`, and their owner membership, in one transaction. */
async function createOwner(tx: Executor, input: NewOwner, plan: Plan) {
  const user = await createUser(tx, { email: input.email, password: input.password, name: input.name ?? null });
  const account = await createAccount(tx, { name: input.accountName.trim(), plan });
  await addMembership(tx, { accountId: account.id, userId: user.id, role: 'owner' });
  return { user, accountId: account.id };
}

/** Spends the setup token and makes the first owner and account: 409 `setup_done` once anyone exists, 404 `setup_link_invalid` for a bad link. */
export async function completeSetup(db: Database, input: NewOwner & { token: string }, plan: Plan) {
  return db.transaction(async (tx) => {
    await tx.execute(SETUP_LOCK);
    if (!(await setupNeeded(tx)))
      throw new ConflictError('setup_done', 'This service is set up already: sign in, or ask an admin to invite you');
    const spent = isLinkToken(input.token)
      ? await tx
          .update(setupTokens)
          .set({ usedAt: sql`now()` })
          .where(
            and(eq(setupTokens.tokenHash, hashLinkToken(input.token)), isNull(setupTokens.usedAt), gt(setupTokens.expiresAt, sql`now()`)),
          )
          .returning({ id: setupTokens.id })
      : [];
    if (spent.length === 0) {
      throw new AppError('setup_link_invalid', {
        message: 'This setup link is unknown, used or expired; print a new one with `npm run cli -- setup-link`',
      });
    }
    return createOwner(tx, input, plan);
  });
}

/** Sign-up with an account of one's own: only when REGISTRATION=open, else 403 `registration_closed`. */
export async function signUp(db: Database, registration: Registration, input: NewOwner, plan: Plan) {
  if (registration !== 'open') {
    throw new ForbiddenError('registration_closed', 'Sign-up is closed here: ask an admin of an account to invite you');
  }
  return db.transaction((tx) => createOwner(tx, input, plan));
}
