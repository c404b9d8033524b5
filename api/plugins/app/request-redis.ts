import fp from 'fastify-plugin';
import { createFailFastRedis } from '#platform/redis/client.js';

/**
 * The Redis connection of the request path (the rate limit, the failed-key limit): fail-fast
 * (platform/redis/client.ts), so while Redis is unreachable each step fails at once, or after 500 ms on a
 * server that stopped answering, and the request goes on without it, instead of waiting in an
 * offline queue for the whole outage. BullMQ's connections (ctx.redis) wait for Redis as they must.
 */
export default fp(async (app) => {
  const redis = createFailFastRedis(app.ctx.config.REDIS_URL, 500, app.ctx.logger);
  // Connected before the first request (whose limits would otherwise be counted in this process
  // only); a Redis that does not answer within 5 s leaves them local until it does.
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 5000).unref();
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  app.decorate('requestRedis', redis);
  app.addHook('onClose', async () => {
    redis.disconnect();
  });
});
