import { createHash } from 'node:crypto';
import fp from 'fastify-plugin';
import rateLimit from '@fastify/rate-limit';
import { LeasedCounter } from './leased-counter.js';

/** Requests of one key a process may take from Redis at once (see LeasedCounter). */
const MAX_LEASE = 64;

/**
 * Per API key (per address when there is none), counted in Redis so every api process shares
 * one budget, but in leases (LeasedCounter): a busy key costs Redis one round trip per MAX_LEASE
 * requests instead of one per request. Never more than RATE_LIMIT_MAX per window pass; one process
 * counts exactly, several may refuse a key early by the leases the others hold. While Redis is
 * away each process counts the key alone. 429 carries Retry-After.
 */
export default fp(async (app) => {
  const { config } = app.ctx;
  // The request path's fail-fast connection: while Redis is away the count fails at once (its
  // breaker open) and the key is counted in this process, rather than the request waiting for Redis.
  const counter = new LeasedCounter(app.requestRedis, `${config.REDIS_NAMESPACE}:ratelimit:`, MAX_LEASE);
  // The plugin builds its store itself, from its own options; this one only needs the counter.
  class LeasedStore {
    incr(key: string, callback: (err: Error | null, res?: { current: number; ttl: number }) => void, timeWindow: number, max: number) {
      counter.count(key, max, timeWindow).then(
        (res) => callback(null, res),
        (err: Error) => callback(err),
      );
    }
    child() {
      return this;
    }
  }
  await app.register(rateLimit, {
    global: true,
    max: config.RATE_LIMIT_MAX,
    timeWindow: config.RATE_LIMIT_WINDOW_MS,
    store: LeasedStore,
    // The counter answers without Redis itself; an error left would be a bug, and serving beats
    // refusing everyone.
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
