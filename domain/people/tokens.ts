/**
 * One-time tokens people get in a link (invitations, the setup link, a password reset): 256 random bits, base64url.
 * Only their SHA-256 is stored, so a stolen database holds no usable link.
 */
import { createHash, randomBytes } from 'node:crypto';

export function newLinkToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashLinkToken(token) };
}

export function hashLinkToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Whether `token` can be one of ours at all (43 base64url characters): anything else is unknown without a look-up. */
export function isLinkToken(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}

/** Where the console (served at the root of the api's public origin) opens `route` with the token. */
export function consoleLink(publicApiUrl: string, route: 'join' | 'setup' | 'reset-password', token: string): string {
  return `${new URL(publicApiUrl).origin}/#/${route}?token=${token}`;
}
