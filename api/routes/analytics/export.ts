/**
 * POST …/analytics/export: the scans of a window as CSV (domain/analytics/export.ts), made by an
 * analytics-export job. Answers the file itself when the job finishes within the wait, else 202
 * with the job's status URL (api/job-reply.ts); the file stays downloadable at
 * GET /jobs/:jobId/download. Open to any valid key, like the analytics GETs.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { exportFileName, exportWindow, type AnalyticsExportPayload } from '#domain/analytics/export.js';
import { FILTER_PARAMS, type AnalyticsFilters, type FilterParam } from '#domain/analytics/schemas.js';
import { assertJobFilesFit, openJobFile } from '#domain/jobs/files.js';
import { errorResponses } from '../../schemas.js';
import { acceptedJobResponse, answerJob, preferHeaders, sendJobFile } from '../../job-reply.js';
import { exportBodySchema } from './schemas.js';

export const csvResponse = {
  description:
    'The CSV (RFC 4180, UTF-8): header link_id, browser_name, device_type, device_vendor, os_name, created_at, country_name, region, city, and (an addition) domain',
  content: { 'text/csv': { schema: z.string() } },
};

/** The body's filters, or undefined without any (a job queued without them is as before). */
function filtersOf(body: AnalyticsFilters): AnalyticsFilters | undefined {
  const names = [...(Object.keys(FILTER_PARAMS) as FilterParam[]), 'domain'] as const;
  const filters = Object.fromEntries(names.flatMap((name) => (body[name] !== undefined ? [[name, body[name]]] : [])));
  return Object.keys(filters).length > 0 ? filters : undefined;
}

export function analyticsExportRoute(perLink: boolean, params: { params?: z.ZodType }): FastifyPluginAsyncZod {
  return async (app) => {
    const { ctx } = app;
    app.post('/export', {
      config: {
        // The account's scans need at least a viewer; a client exports its own links' (docs/decisions/0412).
        auth: perLink ? { scope: 'any' } : { scope: 'any', role: 'viewer' },
        audit: { none: 'an export reads scans and changes nothing of the account' },
      },
      schema: {
        tags: ['analytics'],
        summary: perLink
          ? "The link's scans in the range as CSV (an id that is not one of the account's links: the header only)"
          : "The account's scans in the range, all links, as CSV",
        description:
          'Waits for the export up to JOB_WAIT_MS and answers the file; past that, or with `Prefer: respond-async`, ' +
          'answers 202 with the job to poll (GET /jobs/{jobId}) whose result has the downloadUrl. ' +
          'The file counts against the account’s job-file quota (as large as its storage quota, apart from uploads) until it expires with its job: ' +
          'with that full the request is a 413, and an export that would go past it fails. ' +
          'An account with JOB_ACCOUNT_QUEUE exports waiting already gets a 429 with Retry-After. ' +
          'The body may be left out (the swagger document cannot say so): every field has a default.',
        ...params,
        headers: preferHeaders,
        // No body (Fastify passes null) is the empty one: every field has its default.
        body: z.preprocess((body) => body ?? {}, exportBodySchema),
        response: { 200: csvResponse, 202: acceptedJobResponse, ...errorResponses(401, 413, 429, 503) },
      },
      handler: async (request, reply) => {
        const window = exportWindow(request.body);
        await assertJobFilesFit(ctx.db, request.principal.accountId);
        const linkSlug = perLink ? (request.params as { id: string }).id : undefined;
        const payload: AnalyticsExportPayload = {
          ...(linkSlug !== undefined && { linkSlug }),
          ...(request.principal.folderIds !== null && { folderIds: [...request.principal.folderIds] }),
          from: window.from.getTime(),
          to: window.to.getTime(),
          fileName: exportFileName(linkSlug, window),
          ...(request.body.includeBots && { includeBots: true }),
          ...(filtersOf(request.body) && { filters: filtersOf(request.body) }),
        };
        return answerJob(request, reply, { queue: 'analytics-export', payload }, async (job) =>
          sendJobFile(reply, await openJobFile(ctx.db, ctx.storage, request.principal, job.id)),
        );
      },
    });
  };
}
