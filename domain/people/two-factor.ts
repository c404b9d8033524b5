/**
 * Two-factor sign-in (docs/decisions/0410): an authenticator app's codes (totp.ts) and ten
 * one-time recovery codes. Turning it on takes two steps: `startTwoFactor` makes a secret and keeps
 * it pending (the app scans it), `confirmTwoFactor` turns it on once a code from the app matches,
 * and hands out the recovery codes, once. From then on the secret never leaves the server again.
 *
 * The secret is stored encrypted (AES-256-GCM, the user's id as associated data so a sealed value
 * copied to another row does not open) under a key derived from the server's secret, so a copy of
 * the database, or of a backup, is not enough to make codes. Recovery codes are stored as hashes.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { and, eq, isNull, or, lt, sql } from 'drizzle-orm';
import type { Database } from '../database.js';
import { users } from '../schema.js';
import { AppError, ConflictError, ValidationError } from '../errors.js';
import { matchRecoveryCode, newRecoveryCodes, newTotpSecret, totpUri, verifyTotp } from './totp.js';

/** The key two-factor secrets are sealed with; derived, so the server secret itself encrypts nothing. */
export type TwoFactorKey = Buffer & { readonly __twoFactorKey: true };

export function twoFactorKey(serverSecret: Buffer): TwoFactorKey {
  return createHmac('sha256', serverSecret).update('qrlinks two-factor secrets v1').digest() as TwoFactorKey;
}

const SEALED = /^v1\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{22})$/;

function seal(key: TwoFactorKey, userId: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(userId));
  const data = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), data.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
}

