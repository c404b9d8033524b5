/**
 * A person's sessions: sign in (`POST /sessions`, public), sign out (`DELETE /sessions/current`),
 * "where am I signed in" (`GET /sessions`), end one or all the others, and switch the account
 * the console works in (`PATCH /sessions/current`). Keys have no session: these routes refuse them.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NotFoundError } from '#domain/errors.js';
import { endOtherSessions, endSession, listSessions, switchSessionAccount } from '#domain/people/sessions.js';
import { checkPassword } from '#domain/people/sign-in.js';
import { checkSecondFactor, twoFactorKey } from '#domain/people/two-factor.js';
import { serverSecret } from '#platform/config/secrets.js';
import { isUuid } from '#platform/format/ids.js';
import { messageResponse, resourceParams } from '../../schemas.js';
import { clearSessionCookie } from '../../session-cookie.js';
import { sessionOf, signedInResponse, signInAs, signInLimit } from '../../sign-in.js';

const tags = ['sessions'];
const signInBody = z.object({
  email: z.string().min(3).max(254),
  password: z.string().min(1).max(200),
  totp: z
    .string()
    .max(20)
    .optional()
    .meta({ description: 'The six-digit code of an authenticator app, or a recovery code, when two-factor is on' }),
});
const sessionResponse = z.object({
  id: z.string(),
  current: z.boolean(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  expiresAt: z.string(),
  ip: z.string().nullable().meta({ description: 'The address it signed in from, truncated (IPv4 /24, IPv6 /48)' }),
  userAgent: z.string().nullable(),
});
const sessionOnly = { scope: 'any' } as const;

/** A person's own sign-ins: each session row keeps when, from where and its end (decision 0404). */
const SESSIONS_NOT_AUDITED = { none: "a person's own sessions, not the account's data; the sessions table keeps them" };

const routes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.ctx;
  const announcer = { redis: app.ctx.redis, namespace: config.REDIS_NAMESPACE, logger: app.ctx.logger };
  const limit = signInLimit(app);
  const totpKey = twoFactorKey(await serverSecret(config));

  app.post('', {
    config: { auth: { scope: 'public', signsIn: true }, audit: SESSIONS_NOT_AUDITED },
    schema: {
      tags,
      summary: 'Sign in with an email address and a password; sets the session cookie',
      description:
        'Failed attempts are limited per address and per client (429 with Retry-After until the window ends; never for longer). A request another site made is refused (403 `csrf_rejected`). With two-factor on, a right password without `totp` is a 401 `totp_required` (not a failure: the console asks for the code and sends both again); a wrong or reused code a 401 `totp_invalid`, counted like a wrong password.',
      body: signInBody,
      response: { 200: signedInResponse },
    },
    handler: async (request, reply) => {
      const { email, password, totp } = request.body;
      const user = await limit.guard(
        email,
        request.ip,
        async () => {
          const user = await checkPassword(db, email, password);
          await checkSecondFactor(db, totpKey, user, totp, new Date());
          return user;
        },
        ['invalid_credentials', 'totp_invalid'],
      );
      return signInAs(app.ctx, request, reply, user);
    },
  });

  app.get('', {
    config: { auth: sessionOnly },
    schema: {
      tags,
      summary: "The signed-in person's live sessions, newest first",
      response: { 200: z.object({ data: z.array(sessionResponse) }) },
    },
    handler: async (request) => {
      const me = sessionOf(request);
      const rows = await listSessions(db, me.userId);
      return {
        data: rows.map((r) => ({
          id: r.id,
          current: r.id === me.id,
          createdAt: r.createdAt.toISOString(),
          lastSeenAt: r.lastSeenAt.toISOString(),
          expiresAt: r.expiresAt.toISOString(),
          ip: r.ip,
          userAgent: r.userAgent,
        })),
      };
    },
  });

  app.delete('/current', {
    config: { auth: sessionOnly, audit: SESSIONS_NOT_AUDITED },
    schema: { tags, summary: 'Sign out: ends this session at once and clears the cookie', response: { 200: messageResponse } },
    handler: async (request, reply) => {
      const me = sessionOf(request);
      await endSession(db, announcer, me.userId, me.id);
      clearSessionCookie(reply, config.PUBLIC_API_URL);
      return { message: 'Signed out' };
    },
  });

  app.patch('/current', {
    config: { auth: sessionOnly, audit: SESSIONS_NOT_AUDITED },
    schema: {
      tags,
      summary: 'Switch the account this session works in (one the person belongs to)',
      body: z.object({ accountId: z.string().max(64) }),
      response: { 200: messageResponse },
    },
    handler: async (request) => {
      const me = sessionOf(request);
      const { accountId } = request.body;
      if (!isUuid(accountId) || !(await switchSessionAccount(db, announcer, me, accountId))) throw new NotFoundError('Account');
      return { message: 'Account switched' };
    },
  });

  app.delete('', {
    config: { auth: sessionOnly, audit: SESSIONS_NOT_AUDITED },
    schema: { tags, summary: 'Sign out everywhere else: ends every other session of this person', response: { 200: messageResponse } },
    handler: async (request) => {
      const me = sessionOf(request);
      const n = await endOtherSessions(db, announcer, me.userId, me.id);
      return { message: `${n} other session${n === 1 ? '' : 's'} ended` };
    },
  });

  app.delete('/:id', {
    config: { auth: sessionOnly, audit: SESSIONS_NOT_AUDITED },
    schema: {
      tags,
      summary: 'End one of this person’s sessions',
      params: resourceParams('id', 'Session'),
      response: { 200: messageResponse },
    },
    handler: async (request) => {
      const me = sessionOf(request);
      const { id } = request.params;
      if (!isUuid(id) || !(await endSession(db, announcer, me.userId, id))) throw new NotFoundError('Session');
      return { message: 'Session ended' };
    },
  });
};

export default routes;
