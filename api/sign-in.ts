/**
 * What the routes that sign a person in (`POST /sessions`, a completed password reset) and the
 * routes only a signed-in person may use (their sessions, password, two-factor) share: the
 * session behind a request, the login-CSRF check, the limit on failed proofs of a password or a
 * code, and starting the session with its cookie and answer.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '#infra/context.js';
import { AppError, ForbiddenError, TooManyRequestsError, type ErrorCode } from '#domain/errors.js';
import { emailKey } from '#domain/people/emails.js';
import { landingAccount } from '#domain/people/sign-in.js';
import { startSession } from '#domain/people/sessions.js';
import { AttemptLimit } from '#platform/redis/attempt-limit.js';
import { rateLimitIdentity, truncatedAddress } from '#platform/net/client-identity.js';
import { setSessionCookie } from './session-cookie.js';

/** The person behind a session; keys have none (403, saying so). */
export function sessionOf(request: FastifyRequest, what = 'sessions'): { id: string; userId: string } {
  const { sessionId, userId } = request.principal;
  if (!sessionId || !userId) throw new ForbiddenError('forbidden', `Only a signed-in person has ${what}; an API key has none`);
  return { id: sessionId, userId };
}

/**
 * Failed proofs of who one is (a password, an authenticator or recovery code) per email address:
 * SIGN_IN_FAILURE_LIMIT from one client address and SIGN_IN_EMAIL_FAILURE_LIMIT from anywhere per
 * SIGN_IN_FAILURE_WINDOW_MS, one count for every route that asks for one; past it 429.
 */
export function signInLimit(app: FastifyInstance) {
  const { config } = app.ctx;
  const failures = new AttemptLimit(app.requestRedis, app.ctx.logger);
  const countersOf = (email: string, ip: string) => {
    let key: string;
    try {
      key = emailKey(email);
    } catch {
      key = email.toLowerCase();
    }
    const ns = `${config.REDIS_NAMESPACE}:sign-in-failures`;
    const window = config.SIGN_IN_FAILURE_WINDOW_MS;
    return [
      { key: `${ns}:${rateLimitIdentity(key)}:${rateLimitIdentity(ip)}`, max: config.SIGN_IN_FAILURE_LIMIT, windowMs: window },
      { key: `${ns}:${rateLimitIdentity(key)}`, max: config.SIGN_IN_EMAIL_FAILURE_LIMIT, windowMs: window },
    ];
  };
  return {
    /**
     * Runs `attempt` unless the address is past its failures (429 `sign_in_attempts_exceeded`);
     * an error it throws with one of `counted` codes counts as a failure (every error by default).
     */
    async guard<T>(email: string, ip: string, attempt: () => Promise<T>, counted?: readonly ErrorCode[]): Promise<T> {
      const counters = countersOf(email, ip);
      const allowed = await failures.check(counters);
      if (!allowed.allowed) {
        throw new TooManyRequestsError(
          'sign_in_attempts_exceeded',
          `Too many failed sign-ins for this address; try again in ${allowed.retryAfterSeconds} s`,
          allowed.retryAfterSeconds,
        );
      }
      try {
        return await attempt();
      } catch (err) {
        if (!counted || (err instanceof AppError && counted.includes(err.code))) await failures.fail(counters);
        throw err;
      }
    },
  };
}

/** What signing in answers. */
export const signedInResponse = z.object({
  user: z.object({ id: z.string(), email: z.string(), name: z.string().nullable() }),
  accountId: z.string(),
  expiresAt: z.string(),
});

/**
 * Starts a session for the person in `accountId` (by default the account they land in: the one
 * they last worked in), sets the cookie; the answer of every route that signs a person in
 * (POST /sessions, a completed reset, an accepted invitation, setup, sign-up).
 */
export async function signInAs(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  user: { id: string; email: string; name: string | null },
  landIn?: string,
): Promise<z.infer<typeof signedInResponse>> {
  const { db, config } = ctx;
  const accountId = landIn ?? (await landingAccount(db, user.id));
  const session = await startSession(
    db,
    { userId: user.id, accountId, ip: truncatedAddress(request.ip), userAgent: request.headers['user-agent'] ?? null },
    { idleMs: config.SESSION_IDLE_MS, maxAgeMs: config.SESSION_MAX_AGE_MS },
  );
  setSessionCookie(reply, config.PUBLIC_API_URL, session.token, session.expiresAt);
  return { user: { id: user.id, email: user.email, name: user.name }, accountId, expiresAt: session.expiresAt.toISOString() };
}
