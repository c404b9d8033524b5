/**
 * `POST /me/password`: a signed-in person changes their password. Their other sessions end at once
 * and a mail tells them (someone who took over a session and changed it is then found out).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { changePassword } from '#domain/people/change-password.js';
import { passwordChangedMail } from '#domain/people/mails.js';
import { findUserById } from '#domain/people/users.js';
import { UnauthorizedError } from '#domain/errors.js';
import { sessionOf, signInLimit } from '../../sign-in.js';

const body = z.strictObject({
  currentPassword: z.string().min(1).max(200),
  newPassword: z.string().max(1000).meta({ description: '10 to 200 characters, not one of the most common passwords' }),
});

const routes: FastifyPluginAsyncZod = async (app) => {
  const { db, config, mailer, logger } = app.ctx;
  const announcer = { redis: app.ctx.redis, namespace: config.REDIS_NAMESPACE, logger };
  const limit = signInLimit(app);

  app.post('', {
    config: { auth: { scope: 'any' }, audit: { none: "a person's own password, not the account's data" } },
    schema: {
      tags: ['account'],
      summary: 'Change your password; your other sessions end, and a mail says so',
      description:
        'Sessions only (an API key: 403). A wrong current password is a 403 `password_incorrect`, counted with the failed sign-ins of your address (429 past the limit); a new password that breaks the rules a 400 `password_too_weak` at `newPassword`.',
      body,
      response: { 200: z.object({ message: z.string(), otherSessionsEnded: z.number().int() }) },
    },
    handler: async (request) => {
      const me = sessionOf(request, 'a password');
      const user = await findUserById(db, me.userId);
      if (!user) throw new UnauthorizedError();
      const { currentPassword, newPassword } = request.body;
      const ended = await limit.guard(
        user.email,
        request.ip,
        () => changePassword(db, announcer, { user, sessionId: me.id, currentPassword, newPassword }),
        ['password_incorrect'],
      );
      // The mailer logs a server's refusal itself; an address it cannot mail is logged here. Either way the change stands.
      await mailer
        .send({ to: user.email, ...passwordChangedMail() })
        .catch((err: unknown) => logger.warn({ err, userId: user.id }, 'the password-changed mail was not sent'));
      return { message: 'Password changed', otherSessionsEnded: ended };
    },
  });
};

export default routes;
