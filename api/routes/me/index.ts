import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { accounts, apiKeys, PLANS } from '../../../domain/schema.js';
import { planAllows } from '../../../domain/accounts/plans.js';
import { UnauthorizedError } from '../../../domain/errors.js';

const meResponse = z.object({
  account: z.object({ id: z.string(), name: z.string(), plan: z.enum(PLANS) }),
  key: z.object({
    id: z.string(),
    name: z.string().nullable(),
    scopes: z.array(z.string()).meta({ description: 'What this key may do; `all` stands for every scope' }),
    expiresAt: z.string().nullable().meta({ description: 'ISO 8601; null when the key does not expire' }),
  }),
  plan: z.object({
    apiKeyManagement: z
      .boolean()
      .meta({ description: 'Whether keys can be listed, created and revoked over HTTP (/api-keys), given a key with the `all` scope' }),
  }),
  shortUrlBase: z.string().meta({ description: "Where short links live: a link's short URL is this, a slash and its slug" }),
});

const routes: FastifyPluginAsyncZod = async (app) => {
  app.get('', {
    config: { auth: { scope: 'any' } },
    schema: {
      tags: ['account'],
      summary: 'The calling key, its account and what the plan allows',
      description: 'Any valid key may ask; the console reads it after sign-in to show the account and offer only what the key can do.',
      response: { 200: meResponse },
    },
    handler: async (request) => {
      const { keyId, accountId } = request.principal;
      const [row] = await app.ctx.db
        .select({
          accountName: accounts.name,
          plan: accounts.plan,
          keyName: apiKeys.name,
          scopes: apiKeys.scopes,
          expiresAt: apiKeys.expiresAt,
        })
        .from(apiKeys)
        .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
        .where(eq(apiKeys.id, keyId));
      // The key was just authenticated; only an account deleted in between leaves nothing to answer.
      if (!row) throw new UnauthorizedError();
      return {
        account: { id: accountId, name: row.accountName, plan: row.plan },
        key: { id: keyId, name: row.keyName, scopes: row.scopes, expiresAt: row.expiresAt ? row.expiresAt.toISOString() : null },
        plan: { apiKeyManagement: planAllows(row.plan, 'api-key-management') },
        shortUrlBase: app.ctx.config.SHORT_URL_BASE.replace(/\/+$/, ''),
      };
    },
  });
};

export default routes;
