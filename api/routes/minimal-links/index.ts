import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listMinimalLinks } from '#domain/links/links.js';
import { minimalLinksQuerySchema } from '../links/schemas.js';
import { pageMeta } from '../../schemas.js';

const routes: FastifyPluginAsyncZod = async (app) => {
  app.get('', {
    config: { auth: { scope: 'links.read' } },
    schema: {
      tags: ['links'],
      summary: 'List links as {name, dynamic_link_id} only (same filters as GET /links, without menu)',
      querystring: minimalLinksQuerySchema,
      response: { 200: z.object({ data: z.array(z.object({ name: z.string(), dynamic_link_id: z.string() })), meta: pageMeta }) },
    },
    handler: async (request) => {
      const page = await listMinimalLinks(app.ctx, request.principal, request.query);
      return { data: page.data.map((l) => ({ name: l.name, dynamic_link_id: l.slug })), meta: page.meta };
    },
  });
};

export default routes;
