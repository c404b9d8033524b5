/**
 * Who a single sign-on lets in, as whom, and in which account (docs/decisions/0406). The
 * provider's word has been verified already (platform/auth/oidc.ts); here it meets the operator's
 * rules and the people we know:
 *
 * - only a verified email of an allowed domain (OIDC_ALLOWED_EMAIL_DOMAINS; empty: any), for new
 *   and known people alike;
 * - the provider's identity (`<issuer> <subject>`) is linked to the person at their first SSO
 *   sign-in; later the identity finds them even when their email changed at the provider, and an
 *   email already linked to another identity of the same issuer is refused;
 * - a person we do not know joins through their pending invitation (its account and role), else
 *   OIDC_ACCOUNT_ID (default: the only account) with OIDC_DEFAULT_ROLE, else is refused;
 * - a person we know lands where a password would land them (landingAccount).
 */
import { domainToASCII } from 'node:url';
import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import { ConflictError, ForbiddenError } from '../errors.js';
import type { Database } from '../database.js';
import { accounts, invitations, users } from '../schema.js';
import type { OidcIdentity } from '#platform/auth/oidc.js';
import { emailKey } from './emails.js';
import type { Role } from './roles.js';
import { landingAccount } from './sign-in.js';
import type { SsoFailure } from './sso-failures.js';
import { addMembership, createUser, findUserByEmail } from './users.js';

export interface SsoPolicy {
  /** Lower-case domains; empty: any. */
  allowedDomains: readonly string[];
  defaultRole: Extract<Role, 'admin' | 'editor' | 'viewer'>;
  /** The account new people join; null: the only account, when there is exactly one. */
  accountId: string | null;
}

export class SsoRefused extends Error {
  override name = 'SsoRefused';
  constructor(
    readonly code: SsoFailure,
    message: string,
  ) {
    super(message);
  }
}

/** The person the identity signs in, and the account their session starts in. */
export async function signInWithSso(
  db: Database,
  policy: SsoPolicy,
  identity: OidcIdentity,
): Promise<{ userId: string; accountId: string }> {
  if (identity.email === null || !identity.emailVerified)
    throw new SsoRefused('sso_email_unverified', 'The provider did not vouch for the email address');
  let key: string;
  try {
    key = emailKey(identity.email);
  } catch {
    throw new SsoRefused('sso_email_unusable', `The provider's email address cannot be used here`);
  }
  const domain = key.slice(key.lastIndexOf('@') + 1);
  if (policy.allowedDomains.length > 0 && !policy.allowedDomains.some((d) => domainToASCII(d) === domain))
    throw new SsoRefused('sso_domain_not_allowed', `Email domain ${domain} is not allowed to sign in with SSO`);
  const linked = `${identity.issuer} ${identity.subject}`;
  try {
    return await signIn(db, policy, identity, key, linked);
  } catch (err) {
    // Two first sign-ins of one person at once: the other made the user; this one now finds it.
    if (!isRace(err)) throw err;
    return signIn(db, policy, identity, key, linked);
  }
}

async function signIn(db: Database, policy: SsoPolicy, identity: OidcIdentity, key: string, linked: string) {
  const [bySubject] = await db.select({ id: users.id }).from(users).where(eq(users.oidcSubject, linked));
  if (bySubject) return { userId: bySubject.id, accountId: await landing(db, bySubject.id) };

  const known = await findUserByEmail(db, key);
  if (known) {
    const current = known.oidcSubject;
    // Linked to another identity of this issuer: the provider gave this email to someone else.
    if (current && current !== linked && current.startsWith(`${identity.issuer} `))
      throw new SsoRefused('sso_identity_mismatch', 'This email is linked to another identity at the provider');
    await db
      .update(users)
      .set({ oidcSubject: linked, updatedAt: sql`now()` })
      .where(eq(users.id, known.id));
    return { userId: known.id, accountId: await landing(db, known.id) };
  }

  return db.transaction(async (tx) => {
    const [invitation] = await tx
      .select()
      .from(invitations)
      .where(
        and(
          eq(invitations.emailKey, key),
          isNull(invitations.acceptedAt),
          isNull(invitations.revokedAt),
          gt(invitations.expiresAt, sql`now()`),
        ),
      )
      .orderBy(asc(invitations.createdAt))
      .limit(1);
    const accountId = invitation?.accountId ?? (await accountForNewPeople(tx, policy));
    if (!accountId) throw new SsoRefused('sso_no_account', 'No invitation, and no account set for new SSO users');
    const user = await createUser(tx, { email: identity.email!, name: identity.name ?? undefined });
    await tx.update(users).set({ oidcSubject: linked }).where(eq(users.id, user.id));
    if (invitation) {
      await addMembership(tx, {
        accountId,
        userId: user.id,
        role: invitation.role,
        clientAccess: invitation.clientAccess,
        folderIds: invitation.folderIds,
      });
      await tx
        .update(invitations)
        .set({ acceptedAt: sql`now()` })
        .where(eq(invitations.id, invitation.id));
    } else {
      await addMembership(tx, { accountId, userId: user.id, role: policy.defaultRole });
    }
    return { userId: user.id, accountId };
  });
}

/** OIDC_ACCOUNT_ID when it names an account; unset, the only account when there is exactly one. */
async function accountForNewPeople(db: Database, policy: SsoPolicy): Promise<string | null> {
  if (policy.accountId) {
    const [row] = await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, policy.accountId));
    return row?.id ?? null;
  }
  const rows = await db.select({ id: accounts.id }).from(accounts).limit(2);
  return rows.length === 1 ? rows[0]!.id : null;
}

/** Where a known person lands, as with a password; one in no account is told to ask for an invitation. */
async function landing(db: Database, userId: string): Promise<string> {
  try {
    return await landingAccount(db, userId);
  } catch (err) {
    if (err instanceof ForbiddenError) throw new SsoRefused('sso_no_account', 'The person belongs to no account');
    throw err;
  }
}

/** The email or the identity was taken by a sign-in running alongside. */
function isRace(err: unknown): boolean {
  if (err instanceof ConflictError) return err.code === 'email_taken';
  for (let e: unknown = err; e instanceof Error; e = e.cause) if ((e as { code?: string }).code === '23505') return true;
  return false;
}
