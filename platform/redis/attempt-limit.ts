/**
 * Limits failed attempts (a wrong API key, a wrong link password) on one or more counters at once,
 * each with its own maximum and fixed window, counted in Redis so every process shares them. A
 * counter at its maximum refuses without touching anything, so a refused attempt neither counts
 * nor moves the window. Two ways to count, for two kinds of work:
 *
 * - `begin` holds a place on every counter while the guarded work runs (a bcrypt compare of a
 *   link password) and gives it back when the attempt succeeds. Attempts in flight count, so a
 *   burst sent at once gets exactly as many tries as a slow sequence; checking first and counting
 *   after would let every request of a burst through the check. For guesses that can succeed.
 * - `check` then `fail` counts only failures, after the work (an API key lookup). Valid requests
 *   never count, however many run at once from one address (a busy integration behind one NAT);
 *   a burst of bad ones can get past the check together, at most once per window. For a key of
 *   190 bits, where the limit protects Postgres from load rather than the key from being found.
 *
 * While Redis is unreachable the counters live in this process (bounded), so a limit still holds
 * per process instead of failing open or refusing everyone.
 */
import type { Redis } from './client.js';
import { throttledWarning, type Logger } from '../logger.js';
import { BoundedCache } from '../bounded-cache.js';

export interface AttemptCounter {
  /** The Redis key (already under the install's prefix). */
  key: string;
  /** Failures (with attempts in flight) the window allows. */
  max: number;
  windowMs: number;
}

export interface LimitAnswer {
  allowed: boolean;
  /** When not allowed: seconds until the fullest counter's window ends (at least 1). */
  retryAfterSeconds: number;
}

export interface Attempt extends LimitAnswer {
  /** The attempt succeeded: it was no failure, so its place is given back. */
  succeeded(): void;
  /** The attempt failed: it stays counted. Answers whether a further attempt is allowed now. */
  failed(): LimitAnswer;
}

// KEYS: the counters; ARGV[1]: 'hold' (check, then take one on each), 'check' (only check) or
// 'count' (take one on each, no check); then max and window (ms) of each counter, in pairs.
// A counter at its max refuses: {0, ms left of the longest such window}. Otherwise {1, count1,
// pttl1, ...} (counts after taking, or as they are for 'check').
const ATTEMPT_LUA = `
local mode = ARGV[1]
if mode ~= 'count' then
  local blocked = -1
  for i, key in ipairs(KEYS) do
    if tonumber(redis.call('GET', key) or '0') >= tonumber(ARGV[2 * i]) then
      local ttl = redis.call('PTTL', key)
      if ttl < 0 then
        redis.call('PEXPIRE', key, ARGV[2 * i + 1])
        ttl = tonumber(ARGV[2 * i + 1])
      end
      if ttl > blocked then blocked = ttl end
    end
  end
  if blocked >= 0 then return {0, blocked} end
end
local out = {1}
for i, key in ipairs(KEYS) do
  local count = tonumber(redis.call('GET', key) or '0')
  local ttl = redis.call('PTTL', key)
  if mode ~= 'check' then
    count = redis.call('INCR', key)
    if ttl < 0 then
      redis.call('PEXPIRE', key, ARGV[2 * i + 1])
      ttl = tonumber(ARGV[2 * i + 1])
    end
  end
  out[#out + 1] = count
  out[#out + 1] = ttl
end
return out`;

// Gives an attempt's place back on each counter still holding one (never below zero; the TTL stays).
const RELEASE_LUA = `
for _, key in ipairs(KEYS) do
  if tonumber(redis.call('GET', key) or '0') > 0 then redis.call('DECR', key) end
end
return 0`;

/** Counters kept in process while Redis is away; older ones are dropped first. */
const LOCAL_MAX_COUNTERS = 100_000;

type Mode = 'hold' | 'check' | 'count';
interface CounterState {
  count: number;
  ttlMs: number;
  max: number;
}

/** Redis refusing a limit's step (unreachable, or a script error): said once a minute, however many requests meet it. */
const countedLocally = throttledWarning('attempt limits counted in this process: Redis did not answer');

export class AttemptLimit {
  private readonly local = new BoundedCache<string, { count: number; until: number }>(LOCAL_MAX_COUNTERS);

  constructor(
    private readonly redis: Redis,
    private readonly logger: Logger,
  ) {}

