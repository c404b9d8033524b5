/**
 * The unique-visitor key of a scan: a keyed hash of the client address and the user agent's
 * operating-system family under a
 * salt that changes every UTC day, so analytics can count distinct visitors of a day without any
 * address being kept. The salt lives only in Redis (`<prefix>:visitor-salt:<YYYY-MM-DD>`, 32
 * random bytes, created with SET NX, expiring just after its day), where every redirect replica
 * finds the same one; it is never written beside the scans. Once a day's salt is gone, that day's
 * keys cannot be tied to an address by anyone, us included.
 *
 * Runs on the redirect's hot path: each process keeps today's and tomorrow's salt in memory,
 * fetched (or created) at start, every minute and whenever its Redis connection comes back, so
 * `keyOf` never waits for Redis. A day this process could not get from Redis gets a salt of its
 * own (the scan is never held up or lost); it is offered to Redis at the next refresh, and the
 * salt Redis holds replaces it, so replicas converge on one salt as soon as they reach Redis.
 */
import crypto, { createHash, createHmac, randomBytes } from 'node:crypto';
import type { Logger } from '#platform/logger.js';
import type { Redis } from '#platform/redis/client.js';

const DAY_MS = 86_400_000;
const SALT_BYTES = 32;
/** How long a salt outlives its day in Redis: room for replicas whose clocks lag a little. */
const SALT_GRACE_SECONDS = 600;
const REFRESH_MS = 60_000;

/** SHA-256 of a string, base64url. `crypto.hash` (one call, no Hash object) came in Node 20.12. */
const sha256Base64url: (text: string) => string =
  typeof crypto.hash === 'function'
    ? (text) => crypto.hash('sha256', text, 'base64url')
    : (text) => createHash('sha256').update(text).digest('base64url');

/** The Redis key of the salt of a UTC day (`day` in days since the epoch). */
export function visitorSaltKey(prefix: string, day: number): string {
  return `${prefix}:visitor-salt:${new Date(day * DAY_MS).toISOString().slice(0, 10)}`;
}

/** A day's salt as the hot path uses it. */
export interface VisitorSalt {
  /** UTC days since the epoch. */
  readonly day: number;
  readonly bytes: Buffer;
  /** The salt as the hash's fixed-length prefix (base64 of the bytes, 44 characters). */
  readonly prefix: string;
  /** Whether Redis holds it (every replica uses it), or it is this process's own for now. */
  readonly shared: boolean;
}

