/**
 * A signed-in person proving it is still them before a change that matters (their password,
 * two-factor off, new recovery codes): a stolen session alone is not enough. How often one may
 * try is the caller's (the api counts failures with the sign-in failures of the same address).
 */
import { ForbiddenError } from '../errors.js';
import { verifyPassword } from './passwords.js';

/** 403 `password_incorrect` unless `password` is the person's (a person without one never matches). */
export async function proveOwnPassword(user: { passwordHash: string | null }, password: string, field = 'password'): Promise<void> {
  if (user.passwordHash && (await verifyPassword(password, user.passwordHash))) return;
  throw new ForbiddenError('password_incorrect', `The ${field === 'password' ? 'password' : 'current password'} is not right`);
}
