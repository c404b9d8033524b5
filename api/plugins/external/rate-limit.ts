import { createHash } from 'node:crypto';
import fp from 'fastify-plugin';
import rateLimit from '@fastify/rate-limit';

/**
 * Per API key (per address when there is none), counted in Redis so every api process shares
 * one budget. 429 carries Retry-After.
 */
export default fp(async (app) => {
  const { config } = app.ctx;
  await app.register(rateLimit, {
    global: true,
    max: config.RATE_LIMIT_MAX,
    timeWindow: config.RATE_LIMIT_WINDOW_MS,
    // The request path's fail-fast connection: while Redis is away the count fails at once and
    // the limit is skipped, rather than the request waiting for Redis to come back.
    redis: app.requestRedis,
    nameSpace: `${config.REDIS_NAMESPACE}:ratelimit:`,
    // If Redis is away, serve rather than refuse everyone.
    skipOnError: true,
    keyGenerator: (request) => {
      const auth = request.headers.authorization;
      return auth ? `key:${createHash('sha256').update(auth).digest('hex').slice(0, 32)}` : `ip:${request.ip}`;
    },
    allowList: (request) => !request.routeOptions.config.auth,
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      message: `Too many requests; retry in ${Math.ceil(context.ttl / 1000)} s`,
    }),
  });
});