export function visitorSalt(day: number, bytes: Buffer, shared: boolean): VisitorSalt {
  return { day, bytes, prefix: bytes.toString('base64'), shared };
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** base64url character code → its 6-bit value. */
const SEXTET = new Uint8Array(128);
for (let i = 0; i < BASE64URL.length; i++) SEXTET[BASE64URL.charCodeAt(i)] = i;
/** The 22nd character of a 16-byte base64url: the last two bits of byte 16 and four zero bits. */
const LAST_OF_16 = 'AQgw';

/**
 * The coarse family of a user agent the key holds instead of the whole header: one of seven
 * operating-system families, found by substrings any real browser of that system sends. A client
 * that rotates its User-Agent from one address makes at most seven visitors a day, where every
 * distinct header made one (docs/decisions/0370-visitor-key-resists-rotation.md). The order
 * matters: an iPhone's header says "like Mac OS X", an Android's and a ChromeOS's say "Linux".
 */
export function userAgentFamily(userAgent: string | undefined): string {
  if (!userAgent) return '';
  if (/iPhone|iPad|iPod/.test(userAgent)) return 'ios';
  if (userAgent.includes('Android')) return 'android';
  if (userAgent.includes('Windows')) return 'windows';
  if (userAgent.includes('CrOS')) return 'chromeos';
  if (/Macintosh|Mac OS X/.test(userAgent)) return 'mac';
  if (userAgent.includes('Linux')) return 'linux';
  return 'other';
}

/**
 * The first 128 bits of SHA-256(salt ‖ address ‖ "\n" ‖ user-agent family), base64url (22 characters).
 *
 * A salt-prefixed hash rather than HMAC-SHA256, because it costs a quarter as much on the hot
 * path (one call of `crypto.hash` on a string, no Hmac object; docs/benchmarks.md) and is as good
 * for this use: the salt is a 256-bit secret of fixed length, so the hashed text is unambiguous,
 * and with the output cut to 128 of SHA-256's 256 bits of state nobody holding keys can extend
 * them (the length-extension weakness a secret prefix has, and HMAC exists to avoid, needs the
 * whole state). A chopped Merkle–Damgård hash keyed by a prefix is a pseudorandom function.
 * An address never holds a newline and a family is one of a fixed few, so the pair reads back one way.
 */
export function visitorKey(salt: VisitorSalt, address: string, userAgent: string | undefined): string {
  const digest = sha256Base64url(salt.prefix + clientAddress(address) + '\n' + userAgentFamily(userAgent));
  // 21 characters carry 126 bits; the 22nd keeps the two bits left of byte 16 (not the 17th byte's).
  return digest.slice(0, 21) + LAST_OF_16[SEXTET[digest.charCodeAt(21)]! >> 4];
}

/** HMAC-SHA256 under the salt, cut the same way: what `visitorKey` saves (benchmarks only). */
export function visitorKeyHmac(salt: VisitorSalt, address: string, userAgent: string | undefined): string {
  return createHmac('sha256', salt.bytes)
    .update(clientAddress(address) + '\n' + userAgentFamily(userAgent))
    .digest()
    .toString('base64url', 0, 16);
}

/**
 * The address as hashed: whole (an IPv6 address too, not its /64: a visitor is one device), with
 * an IPv4 address reported by a dual-stack socket (`::ffff:a.b.c.d`) as the IPv4 address, so a
 * listener on `::` and one on `0.0.0.0` give a visitor the same key.
 */
function clientAddress(address: string): string {
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}

export interface VisitorKeysDeps {
  /** A fail-fast connection (the scan path's): a refresh must fail, not wait, while Redis is away. */
  redis: Redis;
  /** REDIS_NAMESPACE. */
  prefix: string;
  logger: Logger;
  /** The clock of refreshes (which days to fetch); tests move it. */
  now?: () => number;
}

export class VisitorKeys {
  /** The salt of the latest day the hot path asked for: nearly every call finds its day here. */
  private current: VisitorSalt | undefined;
  /** By UTC day: today, tomorrow, and for a few minutes after midnight yesterday (a request that began before it). */
  private readonly salts = new Map<number, VisitorSalt>();
  private refreshing: Promise<void> | null = null;
  /** A refresh asked for while one runs: it runs next (the running one may have read the clock before a day changed). */
  private queued: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** The last day this process had to make a salt of its own (logged once per day). */
  private lastLocalDay = -1;
  private readonly now: () => number;
  private readonly onReady = () => void this.refresh();

  constructor(private readonly deps: VisitorKeysDeps) {
    this.now = deps.now ?? Date.now;
  }

  /**
   * Gets today's and tomorrow's salt from Redis, waiting at most `waitMs` for the connection;
   * then refreshes every minute and whenever the connection comes back. Never fails: without
   * Redis the process makes its own salts until it can reach it.
   */
  async start(waitMs = 2000): Promise<void> {
    const { redis } = this.deps;
    if (redis.status !== 'ready') {
      let done = () => {};
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, waitMs);
        redis.once('ready', resolve);
        done = () => (clearTimeout(timer), redis.off('ready', resolve));
      });
      done();
    }
    redis.on('ready', this.onReady);
    this.timer = setInterval(() => void this.refresh(), REFRESH_MS);
    this.timer.unref();
    await this.refresh();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.deps.redis.off('ready', this.onReady);
  }

  /** The visitor key of a request made at `at` (epoch ms); synchronous, never waits for Redis. */
  keyOf(address: string, userAgent: string | undefined, at: number): string {
    const day = Math.floor(at / DAY_MS);
    const salt = this.current?.day === day ? this.current : this.saltOf(day);
    return visitorKey(salt, address, userAgent);
  }

  /** The salt the hot path uses for a day (tests: to see whether it is the shared one). */
  saltFor(day: number): VisitorSalt | undefined {
    return this.salts.get(day);
  }

  /** The hot path moved to another day (midnight passed), or this process holds no salt for it. */
  private saltOf(day: number): VisitorSalt {
    let salt = this.salts.get(day);
    if (!salt) {
      salt = visitorSalt(day, randomBytes(SALT_BYTES), false);
      this.salts.set(day, salt);
      if (this.lastLocalDay !== day) {
        this.lastLocalDay = day;
        this.deps.logger.warn(
          { day: visitorSaltKey(this.deps.prefix, day) },
          'visitor salt not in Redis yet: using one of this process; its unique visitors count apart until Redis is reached',
        );
      }
      // Offered to Redis, or replaced by the salt Redis holds, as soon as it answers.
      void this.refresh();
    }
    if (!this.current || day > this.current.day) {
      // A new day: the next day's salt is to be fetched, and the one of the day before yesterday forgotten.
      if (this.current) void this.refresh();
      this.current = salt;
    }
    return salt;
  }

  /** Today's and tomorrow's salt from Redis (created there if missing); one refresh at a time. Never fails. */
  refresh(): Promise<void> {
    if (this.queued) return this.queued;
    if (this.refreshing) {
      this.queued = this.refreshing.then(() => {
        this.queued = null;
        return this.refresh();
      });
      return this.queued;
    }
    this.refreshing = this.fetchSalts()
      .catch((err: unknown) => this.deps.logger.error({ err }, 'visitor salt refresh failed'))
      .finally(() => (this.refreshing = null));
    return this.refreshing;
  }

  private async fetchSalts(): Promise<void> {
    const now = this.now();
    const today = Math.floor(now / DAY_MS);
    // A past day's salt is kept as long as Redis keeps it (for a request begun before midnight), then forgotten.
    const ended = (day: number) => (day + 1) * DAY_MS + SALT_GRACE_SECONDS * 1000 <= now;
    for (const day of this.salts.keys()) if (ended(day)) this.salts.delete(day);
    if (this.current && ended(this.current.day)) this.current = undefined;
    for (const day of [today, today + 1]) {
      const held = this.salts.get(day);
      // A salt this process made while Redis was away is offered: if no replica stored one
      // meanwhile it becomes the day's salt, and no visitor of this process counts twice.
      const offered = held?.bytes ?? randomBytes(SALT_BYTES);
      const key = visitorSaltKey(this.deps.prefix, day);
      let stored: Buffer | null;
      try {
        const replies = await this.deps.redis
          .multi()
          .set(key, offered, 'EXAT', (day + 1) * (DAY_MS / 1000) + SALT_GRACE_SECONDS, 'NX')
          .getBuffer(key)
          .exec();
        const reply = replies?.[1];
        if (!reply || reply[0]) throw reply?.[0] ?? new Error('transaction discarded');
        stored = reply[1] as Buffer | null;
      } catch (err) {
        this.deps.logger.debug({ err: (err as Error).message }, 'visitor salt refresh failed');
        return;
      }
      // Missing only if the day had already ended by Redis's clock: keep what this process holds.
      if (!stored || stored.length !== SALT_BYTES) continue;
      if (held?.shared && held.bytes.equals(stored)) continue;
      if (held && !held.bytes.equals(stored))
        this.deps.logger.info({ day: key }, 'visitor salt of this process replaced by the shared one');
      const salt = visitorSalt(day, stored, true);
      this.salts.set(day, salt);
      if (this.current?.day === day) this.current = salt;
    }
  }
}
