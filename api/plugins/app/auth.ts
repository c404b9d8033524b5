import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { ApiKeyAuthenticator } from '../../../domain/accounts/api-keys.js';
import { planAllows } from '../../../domain/accounts/plans.js';
import { hasScope } from '../../../domain/accounts/scopes.js';
import { AttemptLimit } from '../../../platform/redis/attempt-limit.js';
import { ForbiddenError, TooManyRequestsError, UnauthorizedError } from '../../../domain/errors.js';
import { rateLimitIdentity } from '../../../platform/net/client-identity.js';

/**
 * `Authorization: Basic <key>` with the raw key (not base64, not user:password). Runs before
 * body parsing and validation, so an unauthenticated caller learns nothing about the payload
 * rules. Order of answers: no/bad key 401, plan without the feature 401, missing scope 403.
 *
 * Failed attempts are limited per client address (an IPv6 /64): AUTH_FAILURE_LIMIT refused keys
 * per AUTH_FAILURE_WINDOW_MS, counted in Redis so every api process shares them, and checked
 * before the key is looked up; past it 429 with Retry-After, whatever key is sent, until the
 * window ends. Only failures count (AttemptLimit's check/fail), so valid requests are never
 * refused for running many at once. A request without an Authorization header is a 401 without
 * counting (it guesses nothing and costs no lookup). Keys refused lately are answered from memory
 * (ApiKeyAuthenticator).
 */
export default fp(async (app) => {
  const { config, db } = app.ctx;
  const authenticator = new ApiKeyAuthenticator(db, app.ctx.logger);
  // Fails at once while Redis is away (the limit then counts in this process) instead of holding every request.
  const failures = new AttemptLimit(app.requestRedis, app.ctx.logger);
  const failuresOf = (request: FastifyRequest) => [
    {
      key: `${config.REDIS_NAMESPACE}:auth-failures:${rateLimitIdentity(request.ip)}`,
      max: config.AUTH_FAILURE_LIMIT,
      windowMs: config.AUTH_FAILURE_WINDOW_MS,
    },
  ];

  app.decorateRequest('principal', null as never);
  app.addHook('onRequest', async (request) => {
    const requirement = request.routeOptions.config.auth;
    if (!requirement) return;
    const header = request.headers.authorization;
    if (!header) throw new UnauthorizedError();
    const allowed = await failures.check(failuresOf(request));
    if (!allowed.allowed) {
      // retryAfterSeconds is whole seconds, at least 1 (AttemptLimit).
      const seconds = allowed.retryAfterSeconds;
      throw new TooManyRequestsError(
        'auth_attempts_exceeded',
        `Too many failed authentication attempts from this address; retry in ${seconds} s`,
        seconds,
      );
    }
    const key = readKey(header);
    const principal = key ? await authenticator.authenticate(key) : null;
    if (!principal) {
      await failures.fail(failuresOf(request));
      throw new UnauthorizedError();
    }
    if (requirement.plan && !planAllows(principal.plan, requirement.plan)) throw new UnauthorizedError('plan_feature_unavailable');
    if (requirement.scope !== 'any' && !hasScope(principal.scopes, requirement.scope)) throw new ForbiddenError();
    request.principal = principal;
  });
});

function readKey(header: string): string | null {
  const match = /^Basic ([^\s]+)$/.exec(header.trim());
  return match ? match[1]! : null;
}
