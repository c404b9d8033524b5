import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { storageUsage } from '#domain/files/quota.js';

const usageResponse = z.object({
  storage: z.object({
    usedBytes: z.number().int().nonnegative().meta({
      description: 'Bytes of stored files, each content counted once (a file uploaded twice, or shared by a duplicated link, counts once)',
    }),
    quotaBytes: z.number().int().positive().meta({ description: "The plan's storage quota; an upload of new content past it is a 413" }),
    files: z.number().int().nonnegative().meta({ description: 'Files of the account (file ids), attached to a link or not yet swept' }),
  }),
});

const routes: FastifyPluginAsyncZod = async (app) => {
  app.get('', {
    // The account's numbers, not a client's to see (docs/decisions/0412).
    config: { auth: { scope: 'any', role: 'viewer' } },
    schema: {
      tags: ['usage'],
      summary: "The account's use of its plan's limits: stored file bytes against the storage quota",
      response: { 200: usageResponse },
    },
    handler: async (request) => ({ storage: await storageUsage(app.ctx.db, request.principal.accountId) }),
  });
};

export default routes;
