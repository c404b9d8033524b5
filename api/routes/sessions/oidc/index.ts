/**
 * Single sign-on with OpenID Connect (docs/decisions/0406, 0407). A browser is sent here by the
 * console's SSO button, on to the provider, and back to the callback, which signs it in with the
 * same session cookie as a password would and sends it to the console: `/` when signed in,
 * `/#/signin?error=<code>` when not (domain/people/sso-failures.ts has the codes and their words).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { signInWithSso, SsoRefused } from '#domain/people/sso.js';
import { startSession } from '#domain/people/sessions.js';
import type { SsoFailure } from '#domain/people/sso-failures.js';
import { ATTEMPT_TTL_SECONDS, OidcClient, OidcError, type OidcFailure } from '#platform/auth/oidc.js';
import { AppError } from '#domain/errors.js';
import { truncatedAddress } from '#platform/net/client-identity.js';
import { readCookie, setSessionCookie } from '#api/session-cookie.js';

/** Holds the sign-in attempt's id from the redirect to the provider until the way back, and only there. */
const ATTEMPT_COOKIE = 'qrlinks_oidc';
const CALLBACK_PATH = '/sessions/oidc/callback';

const FAILURE_CODES: Record<OidcFailure, SsoFailure> = {
  state: 'sso_state_invalid',
  rejected: 'sso_provider_error',
  denied: 'sso_denied',
  unreachable: 'sso_provider_unreachable',
};

const tags = ['sessions'];
const auth = { scope: 'public' } as const;
const redirectResponse = { 302: z.null().meta({ description: 'To the provider, or back to the console' }) };

const routes: FastifyPluginAsyncZod = async (app) => {
  const { config, db, logger } = app.ctx;
  const apiBase = config.PUBLIC_API_URL.replace(/\/+$/, '');
  const secure = new URL(apiBase).protocol === 'https:';
  const cookiePath = new URL(`${apiBase}/sessions/oidc`).pathname;
  const oidc =
    config.OIDC_ISSUER && config.OIDC_CLIENT_ID
      ? new OidcClient({
          issuer: config.OIDC_ISSUER,
          clientId: config.OIDC_CLIENT_ID,
          clientSecret: config.OIDC_CLIENT_SECRET,
          redirectUri: `${apiBase}${CALLBACK_PATH}`,
          timeoutMs: config.OIDC_TIMEOUT_MS,
          redis: app.ctx.redis,
          namespace: config.REDIS_NAMESPACE,
        })
      : null;
  const policy = {
    allowedDomains: config.OIDC_ALLOWED_EMAIL_DOMAINS,
    defaultRole: config.OIDC_DEFAULT_ROLE,
    accountId: config.OIDC_ACCOUNT_ID ?? null,
  };
  const attemptCookie = (value: string, maxAge: number) =>
    `${ATTEMPT_COOKIE}=${value}; Path=${cookiePath}; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure ? '; Secure' : ''}`;
  const backToConsole = (reply: FastifyReply, failure: SsoFailure | null) =>
    reply.header('cache-control', 'no-store').redirect(failure ? `/#/signin?error=${failure}` : '/', 302);
  const enabled = () => {
    if (!oidc) throw new AppError('not_found', { message: 'Single sign-on is not configured on this server' });
    return oidc;
  };

  app.get('/config', {
    config: { auth },
    schema: {
      tags,
      summary: 'Whether single sign-on is on, and the words of its button',
      description: 'The sign-in screen asks before drawing the SSO button; needs no key or session.',
      response: { 200: z.object({ enabled: z.boolean(), label: z.string() }) },
    },
    handler: async () => ({ enabled: oidc !== null, label: config.OIDC_BUTTON_LABEL }),
  });

  app.get('', {
    config: { auth },
    schema: {
      tags,
      summary: 'Start signing in with single sign-on: a redirect to the OpenID provider',
      description:
        'For a browser: sets a short-lived cookie for this attempt and redirects to the provider (PKCE S256, state, nonce). A provider that does not answer sends the browser back to the console with `error=sso_provider_unreachable`. 404 when SSO is not configured.',
      response: redirectResponse,
    },
    handler: async (_request, reply) => {
      const client = enabled();
      let started: { attemptId: string; url: string };
      try {
        started = await client.begin();
      } catch (err) {
        return failed(reply, err);
      }
      return reply
        .header('set-cookie', attemptCookie(started.attemptId, ATTEMPT_TTL_SECONDS))
        .header('cache-control', 'no-store')
        .redirect(started.url, 302);
    },
  });

  app.get('/callback', {
    config: { auth },
    schema: {
      tags,
      summary: 'Where the OpenID provider sends the browser back: signs it in',
      description:
        'Checks the attempt (its cookie, state, nonce, PKCE) and the ID token, then the person (a verified email of an allowed domain; a known person, an invitation or the account for new SSO users) and sets the session cookie as `POST /sessions` does. Redirects to the console: `/`, or `/#/signin?error=<code>` with one of ' +
        Object.values(FAILURE_CODES)
          .concat(['sso_email_unverified', 'sso_email_unusable', 'sso_domain_not_allowed', 'sso_no_account', 'sso_identity_mismatch'])
          .map((c) => `\`${c}\``)
          .join(', ') +
        '.',
      response: redirectResponse,
    },
    handler: async (request, reply) => {
      const client = enabled();
      // The attempt is taken whatever happens next: its cookie goes too.
      reply.header('set-cookie', attemptCookie('', 0));
      try {
        const identity = await client.finish(readCookie(request, ATTEMPT_COOKIE), queryOf(request));
        const { userId, accountId } = await signInWithSso(db, policy, identity);
        const session = await startSession(
          db,
          { userId, accountId, ip: truncatedAddress(request.ip), userAgent: request.headers['user-agent'] ?? null },
          { idleMs: config.SESSION_IDLE_MS, maxAgeMs: config.SESSION_MAX_AGE_MS },
        );
        setSessionCookie(reply, config.PUBLIC_API_URL, session.token, session.expiresAt);
        return backToConsole(reply, null);
      } catch (err) {
        return failed(reply, err);
      }
    },
  });

  function failed(reply: FastifyReply, err: unknown) {
    if (err instanceof SsoRefused) {
      logger.info({ code: err.code }, `single sign-on refused: ${err.message}`);
      return backToConsole(reply, err.code);
    }
    if (err instanceof OidcError) {
      logger.warn({ failure: err.failure, err: err.cause }, `single sign-on failed: ${err.message}`);
      return backToConsole(reply, FAILURE_CODES[err.failure]);
    }
    throw err;
  }
};

/** The callback's query string as it came, without the leading `?`. */
function queryOf(request: FastifyRequest): string {
  const at = request.url.indexOf('?');
  return at < 0 ? '' : request.url.slice(at + 1);
}

export default routes;