/** The secret, or null when it was sealed under another key (SECRET_KEY changed) or for another user. */
function unseal(key: TwoFactorKey, userId: string, sealed: string): string | null {
  const parts = SEALED.exec(sealed);
  if (!parts) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(parts[1]!, 'base64url'))
      .setAAD(Buffer.from(userId))
      .setAuthTag(Buffer.from(parts[3]!, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(parts[2]!, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** What of a person two-factor needs; a row of `users`. */
export interface TwoFactorState {
  id: string;
  totpSecret: string | null;
  totpEnabledAt: Date | null;
  totpLastStep: number | null;
  recoveryCodeHashes: string[];
}

async function stateOf(db: Database, userId: string) {
  const [row] = await db
    .select({ id: users.id, email: users.email, totpSecret: users.totpSecret, totpEnabledAt: users.totpEnabledAt })
    .from(users)
    .where(eq(users.id, userId));
  if (!row) throw new Error(`user ${userId} not found`);
  return row;
}

/**
 * Makes a new secret for the person's authenticator app and keeps it pending (not yet asked at
 * sign-in); starting again replaces a pending one. 409 `two_factor_on` when it is on already.
 */
export async function startTwoFactor(db: Database, key: TwoFactorKey, userId: string, issuer: string) {
  const user = await stateOf(db, userId);
  if (user.totpEnabledAt)
    throw new ConflictError('two_factor_on', 'Two-factor sign-in is on already; turn it off first to use another app');
  const secret = newTotpSecret();
  const rows = await db
    .update(users)
    .set({ totpSecret: seal(key, userId, secret), totpLastStep: null, updatedAt: sql`now()` })
    .where(and(eq(users.id, userId), isNull(users.totpEnabledAt)))
    .returning({ id: users.id });
  if (rows.length === 0) throw new ConflictError('two_factor_on', 'Two-factor sign-in is on already; turn it off first to use another app');
  return { secret, otpauthUri: totpUri({ secret, email: user.email, issuer }) };
}

/**
 * Turns two-factor on when `code` is the app's current code for the pending secret; the ten
 * recovery codes, shown this once. A wrong code is a 400 at `code`; no pending secret a 409.
 */
export async function confirmTwoFactor(db: Database, key: TwoFactorKey, userId: string, code: string, now: Date): Promise<string[]> {
  const user = await stateOf(db, userId);
  if (user.totpEnabledAt) throw new ConflictError('two_factor_on', 'Two-factor sign-in is on already');
  const secret = user.totpSecret ? unseal(key, userId, user.totpSecret) : null;
  if (!secret || !user.totpSecret) throw new ConflictError('two_factor_not_started', 'Start two-factor sign-in first, then confirm it');
  const step = verifyTotp(secret, code, now);
  if (step === null) {
    throw new ValidationError([
      { path: 'code', message: 'This is not the code your app shows now; check the code, and that the phone’s clock is right' },
    ]);
  }
  const recovery = newRecoveryCodes();
  const rows = await db
    .update(users)
    .set({ totpEnabledAt: now, totpLastStep: step, recoveryCodeHashes: recovery.hashes, updatedAt: sql`now()` })
    // The secret checked is the one turned on, even if another tab started again meanwhile.
    .where(and(eq(users.id, userId), isNull(users.totpEnabledAt), eq(users.totpSecret, user.totpSecret)))
    .returning({ id: users.id });
  if (rows.length === 0)
    throw new ConflictError('two_factor_not_started', 'Two-factor sign-in was started again meanwhile; confirm the new code');
  return recovery.codes;
}

/** Turns two-factor off (the caller has checked the password); nothing to do when it is off. */
export async function turnOffTwoFactor(db: Database, userId: string): Promise<void> {
  await db
    .update(users)
    .set({ totpSecret: null, totpEnabledAt: null, totpLastStep: null, recoveryCodeHashes: [], updatedAt: sql`now()` })
    .where(eq(users.id, userId));
}

/** Ten new recovery codes in place of the old ones (the caller has checked the password). 409 `two_factor_off` when off. */
export async function replaceRecoveryCodes(db: Database, userId: string): Promise<string[]> {
  const recovery = newRecoveryCodes();
  const rows = await db
    .update(users)
    .set({ recoveryCodeHashes: recovery.hashes, updatedAt: sql`now()` })
    .where(and(eq(users.id, userId), sql`${users.totpEnabledAt} is not null`))
    .returning({ id: users.id });
  if (rows.length === 0) throw new ConflictError('two_factor_off', 'Two-factor sign-in is off; there are no recovery codes to replace');
  return recovery.codes;
}

const TOTP_REQUIRED = 'Enter the code your authenticator app shows, or one of your recovery codes';
const TOTP_INVALID = 'This code is wrong, was used already, or is too old; enter the current one, or a recovery code';

/**
 * The second step of a sign-in, after the password: nothing when two-factor is off. Otherwise
 * 401 `totp_required` without `code`, and 401 `totp_invalid` unless `code` is the app's code of a
 * step not used before (each step once: the step is kept, atomically, so two requests with one
 * code cannot both pass) or an unused recovery code (taken out of the list, atomically).
 */
export async function checkSecondFactor(
  db: Database,
  key: TwoFactorKey,
  user: TwoFactorState,
  code: string | null | undefined,
  now: Date,
): Promise<void> {
  if (!user.totpEnabledAt) return;
  if (!code?.trim()) throw new AppError('totp_required', { message: TOTP_REQUIRED });
  if (/^[0-9\s]+$/.test(code)) {
    const secret = user.totpSecret ? unseal(key, user.id, user.totpSecret) : null;
    const step = secret ? verifyTotp(secret, code, now, user.totpLastStep) : null;
    if (step !== null) {
      const rows = await db
        .update(users)
        .set({ totpLastStep: step })
        .where(and(eq(users.id, user.id), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
        .returning({ id: users.id });
      if (rows.length > 0) return;
    }
  } else {
    const remaining = matchRecoveryCode(user.recoveryCodeHashes, code);
    const used = remaining && user.recoveryCodeHashes.find((h) => !remaining.includes(h));
    if (used) {
      const rows = await db
        .update(users)
        .set({ recoveryCodeHashes: sql`array_remove(${users.recoveryCodeHashes}, ${used})`, updatedAt: sql`now()` })
        .where(and(eq(users.id, user.id), sql`${used} = any(${users.recoveryCodeHashes})`))
        .returning({ id: users.id });
      if (rows.length > 0) return;
    }
  }
  throw new AppError('totp_invalid', { message: TOTP_INVALID });
}
