import fp from 'fastify-plugin';
import { ApiKeyAuthenticator } from '#domain/accounts/api-keys.js';
import { planAllows } from '#domain/accounts/plans.js';
import { hasScope } from '#domain/accounts/scopes.js';
import { AttemptLimit } from '#platform/redis/attempt-limit.js';
import { BoundedCache } from '#platform/bounded-cache.js';
import { createRedis } from '#platform/redis/client.js';
import { Invalidations } from '#platform/redis/invalidations.js';
import { ForbiddenError, TooManyRequestsError, UnauthorizedError } from '#domain/errors.js';
import { SessionAuthenticator } from '#domain/people/sessions.js';
import { roleAtLeast } from '#domain/people/roles.js';
import { rateLimitIdentity } from '#platform/net/client-identity.js';
import { readCookie, refuseCrossSite, SESSION_COOKIE } from '../../session-cookie.js';

/**
 * Who calls: a machine with `Authorization: Basic <key>` (the raw key, not base64, not
 * user:password), or a person with the console's session cookie (api/session-cookie.ts); a
 * request carrying both is the key's. Either way the same principal comes out (scopes, role,
 * folders) and the same checks follow. A state-changing request made with the cookie must come
 * from the api's own origin (Sec-Fetch-Site, else Origin): another site's form or fetch is a 403
 * `csrf_rejected` before anything runs (decision 0402). Runs before
 * body parsing and validation, so an unauthenticated caller learns nothing about the payload
 * rules. Order of answers: no/bad key 401, plan without the feature 401, missing scope 403.
 *
 * Failed attempts are limited per client address (an IPv6 /64): AUTH_FAILURE_LIMIT refused keys
 * per AUTH_FAILURE_WINDOW_MS, counted in Redis so every api process shares them, and checked
 * before the key is looked up; past it 429 with Retry-After, whatever key is sent, until the
 * window ends. Only failures count (AttemptLimit's check/fail), so valid requests are never
 * refused for running many at once. A request without an Authorization header is a 401 without
 * counting (it guesses nothing and costs no lookup). Keys refused lately, and keys accepted while
 * this process hears key changes, are answered from memory (ApiKeyAuthenticator); a revocation
 * reaches every api process by Redis pub/sub.
 *
 * An address found under its failure limit is not asked of Redis again for CLEAN_MEMO_MS (or until
 * a failure of its own here): a valid key's request costs Redis nothing. So an address that other
 * processes' failures put past the limit may still pass here with a valid key for up to
 * CLEAN_MEMO_MS; a bad key from it still counts and is refused at once.
 */
export default fp(async (app) => {
  const { config, db } = app.ctx;
  const authenticator = new ApiKeyAuthenticator(db, app.ctx.logger);
  const sessions = new SessionAuthenticator(db, app.ctx.logger, { idleMs: config.SESSION_IDLE_MS, maxAgeMs: config.SESSION_MAX_AGE_MS });
  // A connection of its own: a subscribed one can run nothing else.
  const subscriber = createRedis(config.REDIS_URL, app.ctx.logger);
  const invalidations = new Invalidations(subscriber, app.ctx.logger);
  await Promise.all([authenticator.listen(invalidations, config.REDIS_NAMESPACE), sessions.listen(invalidations, config.REDIS_NAMESPACE)]);
  app.addHook('onClose', async () => {
    subscriber.disconnect();
  });
  const clean = new BoundedCache<string, number>(CLEAN_MEMO_MAX);
  // Fails at once while Redis is away (the limit then counts in this process) instead of holding every request.
  const failures = new AttemptLimit(app.requestRedis, app.ctx.logger);
  const failuresOf = (identity: string) => [
    {
      key: `${config.REDIS_NAMESPACE}:auth-failures:${identity}`,
      max: config.AUTH_FAILURE_LIMIT,
      windowMs: config.AUTH_FAILURE_WINDOW_MS,
    },
  ];

  app.decorateRequest('principal', null as never);
  app.addHook('onRequest', async (request) => {
    const requirement = request.routeOptions.config.auth;
    if (!requirement) return;
    if (requirement.scope === 'public') {
      if (requirement.signsIn) refuseCrossSite(request, config.PUBLIC_API_URL, false);
      return;
    }
    const header = request.headers.authorization;
    const cookie = header ? null : readCookie(request, SESSION_COOKIE);
    if (!header && !cookie) throw new UnauthorizedError();
    if (cookie && !SAFE_METHODS.has(request.method)) refuseCrossSite(request, config.PUBLIC_API_URL, true);
    const identity = rateLimitIdentity(request.ip);
    const cleanUntil = clean.get(identity);
    const allowed = cleanUntil !== undefined && cleanUntil > Date.now() ? ALLOWED : await failures.check(failuresOf(identity));
    if (allowed.allowed && allowed !== ALLOWED) clean.set(identity, Date.now() + CLEAN_MEMO_MS);
    if (!allowed.allowed) {
      // retryAfterSeconds is whole seconds, at least 1 (AttemptLimit).
      const seconds = allowed.retryAfterSeconds;
      throw new TooManyRequestsError(
        'auth_attempts_exceeded',
        `Too many failed authentication attempts from this address; retry in ${seconds} s`,
        seconds,
      );
    }
    const key = header ? readKey(header) : null;
    const principal = key ? await authenticator.authenticate(key) : cookie ? await sessions.authenticate(cookie) : null;
    if (!principal) {
      clean.delete(identity);
      await failures.fail(failuresOf(identity));
      throw new UnauthorizedError();
    }
    if (requirement.plan && !planAllows(principal.plan, requirement.plan)) throw new UnauthorizedError('plan_feature_unavailable');
    if (requirement.role && !roleAtLeast(principal.role, requirement.role)) {
      throw new ForbiddenError('role_required', `This needs the ${requirement.role} role or higher; yours here is ${principal.role}`);
    }
    if (requirement.scope !== 'any' && !hasScope(principal.scopes, requirement.scope)) throw new ForbiddenError();
    request.principal = principal;
  });
});

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const CLEAN_MEMO_MS = 1000;
const CLEAN_MEMO_MAX = 10_000;
const ALLOWED = { allowed: true, retryAfterSeconds: 0 } as const;

function readKey(header: string): string | null {
  const match = /^Basic ([^\s]+)$/.exec(header.trim());
  return match ? match[1]! : null;
}
