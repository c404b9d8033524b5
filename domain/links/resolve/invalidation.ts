import type { Config } from '#platform/config/index.js';
import type { Logger } from '#platform/logger.js';
import type { Redis } from '#platform/redis/client.js';
import { linkCacheKeys } from './keys.js';

export interface InvalidationContext {
  redis: Redis;
  config: Pick<Config, 'REDIS_NAMESPACE'>;
  logger?: Logger;
}

/** How long a change waits for Redis to confirm the invalidation before answering anyway. */
const CONFIRM_WAIT_MS = 1000;

/**
 * After every committed change to a link (create, update, pause, resume, delete, duplicate):
 * for each of its addresses (its slug, or `<host>/<slug>` on a brand domain: link-domains.ts), bump the version (so a loader that read Postgres before the change cannot write its
 * stale copy back), drop the Redis copy, and tell every redirect process to drop its own.
 * `deletedLinkIds` also forgets those links' scan-limit counters.
 *
 * When Redis is down the commands wait in ioredis's offline queue and run when it returns; the
 * caller is answered after CONFIRM_WAIT_MS at most. Meanwhile redirect processes serve what they
 * hold for at most their in-process TTL, then read Postgres (Redis being down), so no change is
 * hidden for longer than that.
 */
export async function invalidateLinks(ctx: InvalidationContext, addresses: readonly string[], deletedLinkIds: readonly string[] = []) {
  if (addresses.length === 0 && deletedLinkIds.length === 0) return;
  const keys = linkCacheKeys(ctx.config.REDIS_NAMESPACE);
  const tx = ctx.redis.multi();
  for (const address of new Set(addresses)) {
    tx.incr(keys.version(address));
    tx.del(keys.entry(address));
    tx.publish(keys.channel, address);
  }
  for (const id of deletedLinkIds) tx.del(keys.humanScans(id));
  const done = tx.exec().then(
    () => true,
    (err: unknown) => {
      ctx.logger?.error({ err, addresses }, 'link cache invalidation failed');
      return false;
    },
  );
  let timer: NodeJS.Timeout | undefined;
  const confirmed = await Promise.race([done, new Promise<null>((r) => (timer = setTimeout(() => r(null), CONFIRM_WAIT_MS)))]);
  clearTimeout(timer);
  if (confirmed === null) ctx.logger?.warn({ addresses }, 'link cache invalidation is waiting for Redis');
}
