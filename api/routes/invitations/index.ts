/**
 * Invitations (decision 0408): an admin invites an address with a role and gets a one-time link,
 * also mailed; the invited person looks it up and accepts it (public, see accept.ts).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  createInvitation,
  invitationStatus,
  listInvitations,
  mailInvitation,
  renewInvitation,
  revokeInvitation,
  type InvitationRow,
} from '#domain/people/invitations.js';
import { consoleLink } from '#domain/people/tokens.js';
import { errorResponses, messageResponse, resourceParams } from '../../schemas.js';
import { invitationCreated, invitationResponse, inviteBody } from './schemas.js';
import acceptRoutes from './accept.js';

const idParams = resourceParams('id', 'Invitation');
const tags = ['people'];
const admin = { scope: 'all', role: 'admin' } as const;

const routes: FastifyPluginAsyncZod = async (app) => {
  const { db, config, mailer } = app.ctx;
  const actorOf = (request: FastifyRequest) => ({ userId: request.principal.userId, role: request.principal.role });

  /** The answer to an invitation just made or renewed: its link, mailed if the mail server takes it. */
  const sent = async (invitation: InvitationRow, token: string) => {
    const link = consoleLink(config.PUBLIC_API_URL, 'join', token);
    const mailed = await mailInvitation(db, mailer, invitation, link);
    return {
      id: invitation.id,
      email: invitation.email,
      role: invitation.role,
      clientAccess: invitation.clientAccess,
      folderIds: invitation.folderIds,
      expiresAt: invitation.expiresAt.toISOString(),
      link,
      mailed,
    };
  };

  app.post('', {
    config: { auth: admin, audit: { entity: 'invitation', action: 'create', id: 'response' } },
    schema: {
      tags,
      summary: 'Invite someone to this account with a role; mails them a link valid for 7 days',
      description:
        'Only an owner invites an owner, and nobody invites above their own role (403 `role_required`). A pending invitation of the same address is replaced. With REGISTRATION=closed only people who already sign in here can be invited (403 `registration_closed`).',
      body: inviteBody,
      response: { 200: invitationCreated, ...errorResponses(401, 403, 404, 409, 429) },
    },
    handler: async (request) => {
      const { invitation, token } = await createInvitation(
        db,
        actorOf(request),
        request.principal.accountId,
        request.body,
        config.REGISTRATION,
      );
      return sent(invitation, token);
    },
  });

  app.get('', {
    config: { auth: admin },
    schema: {
      tags,
      summary: "The account's invitations, newest first (the latest 1000)",
      response: { 200: z.object({ data: z.array(invitationResponse) }) },
    },
    handler: async (request) => ({
      data: (await listInvitations(db, request.principal.accountId)).map(({ invitation: i, inviter }) => ({
        id: i.id,
        email: i.email,
        role: i.role,
        clientAccess: i.clientAccess,
        folderIds: i.folderIds,
        invitedBy: inviter,
        createdAt: i.createdAt.toISOString(),
        expiresAt: i.expiresAt.toISOString(),
        status: invitationStatus(i),
      })),
    }),
  });

  app.delete('/:id', {
    config: { auth: admin, audit: { entity: 'invitation', action: 'revoke' } },
    schema: { tags, summary: 'Withdraw an invitation: its link stops working', params: idParams, response: { 200: messageResponse } },
    handler: async (request) => {
      await revokeInvitation(db, request.principal.accountId, request.params.id);
      return { message: 'Invitation withdrawn' };
    },
  });

  app.post('/:id/resend', {
    config: { auth: admin, audit: { entity: 'invitation', action: 'resend' } },
    schema: {
      tags,
      summary: 'A new link for an invitation not yet accepted (7 more days), mailed again; the old link stops working',
      params: idParams,
      response: { 200: invitationCreated },
    },
    handler: async (request) => {
      const { invitation, token } = await renewInvitation(db, actorOf(request), request.principal.accountId, request.params.id);
      return sent(invitation, token);
    },
  });

  await app.register(acceptRoutes);
};

export default routes;
