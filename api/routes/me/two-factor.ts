/**
 * Two-factor sign-in of the signed-in person (docs/decisions/0410): start (a secret for the
 * authenticator app), confirm with the app's code (on, with ten recovery codes shown once), turn
 * off and replace the recovery codes (both with the password). Sessions only: a key is a 403.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findUserById } from '#domain/people/users.js';
import { proveOwnPassword } from '#domain/people/password-proof.js';
import { confirmTwoFactor, replaceRecoveryCodes, startTwoFactor, turnOffTwoFactor, twoFactorKey } from '#domain/people/two-factor.js';
import { UnauthorizedError } from '#domain/errors.js';
import { serverSecret } from '#platform/config/secrets.js';
import { errorResponses, messageResponse } from '../../schemas.js';
import { sessionOf, signInLimit } from '../../sign-in.js';

const tags = ['account'];
const ISSUER = 'qrlinks';
const passwordBody = z.strictObject({ password: z.string().min(1).max(200) });
const recoveryCodes = z.object({
  recoveryCodes: z.array(z.string()).meta({
    description: 'Ten one-time codes (`abcd-efgh-ijkl`) for signing in without the phone; shown this once, stored only as hashes',
  }),
});
const WHAT = 'two-factor sign-in';

const OWN_SECURITY = { none: "a person's own two-factor sign-in, not the account's data" };

const routes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.ctx;
  const key = twoFactorKey(await serverSecret(config));
  const limit = signInLimit(app);

  /** The person, after their password is proven (wrong: 403, counted with their failed sign-ins). */
  const provenPerson = async (userId: string, password: string, ip: string) => {
    const user = await findUserById(db, userId);
    if (!user) throw new UnauthorizedError();
    await limit.guard(user.email, ip, () => proveOwnPassword(user, password), ['password_incorrect']);
    return user;
  };

  app.post('', {
    config: { auth: { scope: 'any' }, audit: OWN_SECURITY },
    schema: {
      tags,
      summary: 'Start turning two-factor sign-in on: a secret for an authenticator app (pending until confirmed)',
      description:
        'Show `otpauthUri` as a QR code (or `secret` to type in), then confirm with a code from the app. Starting again replaces a pending secret; once on, the secret is never shown again (409 `two_factor_on`).',
      response: {
        200: z.object({
          secret: z.string().meta({ description: 'Base32, for typing into the app' }),
          otpauthUri: z.string().meta({ description: 'otpauth://totp/… for a QR code' }),
        }),
        ...errorResponses(401, 409, 429),
      },
    },
    handler: async (request) => {
      const me = sessionOf(request, WHAT);
      return startTwoFactor(db, key, me.userId, ISSUER);
    },
  });

  app.post('/confirm', {
    config: { auth: { scope: 'any' }, audit: OWN_SECURITY },
    schema: {
      tags,
      summary: 'Turn two-factor sign-in on with the code the app shows; answers the recovery codes, once',
      description: 'A wrong code is a 400 at `code`; nothing started a 409 `two_factor_not_started`.',
      body: z.strictObject({ code: z.string().max(20).meta({ description: 'The six digits the app shows now' }) }),
      response: { 200: recoveryCodes, ...errorResponses(401, 409, 429) },
    },
    handler: async (request) => {
      const me = sessionOf(request, WHAT);
      return { recoveryCodes: await confirmTwoFactor(db, key, me.userId, request.body.code, new Date()) };
    },
  });

  app.delete('', {
    config: { auth: { scope: 'any' }, audit: OWN_SECURITY },
    schema: {
      tags,
      summary: 'Turn two-factor sign-in off (with your password)',
      description: 'A wrong password is a 403 `password_incorrect`, counted with the failed sign-ins of your address.',
      body: passwordBody,
      response: { 200: messageResponse },
    },
    handler: async (request) => {
      const me = sessionOf(request, WHAT);
      await provenPerson(me.userId, request.body.password, request.ip);
      await turnOffTwoFactor(db, me.userId);
      return { message: 'Two-factor sign-in is off' };
    },
  });

  app.post('/recovery-codes', {
    config: { auth: { scope: 'any' }, audit: OWN_SECURITY },
    schema: {
      tags,
      summary: 'Ten new recovery codes in place of the old ones (with your password)',
      description: 'A wrong password is a 403 `password_incorrect`; two-factor off a 409 `two_factor_off`.',
      body: passwordBody,
      response: { 200: recoveryCodes, ...errorResponses(401, 409, 429) },
    },
    handler: async (request) => {
      const me = sessionOf(request, WHAT);
      await provenPerson(me.userId, request.body.password, request.ip);
      return { recoveryCodes: await replaceRecoveryCodes(db, me.userId) };
    },
  });
};

export default routes;
