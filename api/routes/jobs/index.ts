import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { JOB_STATES } from '../../../db/schema.js';
import { getJobView } from '../../../shared/jobs/records.js';
import { openJobFile } from '../../../shared/jobs/files.js';
import { errorResponses, resourceParams } from '../../schemas.js';
import { sendJobFile } from '../../job-reply.js';

const RETENTION =
  'A finished job is kept, with its file, for JOB_RETENTION_MS (default 7 days) after it finished; then both are deleted and this answers 404.';

const routes: FastifyPluginAsyncZod = async (app) => {
  app.get('/:jobId', {
    config: { auth: { scope: 'any' } },
    schema: {
      tags: ['jobs'],
      summary: "A background job's state, progress and result (bulk generation, cafe bulk insert, exports)",
      description: RETENTION,
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

  app.get('/:jobId/download', {
    config: { auth: { scope: 'any' } },
    schema: {
      tags: ['jobs'],
      summary: "A completed job's file (an analytics export's CSV), as its result's downloadUrl names it",
      description: RETENTION,
      params: resourceParams('jobId', 'Job'),
      response: {
        200: {
          description: 'The file, as an attachment; Content-Type as stored (text/csv; charset=utf-8 for exports)',
          content: { 'application/octet-stream': { schema: z.string().meta({ format: 'binary' }) } },
        },
        ...errorResponses(401, 404, 409, 429),
      },
    },
    handler: async (request, reply) =>
      sendJobFile(reply, await openJobFile(app.ctx.db, app.ctx.storage, request.principal.accountId, request.params.jobId)),
  });
};

export default routes;
