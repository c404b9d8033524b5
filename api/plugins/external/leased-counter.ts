import type { Redis } from '#platform/redis/client.js';

/**
 * A fixed-window request counter shared by every api process through Redis, but asked of Redis in
 * leases rather than once per request: a process takes a batch of the window's budget at once
 * (never more than is left), spends it from memory, and asks again when it runs out. A key's first
 * lease in a window is 1 request, and each further one doubles, up to `maxLease`: a key making a
 * few requests takes them one at a time (exact, as before), a busy key costs one Redis round trip
 * per `maxLease` requests. Once Redis says the budget is spent, this process refuses the key from
 * memory until the window ends.
 *
 * Never more than `max` requests pass per window, however many processes share the counter (the
 * budget is only handed out by Redis, atomically). With one process the count is exact. With N
 * processes a key can be refused early by at most the unspent leases the others hold: fewer than
 * (N − 1) × maxLease requests of the window; those leases lapse with the window.
 *
 * While Redis cannot be asked, each process counts the key's window in memory instead (`max` per
 * window per process), so the limit stays on rather than failing open (docs/decisions/0382).
 */

// KEYS[1] the counter; ARGV: wanted, max, window ms. Grants min(wanted, max − count), starting the
// window on its first grant. Returns {granted, count after, ms left of the window}.
const LEASE_LUA = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
local grant = math.min(tonumber(ARGV[1]), tonumber(ARGV[2]) - count)
local ttl = redis.call('PTTL', KEYS[1])
if grant <= 0 then
  if ttl < 0 then
    redis.call('PEXPIRE', KEYS[1], ARGV[3])
    ttl = tonumber(ARGV[3])
  end
  return {0, count, ttl}
end
count = redis.call('INCRBY', KEYS[1], grant)
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  ttl = tonumber(ARGV[3])
end
return {grant, count, ttl}`;

interface Lease {
  /** Requests this process may still pass in the window, without asking Redis. */
  left: number;
  /** The window's count in Redis after this process's last lease (what every process has taken). */
  taken: number;
  /** The next lease's size. */
  next: number;
  /** When the window ends (this process's clock). */
  until: number;
  /** Redis answered that the window's budget is spent. */
  spent: boolean;
  /** A lease being asked for: requests that find none left wait for it. */
  asking: Promise<void> | null;
}

export interface Count {
  /** Requests counted in the window, this one included (more than max: refused). */
  current: number;
  /** Ms until the window ends. */
  ttl: number;
}

/** Keys of leases held at most; the oldest is dropped first (its unspent lease is simply not used). */
const MAX_KEYS = 100_000;

/** A window counted in this process alone, while Redis cannot be asked. */
interface LocalWindow {
  count: number;
  until: number;
}

export class LeasedCounter {
  private readonly leases = new Map<string, Lease>();
  private readonly local = new Map<string, LocalWindow>();

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly maxLease: number,
  ) {}

  /** Counts one request of `key`: from its lease, from Redis, or in memory while Redis cannot be asked. */
  async count(key: string, max: number, windowMs: number): Promise<Count> {
    try {
      return await this.countLeased(key, max, windowMs);
    } catch {
      return this.countLocally(key, windowMs);
    }
  }

  private countLocally(key: string, windowMs: number): Count {
    const now = Date.now();
    let window = this.local.get(key);
    if (!window || window.until <= now) {
      window = { count: 0, until: now + windowMs };
      this.local.delete(key);
      this.local.set(key, window);
      if (this.local.size > MAX_KEYS) this.local.delete(this.local.keys().next().value!);
    }
    window.count++;
    return { current: window.count, ttl: window.until - now };
  }

  private async countLeased(key: string, max: number, windowMs: number): Promise<Count> {
    for (;;) {
      const now = Date.now();
      let lease = this.leases.get(key);
      if (!lease || lease.until <= now) {
        if (lease?.asking) {
          await lease.asking;
          continue;
        }
        lease = { left: 0, taken: 0, next: 1, until: Infinity, spent: false, asking: null };
        this.leases.delete(key);
        this.leases.set(key, lease);
        if (this.leases.size > MAX_KEYS) this.leases.delete(this.leases.keys().next().value!);
      }
      if (lease.left > 0) {
        lease.left--;
        return { current: lease.taken - lease.left, ttl: lease.until - now };
      }
      if (lease.spent) return { current: max + 1, ttl: lease.until - now };
      if (!lease.asking) {
        const asking = this.ask(key, lease, max, windowMs);
        lease.asking = asking;
        asking.then(
          () => (lease.asking = null),
          () => (lease.asking = null),
        );
      }
      await lease.asking;
    }
  }

  private async ask(key: string, lease: Lease, max: number, windowMs: number): Promise<void> {
    const wanted = Math.min(lease.next, this.maxLease, max);
    const [granted, count, ttl] = (await this.redis.eval(LEASE_LUA, 1, this.prefix + key, wanted, max, windowMs)) as number[];
    lease.until = Date.now() + ttl!;
    lease.left += granted!;
    lease.taken = count!;
    lease.next = Math.min(wanted * 2, this.maxLease);
    lease.spent = granted === 0;
  }
}
