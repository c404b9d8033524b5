/**
 * "Forgot my password" (docs/decisions/0411): ask for a link by mail, then set a new password
 * with it and be signed in. Both public, both refused when another site sends them.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { TooManyRequestsError } from '#domain/errors.js';
import { emailKey } from '#domain/people/emails.js';
import { passwordResetMail } from '#domain/people/mails.js';
import { checkPasswordRules } from '#domain/people/passwords.js';
import { completePasswordReset, passwordResetOf, startPasswordReset } from '#domain/people/reset-password.js';
import { checkSecondFactor, twoFactorKey } from '#domain/people/two-factor.js';
import { serverSecret } from '#platform/config/secrets.js';
import { rateLimitIdentity } from '#platform/net/client-identity.js';
import { AttemptLimit } from '#platform/redis/attempt-limit.js';
import { errorResponses, messageResponse } from '../../schemas.js';
import { signedInResponse, signInAs, signInLimit } from '../../sign-in.js';

const tags = ['sessions'];
const ASKED = 'If someone here uses this address, a link to choose a new password is on its way to it; it works once, for 30 minutes.';

const routes: FastifyPluginAsyncZod = async (app) => {
  const { db, config, mailer, logger } = app.ctx;
  const announcer = { redis: app.ctx.redis, namespace: config.REDIS_NAMESPACE, logger };
  const key = twoFactorKey(await serverSecret(config));
  const signIn = signInLimit(app);
  const requests = new AttemptLimit(app.requestRedis, logger);
  const origin = new URL(config.PUBLIC_API_URL).origin;
  // Links being made and mailed after their answer left; waited for on close.
  const mailing = new Set<Promise<void>>();
  app.addHook('onClose', async () => {
    await Promise.allSettled([...mailing]);
  });

  const countersOf = (email: string, ip: string) => {
    let address: string;
    try {
      address = emailKey(email);
    } catch {
      address = email.toLowerCase();
    }
    const ns = `${config.REDIS_NAMESPACE}:password-resets`;
    const windowMs = config.PASSWORD_RESET_WINDOW_MS;
    return [
      { key: `${ns}:email:${rateLimitIdentity(address)}`, max: config.PASSWORD_RESET_EMAIL_LIMIT, windowMs },
      { key: `${ns}:client:${rateLimitIdentity(ip)}`, max: config.PASSWORD_RESET_CLIENT_LIMIT, windowMs },
    ];
  };

  const mailLink = async (email: string) => {
    const reset = await startPasswordReset(db, email);
    if (!reset) return;
    const link = `${origin}/#/reset-password?token=${reset.token}`;
    await mailer.send({ to: reset.user.email, ...passwordResetMail({ link, expiresAt: reset.expiresAt }) });
  };

  app.post('', {
    config: { auth: { scope: 'public', signsIn: true }, audit: { none: 'only sends a mail' } },
    schema: {
      tags,
      summary: 'Ask for a password reset link by mail',
      description:
        'Always the same 200, whether or not someone uses the address (the link is made and mailed after the answer, so its time says nothing either). Requests are limited per address (PASSWORD_RESET_EMAIL_LIMIT) and per client (PASSWORD_RESET_CLIENT_LIMIT) per PASSWORD_RESET_WINDOW_MS: 429 `password_reset_requests_exceeded`.',
      body: z.strictObject({ email: z.string().min(1).max(254) }),
      response: { 200: messageResponse },
    },
    handler: async (request) => {
      const { email } = request.body;
      const attempt = await requests.begin(countersOf(email, request.ip));
      if (!attempt.allowed) {
        throw new TooManyRequestsError(
          'password_reset_requests_exceeded',
          `Too many password resets asked for; try again in ${attempt.retryAfterSeconds} s`,
          attempt.retryAfterSeconds,
        );
      }
      const work = mailLink(email)
        .catch((err: unknown) => logger.error({ err }, 'a password reset link was not made or not mailed'))
        .finally(() => mailing.delete(work));
      mailing.add(work);
      return { message: ASKED };
    },
  });

  app.post('/complete', {
    config: { auth: { scope: 'public', signsIn: true }, audit: { none: "a person's own password; the reset link keeps when it was used" } },
    schema: {
      tags,
      summary: 'Set a new password with a reset link; ends every session of the person and signs in',
      description:
        'An unknown, used or expired link is a 404 `reset_link_invalid`; a password that breaks the rules a 400 `password_too_weak` (the link stays usable). With two-factor on, `totp` is needed as for signing in (401 `totp_required` / `totp_invalid`; the link stays usable).',
      body: z.strictObject({
        token: z.string().max(200),
        password: z.string().max(1000),
        totp: z.string().max(20).optional().meta({ description: 'With two-factor on: the authenticator code, or a recovery code' }),
      }),
      response: { 200: signedInResponse, ...errorResponses(401, 404, 429) },
    },
    handler: async (request, reply) => {
      const { token, password, totp } = request.body;
      checkPasswordRules(password);
      const { resetId, user } = await passwordResetOf(db, token);
      await signIn.guard(user.email, request.ip, () => checkSecondFactor(db, key, user, totp, new Date()), ['totp_invalid']);
      await completePasswordReset(db, announcer, { resetId, userId: user.id }, password);
      return signInAs(app.ctx, request, reply, user);
    },
  });
};

export default routes;
