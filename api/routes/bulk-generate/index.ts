/**
 * POST /bulk-generate: many links of one type in one all-or-nothing batch (domain/bulk), made by a
 * bulk-generate job. The body is JSON, or a multipart form with a CSV file (`file`) and the
 * batch's `type` (and optional `folderId`, `templateId`, `qrOptions` as JSON text) as fields. The
 * answer is the batch's links as soon as they are inserted (within JOB_WAIT_MS), else 202 with the
 * job; the job goes on to render the ZIP of their codes (`qrZipUrl` in its result).
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { prepareBulkJob } from '#domain/bulk/bulk.js';
import { assertRoomForLinks } from '#domain/links/usage.js';
import { csvIssuePath, readBulkCsv } from '#domain/bulk/csv.js';
import { BULK_MAX_RECORDS, BULK_TYPES, type BulkRequest, type BulkType } from '#domain/bulk/schemas.js';
import type { AppContext } from '#infra/context.js';
import type { LinkScope } from '#domain/links/scope.js';
import type { BulkGeneratePayload } from '#domain/bulk/job.js';
import { bulkBodySchema, bulkQuerySchema, bulkResultResponse, dryRunResponse } from './schemas.js';
import { FieldErrorList, formatPath, ValidationError, zodIssuesToFieldErrors } from '#domain/errors.js';
import { acceptedJobResponse, answerQueuedJob, IDEMPOTENCY_DESCRIPTION, idempotentJobHeaders, startRequestJob } from '../../job-reply.js';
import { bodyCheckedByHandler, findUnstorableText, UNSTORABLE_TEXT_MESSAGE } from '../../plugins/app/validation.js';
import multipartPlugin, { multipartError } from '../../plugins/external/multipart.js';
import { errorResponses } from '../../schemas.js';

/** 1200 vCards with every field at its longest are ~4 MB of JSON; BODY_LIMIT_BYTES is for single links. */
const BULK_BODY_LIMIT_BYTES = 8 * 1024 * 1024;

const FORM_FIELDS = ['type', 'folderId', 'templateId', 'qrOptions', 'domain', 'placement', 'utm', 'queryPolicy'] as const;

/** A form's fields and CSV file as the JSON body they stand for, with each record's row in the file. */
async function readCsvForm(request: FastifyRequest): Promise<{ raw: Record<string, unknown>; rows?: number[] }> {
  const fields: Record<string, string> = {};
  let file: Buffer | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname === 'file') file = await part.toBuffer();
        else for await (const _chunk of part.file); // drained, ignored
      } else if ((FORM_FIELDS as readonly string[]).includes(part.fieldname) && typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    throw multipartError(err);
  }
  const raw: Record<string, unknown> = { type: fields.type };
  if (fields.folderId) raw.folderId = fields.folderId;
  if (fields.templateId) raw.templateId = fields.templateId;
  if (fields.domain) raw.domain = fields.domain;
  if (fields.placement) raw.placement = fields.placement;
  if (fields.queryPolicy) raw.queryPolicy = fields.queryPolicy;
  for (const name of ['qrOptions', 'utm'] as const) {
    if (!fields[name]) continue;
    try {
      raw[name] = JSON.parse(fields[name]);
    } catch {
      throw new ValidationError([{ path: name, message: 'Must be a JSON object (the form field holds JSON text)' }]);
    }
  }
  if (!file) throw new ValidationError([{ path: 'file', message: 'A CSV file is required in the field `file`' }]);
  if (!(BULK_TYPES as readonly string[]).includes(fields.type ?? '')) {
    throw new ValidationError([
      { path: 'type', message: fields.type === undefined ? 'Required' : `Must be one of: ${BULK_TYPES.join(', ')}` },
    ]);
  }
  const csv = readBulkCsv(fields.type as BulkType, file);
  const unstorable = findUnstorableText(csv.records);
  if (unstorable.length > 0) {
    throw new ValidationError(
      unstorable.map(([i, ...rest]) => ({
        path: formatPath(['row', csv.rows[i as number]!, ...rest], 'file'),
        message: UNSTORABLE_TEXT_MESSAGE,
      })),
    );
  }
  raw.data = csv.records;
  return { raw, rows: csv.rows };
}

interface CheckedBulkRequest {
  /** Records sent (0 when `data` is not a list). */
  count: number;
  body: BulkRequest | null;
  payload: BulkGeneratePayload | null;
  errors: FieldErrorList;
}