  /** Starts an attempt that holds its place on every counter until it succeeds or fails. */
  async begin(counters: readonly AttemptCounter[]): Promise<Attempt> {
    const { states, inRedis } = await this.run('hold', counters);
    if (!Array.isArray(states)) return refused(states);
    let settled = false;
    const release = () => {
      if (settled) return;
      settled = true;
      // A place not given back is held until its window ends: the limit errs towards refusing.
      if (inRedis)
        this.redis
          .eval(RELEASE_LUA, counters.length, ...counters.map((c) => c.key))
          .catch((err: unknown) => countedLocally(this.logger, err, { step: 'release' }));
      else for (const c of counters) this.releaseLocally(c.key);
    };
    return {
      allowed: true,
      retryAfterSeconds: 0,
      succeeded: release,
      failed: () => {
        settled = true;
        return answerAfter(states);
      },
    };
  }

  /**
   * Whether an attempt is allowed now; nothing is counted. While no counter is full this is one
   * MGET (the api asks on every authenticated request); the script runs only to tell a refused
   * client how long to wait.
   */
  async check(counters: readonly AttemptCounter[]): Promise<LimitAnswer> {
    try {
      const counts = await this.redis.mget(...counters.map((c) => c.key));
      if (counters.every((c, i) => Number(counts[i] ?? 0) < c.max)) return { allowed: true, retryAfterSeconds: 0 };
    } catch (err) {
      // run() below counts in process as well.
      countedLocally(this.logger, err, { step: 'check' });
    }
    const { states } = await this.run('check', counters);
    return Array.isArray(states) ? { allowed: true, retryAfterSeconds: 0 } : refusal(states);
  }

  /** Counts a failed attempt; answers whether a further one is allowed now. */
  async fail(counters: readonly AttemptCounter[]): Promise<LimitAnswer> {
    const { states } = await this.run('count', counters);
    return Array.isArray(states) ? answerAfter(states) : refusal(states);
  }

  /** The counters after the step, or the ms until the fullest one's window ends when refused. */
  private async run(mode: Mode, counters: readonly AttemptCounter[]): Promise<{ states: CounterState[] | number; inRedis: boolean }> {
    let reply: number[];
    try {
      reply = (await this.redis.eval(
        ATTEMPT_LUA,
        counters.length,
        ...counters.map((c) => c.key),
        mode,
        ...counters.flatMap((c) => [c.max, c.windowMs]),
      )) as number[];
    } catch (err) {
      countedLocally(this.logger, err, { step: mode });
      return { states: this.runLocally(mode, counters), inRedis: false };
    }
    if (reply[0] === 0) return { states: reply[1]!, inRedis: true };
    return { states: counters.map((c, i) => ({ count: reply[1 + 2 * i]!, ttlMs: reply[2 + 2 * i]!, max: c.max })), inRedis: true };
  }

  private runLocally(mode: Mode, counters: readonly AttemptCounter[]): CounterState[] | number {
    const now = Date.now();
    const entries = counters.map((c) => {
      let entry = this.local.get(c.key);
      if (!entry || entry.until <= now) {
        entry = { count: 0, until: now + c.windowMs };
        this.local.set(c.key, entry);
      }
      return { entry, max: c.max };
    });
    const full = entries.filter(({ entry, max }) => entry.count >= max);
    if (mode !== 'count' && full.length > 0) return Math.max(...full.map(({ entry }) => entry.until - now));
    if (mode !== 'check') for (const { entry } of entries) entry.count++;
    return entries.map(({ entry, max }) => ({ count: entry.count, ttlMs: entry.until - now, max }));
  }

  private releaseLocally(key: string): void {
    const entry = this.local.get(key);
    if (entry && entry.count > 0) entry.count--;
  }
}

function refusal(ttlMs: number): LimitAnswer {
  return { allowed: false, retryAfterSeconds: toSeconds(ttlMs) };
}

function refused(ttlMs: number): Attempt {
  const answer = refusal(ttlMs);
  return { ...answer, succeeded: () => {}, failed: () => answer };
}

/** After a failure is counted: refused from now on if any counter is full. */
function answerAfter(states: readonly CounterState[]): LimitAnswer {
  const full = states.filter((c) => c.count >= c.max);
  return full.length === 0 ? { allowed: true, retryAfterSeconds: 0 } : refusal(Math.max(...full.map((c) => c.ttlMs)));
}

const toSeconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
