import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { JOB_STATES } from '#domain/schema.js';
import { getJobView, listJobViews } from '#domain/jobs/records.js';
import { openJobFile } from '#domain/jobs/files.js';
import { errorResponses, pageMeta, pageQuery, resourceParams } from '../../schemas.js';
import { sendJobFile } from '../../job-reply.js';

const RETENTION =
  'A finished job is kept, with its file, for JOB_RETENTION_MS (default 7 days) after it finished; then both are deleted and this answers 404.';

const jobResponse = z.object({
  id: z.string(),
  type: z.string().meta({ description: 'analytics-export, audit-export, bulk-generate, cafe-bulk-insert, qr-render or print-sheets' }),
  state: z.enum(JOB_STATES),
  progress: z.number().int().min(0).max(100),
  result: z.unknown().optional().meta({
    description:
      'Once completed: what the job made; a file it left is named by `downloadUrl` (exports, QR ZIPs) or `qrZipUrl` (bulk generation)',
  }),
  error: z.string().optional().meta({ description: 'Once failed: why, in one line' }),
});

const routes: FastifyPluginAsyncZod = async (app) => {
  app.get('', {
    config: { auth: { scope: 'any' } },
    schema: {
      tags: ['jobs'],
      summary: "The account's recent jobs, newest first, a page at a time",
      description: `Every kind of job the account started, with the same fields as GET /jobs/{jobId} plus when it was created and last changed. ${RETENTION}`,
      querystring: z.strictObject(pageQuery),
      response: {
        200: z.object({
          data: z.array(
            jobResponse.extend({
              createdAt: z.string().meta({ description: 'ISO 8601' }),
              updatedAt: z.string().meta({ description: 'ISO 8601' }),
            }),
          ),
          meta: pageMeta,
        }),
      },
    },
    handler: async (request) => {
      const page = await listJobViews(app.ctx.db, request.principal, request.query.page, request.query.size);
      return {
        data: page.data.map((job) => ({ ...job, createdAt: job.createdAt.toISOString(), updatedAt: job.updatedAt.toISOString() })),
        meta: page.meta,
      };
    },
  });

  app.get('/:jobId', {
    config: { auth: { scope: 'any' } },
    schema: {
      tags: ['jobs'],
      summary: "A background job's state, progress and result (bulk generation, cafe bulk insert, exports)",
      description: RETENTION,
      params: resourceParams('jobId', 'Job'),
      response: { 200: jobResponse },
    },
    handler: async (request) => getJobView(app.ctx.db, request.principal, request.params.jobId),
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
      sendJobFile(reply, await openJobFile(app.ctx.db, app.ctx.storage, request.principal, request.params.jobId)),
  });
};

export default routes;