/**
 * Every check of a bulk request, complete: the body schema (every record), then the account's
 * folder, template and styling (prepareBulkJob). `csvRows` (a CSV form) names records by their
 * rows in the file.
 */
async function checkBulkRequest(
  ctx: Pick<AppContext, 'db' | 'config' | 'storage'>,
  scope: LinkScope,
  raw: unknown,
  csvRows?: readonly number[],
): Promise<CheckedBulkRequest> {
  const data = (raw as { data?: unknown } | null)?.data;
  const count = Array.isArray(data) ? data.length : 0;
  const parsed = bulkBodySchema.safeParse(raw);
  if (!parsed.success) {
    const issues = csvRows ? parsed.error.issues.map((i) => ({ ...i, path: csvIssuePath(i.path, csvRows) })) : parsed.error.issues;
    return { count, body: null, payload: null, errors: zodIssuesToFieldErrors(issues) };
  }
  const prepared = await prepareBulkJob(ctx, scope, parsed.data);
  return { count, body: parsed.data, ...prepared };
}

const routes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  // Beside JSON: multipart, for the CSV form (this plugin is encapsulated: other routes still refuse it).
  await app.register(multipartPlugin);

  app.post('', {
    config: { auth: { scope: 'bulk.create' }, audit: { entity: 'link', action: 'bulk_create', bulk: true } },
    bodyLimit: BULK_BODY_LIMIT_BYTES,
    validatorCompiler: bodyCheckedByHandler,
    schema: {
      tags: ['bulk'],
      summary: `Create 1 to ${BULK_MAX_RECORDS} links of one type (website, product, sms, vcard) at once, all or none`,
      description:
        'Every record is checked before anything is made; any bad record is a 400 naming each bad field as `data[i].<field>` ' +
        '(`file.row[N].<field>` for a CSV form, N counting the header as row 1), and nothing is created. ' +
        '`?dryRun=true` answers that check as a report (200, nothing made). The links are inserted in one transaction, ' +
        'answered in the order of the records within JOB_WAIT_MS (else, or with `Prefer: respond-async`, 202 with the job). ' +
        'The job then renders every code (PNG and SVG, each link’s own style) into one ZIP with manifest.csv: ' +
        'GET /jobs/{jobId} shows its progress, and its result gains `qrZipUrl`. ' +
        `${IDEMPOTENCY_DESCRIPTION} ` +
        'A client’s batch must name one of its folders as `folderId` (else 403 `folder_forbidden`), and its keys are its own. ' +
        'CSV form: multipart/form-data with the file in `file` (a header row of record field names, e.g. `name,url`), ' +
        '`type`, and optional `folderId`, `templateId`, `qrOptions` and `utm` (JSON text), `domain`, `queryPolicy` as fields. ' +
        '`print` {sizeMm, autoFix} (an addition) judges the batch’s design at a print size first and stores the fix when it needs one.',
      consumes: ['application/json', 'multipart/form-data'],
      querystring: bulkQuerySchema,
      headers: idempotentJobHeaders,
      body: bulkBodySchema,
      response: {
        200: z.union([bulkResultResponse, dryRunResponse]),
        202: acceptedJobResponse,
        ...errorResponses(401, 409, 429, 503),
      },
    },
    handler: async (request, reply) => {
      const { principal } = request;
      const { accountId } = principal;
      const form = request.isMultipart() ? await readCsvForm(request) : { raw: request.body as unknown, rows: undefined };
      const checked = await checkBulkRequest(ctx, principal, form.raw, form.rows);
      if (request.query.dryRun)
        return { dryRun: true as const, valid: checked.errors.size === 0, count: checked.count, ...checked.errors.toBody() };
      if (!checked.payload) throw new ValidationError(checked.errors);
      // An early answer when the links cannot fit (the job checks again as it inserts them). A
      // keyed request may be a replay of one whose links exist, so it is left to the job's check.
      if (request.headers['idempotency-key'] === undefined) await assertRoomForLinks(ctx.db, accountId, checked.count);
      const jobId = await startRequestJob(request, { queue: 'bulk-generate', payload: checked.payload }, checked.body);
      return answerQueuedJob(
        request,
        reply,
        'bulk-generate',
        jobId,
        async (job) => {
          const { jobId: id, count, links, qrZipUrl, print } = job.result;
          return reply.send({ jobId: id, count, links, ...(qrZipUrl && { qrZipUrl }), ...(print && { print }) });
        },
        // The links are the answer; the job goes on to render their ZIP.
        (view) => view.result !== undefined,
      );
    },
  });
};

export default routes;
