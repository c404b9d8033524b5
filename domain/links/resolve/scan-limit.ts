import type { Pool } from '#platform/database/raw.js';
import type { Redis } from '#platform/redis/client.js';
import type { LinkCacheKeys } from './keys.js';
import { loadLimitScanCount } from './load.js';

const DAY_MS = 86_400_000;
/** How long a day's set of visitors outlives the day: requests begun before midnight, lagging clocks. */
const VISITORS_GRACE_SECONDS = 600;

// One atomic step per scan, so with scanLimit N exactly N visitors get through however many
// scans arrive at once, from however many redirect processes. KEYS: the counter, the day's set of
// visitor keys seen. ARGV: limit, seed ('' = none), take ('1' counts this scan, '0' only looks),
// visitor key ('' = none: the scan counts), the set's expiry (epoch s). A human scan whose visitor
// the set holds already is let through uncounted, as ingestion counts only a visitor's first scan
// of the day (limit_scan_count). Returns -2 when the counter is missing and no seed was given, -1
// when the limit is reached, else the count after this scan.
const TAKE_SCAN_LUA = `
local c = redis.call('GET', KEYS[1])
if not c then
  if ARGV[2] == '' then return -2 end
  c = ARGV[2]
  redis.call('SET', KEYS[1], c)
end
c = tonumber(c)
if c >= tonumber(ARGV[1]) then return -1 end
if ARGV[3] ~= '1' then return c end
if ARGV[4] ~= '' then
  if redis.call('SADD', KEYS[2], ARGV[4]) == 0 then return c end
  redis.call('EXPIREAT', KEYS[2], ARGV[5])
end
return redis.call('INCR', KEYS[1])`;

export type ScanLimitAnswer = 'allowed' | 'limit_reached';

/**
 * The scan limit's authority is a counter in Redis, seeded from Postgres's limit_scan_count the
 * first time a limited link is scanned (or after Redis lost it). A visitor (its unique-visitor
 * key) counts once per UTC day, so one client replaying a request takes one scan, not the link
 * (docs/decisions/0371-a-scan-limit-counts-visitors.md). Without Redis the limit cannot be kept
 * exact, so the caller answers "try again" rather than let scans past it.
 */
export class ScanLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly pool: Pool,
    private readonly keys: LinkCacheKeys,
  ) {}

  /** `human` scans are counted, once per visitor key and UTC day of `at`; bots only learn whether the link still resolves. */
  async take(
    link: { id: string; scanLimit: number | null },
    human: boolean,
    visitorKey: string | null,
    at: number,
  ): Promise<ScanLimitAnswer> {
    const day = Math.floor(at / DAY_MS);
    const keys = [this.keys.humanScans(link.id), this.keys.limitVisitors(link.id, day)];
    const expireAt = (day + 1) * (DAY_MS / 1000) + VISITORS_GRACE_SECONDS;
    const run = (seed: string) =>
      this.redis.eval(
        TAKE_SCAN_LUA,
        2,
        ...keys,
        link.scanLimit ?? 0,
        seed,
        human ? '1' : '0',
        visitorKey ?? '',
        expireAt,
      ) as Promise<number>;
    let answer = await run('');
    if (answer === -2) answer = await run(String(await loadLimitScanCount(this.pool, link.id)));
    return answer === -1 ? 'limit_reached' : 'allowed';
  }
}
