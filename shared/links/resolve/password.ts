import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import bcrypt from 'bcrypt';
import type { Redis } from '../../redis.js';
import type { LinkCacheKeys } from './keys.js';

export const PASSWORD_COOKIE = 'qrlinks_pass';
/** How long a correct password keeps opening the link in that browser. */
export const PASSWORD_COOKIE_TTL_SECONDS = 12 * 60 * 60;
export const PASSWORD_ATTEMPTS_MAX = 10;
export const PASSWORD_ATTEMPTS_WINDOW_SECONDS = 15 * 60;

/**
 * The cookie is `<expiry>.<mac>`, the MAC keyed by the link's bcrypt hash: nobody without the hash
 * (which is salted and never leaves the server) can make one, and changing the password changes
 * the key, which ends every session opened with the old one. No server-wide secret to manage.
 */
function mac(link: { id: string; passwordHash: string }, expires: number): string {
  return createHmac('sha256', link.passwordHash).update(`${link.id}.${expires}`).digest('base64url');
}

export function passwordCookieValue(link: { id: string; passwordHash: string }, now = Date.now()): string {
  const expires = Math.floor(now / 1000) + PASSWORD_COOKIE_TTL_SECONDS;
  return `${expires}.${mac(link, expires)}`;
}

export function hasValidPasswordCookie(link: { id: string; passwordHash: string }, cookieHeader: string | undefined, now = Date.now()): boolean {
  if (!cookieHeader) return false;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== PASSWORD_COOKIE) continue;
    const [expiresText, given] = part.slice(eq + 1).trim().split('.');
    const expires = Number(expiresText);
    if (!given || !Number.isInteger(expires) || expires * 1000 <= now) continue;
    const expected = Buffer.from(mac(link, expires));
    const actual = Buffer.from(given);
    if (actual.length === expected.length && timingSafeEqual(actual, expected)) return true;
  }
  return false;
}

/** bcrypt runs on libuv's thread pool, off the event loop. */
export function passwordMatches(passwordHash: string, password: string): Promise<boolean> {
  return bcrypt.compare(password, passwordHash);
}

export interface AttemptsAnswer {
  allowed: boolean;
  retryAfterSeconds: number;
}

/**
 * Wrong passwords per link and client, counted in Redis so every redirect process shares the
 * window (and in process while Redis is away). The client is a hash of its address: no raw IP is
 * stored anywhere.
 */
export class PasswordAttempts {
  private readonly local = new Map<string, { count: number; until: number }>();

  constructor(
    private readonly redis: Redis,
    private readonly keys: LinkCacheKeys,
  ) {}

  private key(linkId: string, clientIp: string): string {
    return this.keys.passwordAttempts(linkId, createHash('sha256').update(clientIp).digest('base64url').slice(0, 22));
  }

  async check(linkId: string, clientIp: string): Promise<AttemptsAnswer> {
    const key = this.key(linkId, clientIp);
    try {
      const [count, ttl] = (await this.redis.multi().get(key).ttl(key).exec())!.map(([, v]) => v) as [string | null, number];
      return this.answer(Number(count ?? 0), ttl);
    } catch {
      const entry = this.localEntry(key);
      return this.answer(entry?.count ?? 0, entry ? Math.ceil((entry.until - Date.now()) / 1000) : 0);
    }
  }

  async fail(linkId: string, clientIp: string): Promise<AttemptsAnswer> {
    const key = this.key(linkId, clientIp);
    try {
      const result = await this.redis.multi().incr(key).expire(key, PASSWORD_ATTEMPTS_WINDOW_SECONDS, 'NX').ttl(key).exec();
      const [count, , ttl] = result!.map(([, v]) => v) as [number, number, number];
      return this.answer(count, ttl);
    } catch {
      const entry = this.localEntry(key) ?? { count: 0, until: Date.now() + PASSWORD_ATTEMPTS_WINDOW_SECONDS * 1000 };
      entry.count++;
      this.local.set(key, entry);
      return this.answer(entry.count, Math.ceil((entry.until - Date.now()) / 1000));
    }
  }

  private localEntry(key: string) {
    const entry = this.local.get(key);
    if (entry && entry.until <= Date.now()) this.local.delete(key);
    return entry && entry.until > Date.now() ? entry : undefined;
  }

  private answer(count: number, ttlSeconds: number): AttemptsAnswer {
    return { allowed: count < PASSWORD_ATTEMPTS_MAX, retryAfterSeconds: Math.max(1, ttlSeconds) };
  }
}
