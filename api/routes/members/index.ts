/**
 * The people of an account (decision 0408): anyone in it may see who is in it; admins change roles
 * and remove people; anyone may leave (DELETE their own membership).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ForbiddenError } from '#domain/errors.js';
import { hasScope } from '#domain/accounts/scopes.js';
import { changeMember, listMembers, removeMember } from '#domain/people/members.js';
import { changeMemberBody, memberResponse } from './schemas.js';
import { roleAtLeast } from '#domain/people/roles.js';
import { errorResponses, messageResponse, resourceParams } from '../../schemas.js';

const userParams = resourceParams('userId', 'Member');
const tags = ['people'];

const routes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.ctx;
  const announcer = { redis: app.ctx.redis, namespace: config.REDIS_NAMESPACE, logger: app.ctx.logger };
  const actorOf = (request: FastifyRequest) => ({ userId: request.principal.userId, role: request.principal.role });

  app.get('', {
    // Not a client's: it would name the agency's people and its other clients (docs/decisions/0412).
    config: { auth: { scope: 'any', role: 'viewer' } },
    schema: {
      tags,
      summary: 'Who is in this account, with their roles, oldest member first',
      response: { 200: z.object({ data: z.array(memberResponse) }) },
    },
    handler: async (request) => ({
      data: (await listMembers(db, request.principal.accountId)).map((m) => ({
        userId: m.userId,
        email: m.email,
        name: m.name,
        role: m.role,
        clientAccess: m.clientAccess,
        folderIds: m.folderIds,
        joinedAt: m.joinedAt.toISOString(),
        twoFactor: m.totpEnabledAt !== null,
        lastSeenAt: m.lastSeenAt ? new Date(m.lastSeenAt).toISOString() : null,
      })),
    }),
  });

  app.patch('/:userId', {
    config: { auth: { scope: 'all', role: 'admin' }, audit: { entity: 'member', action: 'update', id: { param: 'userId' } } },
    schema: {
      tags,
      summary: "Change a member's role, or a client's access and folders",
      description:
        'Nobody changes their own role (403 `own_role_unchangeable`); only an owner makes or unmakes an owner (403 `role_required`); the last owner stays one (409 `last_owner`). Folders must be this account’s (404 `folder_not_found`). The change counts at the person’s next request, sessions and keys alike.',
      params: userParams,
      body: changeMemberBody,
      response: { 200: messageResponse, ...errorResponses(401, 403, 404, 409, 429) },
    },
    handler: async (request) => {
      await changeMember(db, announcer, actorOf(request), request.principal.accountId, request.params.userId, request.body);
      return { message: 'Member changed' };
    },
  });

  app.delete('/:userId', {
    config: { auth: { scope: 'any' }, audit: { entity: 'member', action: 'remove', id: { param: 'userId' } } },
    schema: {
      tags,
      summary: 'Remove a member (an admin), or leave the account (your own user id)',
      description:
        'Their sessions in this account end at once and the keys they made here stop working. An owner is removed only by an owner; the last owner cannot leave or be removed (409 `last_owner`).',
      params: userParams,
      response: { 200: messageResponse, ...errorResponses(401, 403, 404, 409, 429) },
    },
    handler: async (request) => {
      const { principal } = request;
      const leaving = request.params.userId === principal.userId;
      // Removing someone else is an admin's, with the `all` scope (a key cut down to less cannot);
      // a key makes its maker leave only with `all` too.
      if (!leaving && !roleAtLeast(principal.role, 'admin')) {
        throw new ForbiddenError('role_required', `This needs the admin role or higher; yours here is ${principal.role}`);
      }
      if ((!leaving || principal.keyId) && !hasScope(principal.scopes, 'all')) throw new ForbiddenError();
      await removeMember(db, announcer, actorOf(request), principal.accountId, request.params.userId);
      return { message: leaving ? 'You left the account' : 'Member removed' };
    },
  });
};

export default routes;
