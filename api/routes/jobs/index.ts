import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { JOB_STATES } from '../../../db/schema.js';
import { getJobView } from '../../../shared/jobs/records.js';
import { resourceParams } from '../../schemas.js';

const routes: FastifyPluginAsyncZod = async (app) => {
  app.get('/:jobId', {
    config: { auth: { scope: 'any' } },
    schema: {
      tags: ['jobs'],
      summary: "A background job's state, progress and result (bulk generation, cafe bulk insert, exports)",
      params: resourceParams('jobId', 'Job'),
      response: {
        200: z.object({
          id: z.string(),
          type: z.string(),
          state: z.enum(JOB_STATES),
          progress: z.number().int().min(0).max(100),
          result: z.unknown().optional(),
          error: z.string().optional(),
        }),
      },
    },
    handler: async (request) => getJobView(app.ctx.db, request.principal.accountId, request.params.jobId),
  });
};

export default routes;
