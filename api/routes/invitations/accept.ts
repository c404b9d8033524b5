/** The invited person's side: what the link is for, and accepting it (public: they have no session yet). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { acceptInvitation, liveInvitation, lookupInvitation } from '#domain/people/invitations.js';
import { twoFactorKey } from '#domain/people/two-factor.js';
import { announceMemberChange } from '#domain/people/users.js';
import { serverSecret } from '#platform/config/secrets.js';
import { signedInResponse, signInAs, signInLimit } from '../../sign-in.js';
import { errorResponses } from '../../schemas.js';
import { acceptInvitationBody, invitationPreview, tokenBody } from './schemas.js';

const tags = ['people'];
const PUBLIC = { scope: 'public' } as const;
const SIGNS_IN = { scope: 'public', signsIn: true } as const;

const routes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.ctx;
  const announcer = { redis: app.ctx.redis, namespace: config.REDIS_NAMESPACE, logger: app.ctx.logger };
  // An existing person's password is proved here too: its failures count like sign-in's, per address.
  const limit = signInLimit(app);
  const totpKey = twoFactorKey(await serverSecret(config));

  app.post('/lookup', {
    config: { auth: PUBLIC, audit: { none: 'only reads what an invitation is for' } },
    schema: {
      tags,
      summary: 'What an invitation link is for: the address, the account, the role and who invited',
      description: 'An unknown, used or withdrawn link is a 404 `invitation_not_found`; an expired one a 409 `invitation_expired`.',
      body: tokenBody,
      response: { 200: invitationPreview, ...errorResponses(404, 409, 429) },
    },
    handler: async (request) => lookupInvitation(db, request.body.token),
  });

  app.post('/accept', {
    config: { auth: SIGNS_IN, audit: { none: 'the person joining has no principal yet; the invitation keeps when it was accepted' } },
    schema: {
      tags,
      summary: 'Accept an invitation: join the account and sign in (sets the session cookie)',
      description:
        "Makes the person with the invitation's address with this password, or, when someone already signs in with that address, the password must be theirs (401 `invalid_credentials`), and with two-factor on `totp` too, as for signing in (401 `totp_required` / `totp_invalid`). Failures count against the address like sign-in's (429). A link works once: used, withdrawn or unknown is a 404 `invitation_not_found`, expired a 409 `invitation_expired`. A request another site made is refused (403 `csrf_rejected`).",
      body: acceptInvitationBody,
      response: { 200: signedInResponse, ...errorResponses(401, 403, 404, 409, 429) },
    },
    handler: async (request, reply) => {
      // Failures count against the invited address, as at sign-in: a fresh invitation of the
      // same address is no fresh set of guesses at its password.
      const seen = await liveInvitation(db, request.body.token);
      const { user, accountId } = await limit.guard(seen.email, request.ip, () => acceptInvitation(db, seen, request.body, totpKey), [
        'invalid_credentials',
        'totp_invalid',
      ]);
      await announceMemberChange(db, announcer, accountId, [user.id]);
      return signInAs(app.ctx, request, reply, user, accountId);
    },
  });
};

export default routes;
