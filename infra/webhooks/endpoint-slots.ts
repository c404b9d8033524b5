/**
 * Deliveries to one endpoint at once, across every worker process: at most
 * WEBHOOK_ENDPOINT_CONCURRENCY. Each running delivery holds a slot, a member of a sorted set in
 * Redis scored by when its lease ends (Redis's own clock), so a worker that dies mid-delivery frees
 * its slot when the lease runs out. A slow or dead receiver thus holds only its own slots, and the
 * worker's other slots keep serving every other endpoint.
 */
import type { Redis } from '#platform/redis/client.js';

// KEYS[1]: the endpoint's set. ARGV: lease ms, cap, member. 1 when the slot is held.
const TAKE_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZSCORE', KEYS[1], ARGV[3]) then return 1 end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[1]))
return 1`;

export class EndpointSlots {
  constructor(
    private readonly redis: Redis,
    private readonly namespace: string,
    private readonly perEndpoint: number,
    /** Longer than one attempt can take, so a live delivery never loses its slot. */
    private readonly leaseMs: number,
  ) {}

  private key(endpointId: string): string {
    return `${this.namespace}:webhook-slots:${endpointId}`;
  }

  async take(endpointId: string, holder: string): Promise<boolean> {
    const held = await this.redis.eval(TAKE_LUA, 1, this.key(endpointId), this.leaseMs, this.perEndpoint, holder);
    return held === 1;
  }

  async release(endpointId: string, holder: string): Promise<void> {
    await this.redis.zrem(this.key(endpointId), holder);
  }
}
