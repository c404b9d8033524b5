import { createHmac, timingSafeEqual } from 'node:crypto';
import bcrypt from 'bcrypt';
import { AttemptLimit, type Attempt } from '#platform/redis/attempt-limit.js';
import { rateLimitIdentity } from '#platform/net/client-identity.js';
import type { Redis } from '#platform/redis/client.js';
import type { Logger } from '#platform/logger.js';
import type { LinkCacheKeys } from './keys.js';

export const PASSWORD_COOKIE = 'qrlinks_pass';
/** How long a correct password keeps opening the link in that browser. */
export const PASSWORD_COOKIE_TTL_SECONDS = 12 * 60 * 60;
/** Wrong passwords one client (an address; an IPv6 /64) may try on one link per window. */
export const PASSWORD_ATTEMPTS_MAX = 10;
export const PASSWORD_ATTEMPTS_WINDOW_SECONDS = 15 * 60;
/**
 * Wrong passwords one link takes per window from all clients together: what an attacker with
 * many addresses gets (2,400 tries a day at most). Past it nobody can try until the window ends;
 * visitors who already hold a cookie for the link are not asked.
 */
export const LINK_PASSWORD_ATTEMPTS_MAX = 100;
export const LINK_PASSWORD_ATTEMPTS_WINDOW_SECONDS = 60 * 60;

interface ProtectedLink {
  id: string;
  passwordHash: string;
}

/**
 * The cookie a correct password sets: `<expiry>.<mac>`, the MAC an HMAC-SHA256 under a server
 * secret of the link id, the expiry and the link's bcrypt hash. The secret never leaves the
 * redirect processes (the hash itself is visible to API keys with links.read, so it cannot be the
 * key); the hash in the message means a new password ends every session opened with the old one.
 * The first secret signs and every secret verifies, so a new secret put first rotates without
 * ending live cookies.
 */
export class PasswordCookies {
  constructor(private readonly secrets: readonly Buffer[]) {
    if (secrets.length === 0) throw new Error('PasswordCookies needs at least one secret');
  }

  value(link: ProtectedLink, now = Date.now()): string {
    const expires = Math.floor(now / 1000) + PASSWORD_COOKIE_TTL_SECONDS;
    return `${expires}.${mac(this.secrets[0]!, link, expires)}`;
  }

  isValid(link: ProtectedLink, cookieHeader: string | undefined, now = Date.now()): boolean {
    if (!cookieHeader) return false;
    for (const part of cookieHeader.split(';')) {
      const eq = part.indexOf('=');
      if (eq < 0 || part.slice(0, eq).trim() !== PASSWORD_COOKIE) continue;
      const [expiresText, given] = part
        .slice(eq + 1)
        .trim()
        .split('.');
      const expires = Number(expiresText);
      if (!given || !Number.isInteger(expires) || expires * 1000 <= now) continue;
      const actual = Buffer.from(given);
      for (const secret of this.secrets) {
        const expected = Buffer.from(mac(secret, link, expires));
        if (actual.length === expected.length && timingSafeEqual(actual, expected)) return true;
      }
    }
    return false;
  }
}

function mac(secret: Buffer, link: ProtectedLink, expires: number): string {
  return createHmac('sha256', secret).update(`${link.id}.${expires}.${link.passwordHash}`).digest('base64url');
}

/** bcrypt runs on libuv's thread pool, off the event loop. */
export function passwordMatches(passwordHash: string, password: string): Promise<boolean> {
  return bcrypt.compare(password, passwordHash);
}

/**
 * Wrong passwords, limited per link and client and per link, counted in Redis so every redirect
 * process shares the windows (in process while Redis is away). A try holds its place while
 * bcrypt runs, so a burst of posts gets no more tries than a sequence. The client is a hash of
 * its address (an IPv6 /64): no raw IP is stored anywhere.
 */
export class PasswordAttempts {
  private readonly limit: AttemptLimit;

  constructor(
    redis: Redis,
    logger: Logger,
    private readonly keys: LinkCacheKeys,
  ) {
    this.limit = new AttemptLimit(redis, logger);
  }

  /** Starts a try; when it is not allowed, nothing is counted. */
  begin(linkId: string, clientIp: string): Promise<Attempt> {
    return this.limit.begin([
      {
        key: this.keys.passwordAttempts(linkId, rateLimitIdentity(clientIp)),
        max: PASSWORD_ATTEMPTS_MAX,
        windowMs: PASSWORD_ATTEMPTS_WINDOW_SECONDS * 1000,
      },
      {
        key: this.keys.linkPasswordAttempts(linkId),
        max: LINK_PASSWORD_ATTEMPTS_MAX,
        windowMs: LINK_PASSWORD_ATTEMPTS_WINDOW_SECONDS * 1000,
      },
    ]);
  }
}
