import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createApiKey, listApiKeys, revokeApiKey } from '#domain/accounts/api-keys.js';
import { NotFoundError } from '#domain/errors.js';
import { isUuid } from '#platform/format/ids.js';
import { messageResponse, resourceParams } from '../../schemas.js';
import { apiKeyResponse, createApiKeyBody } from './schemas.js';
import { apiKeyView } from './view.js';

const idParams = resourceParams('id', 'API key');
const tags = ['api-keys'];
// Key management needs the `all` scope, an admin or owner (a key: made by one), and a plan that
// includes it (not starter, not enterprise). A key is worth no more than its maker's role.
const auth = { scope: 'all', plan: 'api-key-management', role: 'admin' } as const;

const routes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;
  const announcer = { redis: app.ctx.redis, namespace: app.ctx.config.REDIS_NAMESPACE, logger: app.ctx.logger };

  app.get('', {
    config: { auth },
    schema: {
      tags,
      summary: "List the account's API keys (never the keys themselves)",
      response: { 200: z.object({ data: z.array(apiKeyResponse) }) },
    },
    handler: async (request) => ({ data: (await listApiKeys(db, request.principal.accountId)).map(apiKeyView) }),
  });

  app.post('', {
    config: { auth, audit: { entity: 'api_key', action: 'create', id: 'response' } },
    schema: {
      tags,
      summary: 'Create an API key; the key is shown only in this answer',
      description: `An account holds at most API_KEYS_MAX_PER_ACCOUNT active keys (${app.ctx.config.API_KEYS_MAX_PER_ACCOUNT} here); one more is a 409.`,
      body: createApiKeyBody,
      response: { 200: z.object({ id: z.string(), key: z.string() }) },
    },
    handler: async (request) =>
      createApiKey(
        db,
        {
          accountId: request.principal.accountId,
          createdByUserId: request.principal.userId,
          name: request.body.name,
          scopes: request.body.scopes,
          expiresAt: request.body.expiresAt ? new Date(request.body.expiresAt) : null,
        },
        app.ctx.config.API_KEYS_MAX_PER_ACCOUNT,
      ),
  });

  app.delete('/:id', {
    config: { auth, audit: { entity: 'api_key', action: 'revoke' } },
    schema: { tags, summary: 'Revoke an API key', params: idParams, response: { 200: messageResponse } },
    handler: async (request) => {
      const { id } = request.params;
      if (!isUuid(id) || !(await revokeApiKey(db, announcer, id, request.principal.accountId))) throw new NotFoundError('API key');
      return { message: 'API key revoked' };
    },
  });
};

export default routes;
