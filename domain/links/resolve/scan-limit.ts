import type pg from 'pg';
import type { Redis } from '../../../platform/redis/client.js';
import type { LinkCacheKeys } from './keys.js';
import { loadHumanScanCount } from './load.js';

// One atomic step per scan, so with scanLimit N exactly N human scans get through however many
// arrive at once, from however many redirect processes. ARGV: limit, seed ('' = none), take ('1'
// counts this scan, '0' only looks). Returns -2 when the counter is missing and no seed was
// given, -1 when the limit is reached, else the count after this scan.
const TAKE_SCAN_LUA = `
local c = redis.call('GET', KEYS[1])
if not c then
  if ARGV[2] == '' then return -2 end
  c = ARGV[2]
  redis.call('SET', KEYS[1], c)
end
c = tonumber(c)
if c >= tonumber(ARGV[1]) then return -1 end
if ARGV[3] == '1' then return redis.call('INCR', KEYS[1]) end
return c`;

export type ScanLimitAnswer = 'allowed' | 'limit_reached';

/**
 * The scan limit's authority is a counter in Redis, seeded from Postgres's human_scan_count the
 * first time a limited link is scanned (or after Redis lost it). Without Redis the limit cannot
 * be kept exact, so the caller answers "try again" rather than let scans past it.
 */
export class ScanLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly pool: pg.Pool,
    private readonly keys: LinkCacheKeys,
  ) {}

  /** `human` scans are counted; bots only learn whether the link still resolves. */
  async take(link: { id: string; scanLimit: number | null }, human: boolean): Promise<ScanLimitAnswer> {
    const key = this.keys.humanScans(link.id);
    const take = human ? '1' : '0';
    let answer = (await this.redis.eval(TAKE_SCAN_LUA, 1, key, link.scanLimit ?? 0, '', take)) as number;
    if (answer === -2) {
      const seed = await loadHumanScanCount(this.pool, link.id);
      answer = (await this.redis.eval(TAKE_SCAN_LUA, 1, key, link.scanLimit ?? 0, String(seed), take)) as number;
    }
    return answer === -1 ? 'limit_reached' : 'allowed';
  }
}
