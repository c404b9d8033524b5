/**
 * /audit-events: the account's audit log (docs/decisions/0405): who changed what, newest first, a
 * page at a time, and its CSV export as a job, like the analytics exports. Read by the account's
 * owners and admins only.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listAuditEvents } from '#domain/audit/events.js';
import type { AuditExportPayload } from '#domain/audit/export.js';
import { assertJobFilesFit, openJobFile } from '#domain/jobs/files.js';
import { acceptedJobResponse, answerJob, preferHeaders, sendJobFile } from '../../job-reply.js';
import { errorResponses } from '../../schemas.js';
import type { AuthRequirement } from '../../types.js';
import { auditExportBodySchema, auditFiltersOf, auditPageResponse, auditQuerySchema } from './schemas.js';
import { auditPageView } from './view.js';

const tags = ['audit'];
// The whole account's log: an admin or owner, with a session or a key worth `all` (like key
// management): a narrow key of an admin does not open what every member did.
const auth: AuthRequirement = { scope: 'all', role: 'admin' };

const csvResponse = {
  description:
    'The CSV (RFC 4180, UTF-8), a record per changed field: at, actor, actor_user_id, actor_key_id, entity, entity_id, action, field, before, after, ip, request_id',
  content: { 'text/csv': { schema: z.string() } },
};

const routes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  app.get('', {
    config: { auth },
    schema: {
      tags,
      summary: "The account's audit log, newest first: who changed what through the api, and when",
      description: 'Filters combine; `nextCursor` pages on. Events are kept for AUDIT_RETENTION_DAYS.',
      querystring: auditQuerySchema,
      response: { 200: auditPageResponse, ...errorResponses(401, 403, 429) },
    },
    handler: async (request) => {
      const { cursor, limit, ...filters } = request.query;
      return auditPageView(
        await listAuditEvents(ctx.db, request.principal.accountId, auditFiltersOf(filters), {
          limit,
          ...(cursor !== undefined && { cursor }),
        }),
      );
    },
  });

  app.post('/export', {
    config: { auth, audit: { none: 'an export reads the log and changes nothing of the account' } },
    schema: {
      tags,
      summary: "The account's audit log as CSV, with the filters of GET /audit-events",
      description:
        'Waits for the export up to JOB_WAIT_MS and answers the file; past that, or with `Prefer: respond-async`, ' +
        'answers 202 with the job to poll (GET /jobs/{jobId}) whose result has the downloadUrl. ' +
        'Cells a spreadsheet would run as formulas are neutralised, control characters are spaces. ' +
        'The body may be left out: every filter is optional.',
      headers: preferHeaders,
      // No body (Fastify passes null) is the empty one: every filter is optional.
      body: z.preprocess((body) => body ?? {}, auditExportBodySchema),
      response: { 200: csvResponse, 202: acceptedJobResponse, ...errorResponses(401, 403, 413, 429, 503) },
    },
    handler: async (request, reply) => {
      const { accountId } = request.principal;
      await assertJobFilesFit(ctx.db, accountId);
      const f = request.body;
      const payload: AuditExportPayload = {
        ...(f.actor !== undefined && { actor: f.actor }),
        ...(f.entity !== undefined && { entity: f.entity }),
        ...(f.entityId !== undefined && { entityId: f.entityId }),
        ...(f.linkId !== undefined && { linkId: f.linkId }),
        ...(f.from !== undefined && { from: Date.parse(f.from) }),
        ...(f.to !== undefined && { to: Date.parse(f.to) }),
        fileName: `audit-${new Date().toISOString().slice(0, 10)}.csv`,
      };
      return answerJob(request, reply, { queue: 'audit-export', payload }, async (job) =>
        sendJobFile(reply, await openJobFile(ctx.db, ctx.storage, request.principal, job.id)),
      );
    },
  });
};

export default routes;
