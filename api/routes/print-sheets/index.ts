/**
 * POST /print-sheets (an addition, issue 47): a print-ready PDF of many codes, made by a
 * print-sheets job (domain/qr/print/sheet-job.ts, sheets.ts; decision 0441). Answered like the
 * other jobs (api/job-reply.ts): the PDF itself when the job finishes within the wait, else 202
 * with the job to poll; GET /jobs/:jobId shows its progress and GET /jobs/:jobId/download serves
 * the PDF. The links are chosen within the caller's reach, as every link route does.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { assertJobFilesFit, openJobFile } from '#domain/jobs/files.js';
import { PDF_COLOR_SPACES } from '#domain/qr/print/pdf.js';
import { sizeMmQuery } from '#domain/qr/qr-images.js';
import { chooseSheetLinks, SHEET_MAX_LINKS, type PrintSheetPayload, type SheetSelection } from '#domain/qr/print/sheet-job.js';
import {
  SHEET_MARGIN_DEFAULT_MM,
  SHEET_MARGIN_MAX_MM,
  SHEET_MARGIN_MIN_MM,
  SHEET_PAPERS,
  SHEET_TEMPLATES,
} from '#domain/qr/print/sheets.js';
import { errorResponses } from '../../schemas.js';
import {
  acceptedJobResponse,
  answerQueuedJob,
  IDEMPOTENCY_DESCRIPTION,
  idempotentJobHeaders,
  sendJobFile,
  startRequestJob,
} from '../../job-reply.js';

const MARGIN_MESSAGE = `Must be a number of millimetres from ${SHEET_MARGIN_MIN_MM} to ${SHEET_MARGIN_MAX_MM}`;

const printSheetBody = z
  .strictObject({
    linkIds: z
      .array(z.string().min(1).max(200))
      .min(1)
      .max(SHEET_MAX_LINKS)
      .optional()
      .meta({ description: `The links to print, in order (their ids); at most ${SHEET_MAX_LINKS}` }),
    folderId: z.string().max(200).optional().meta({ description: 'A folder: its links, oldest first' }),
    bulkJobId: z.string().max(200).optional().meta({ description: 'A bulk generation job: the links it made, in its order' }),
    paper: z.enum(SHEET_PAPERS, { error: 'Must be a4 or letter' }).default('a4'),
    sizeMm: sizeMmQuery.default(30).meta({ description: 'Printed width of each code in mm (10 to 1000; it must fit the page)' }),
    template: z.enum(SHEET_TEMPLATES, { error: 'Must be grid or table-tent' }).default('grid').meta({
      description: 'grid: codes with captions on A4/Letter; table-tent: an A5 tent per cafe (its name, menu code and Wi-Fi code)',
    }),
    marginsMm: z.coerce
      .number({ error: MARGIN_MESSAGE })
      .min(SHEET_MARGIN_MIN_MM, MARGIN_MESSAGE)
      .max(SHEET_MARGIN_MAX_MM, MARGIN_MESSAGE)
      .default(SHEET_MARGIN_DEFAULT_MM),
    caption: z.boolean().default(true).meta({ description: "A caption under each code: the link's name and its short URL without scheme" }),
    cropMarks: z.boolean().default(false).meta({ description: 'Crop marks on the cut lines between codes, in the margins' }),
    colorSpace: z.enum(PDF_COLOR_SPACES, { error: 'Must be rgb or cmyk' }).default('rgb'),
  })
  .superRefine((body, check) => {
    const chosen = (['linkIds', 'folderId', 'bulkJobId'] as const).filter((k) => body[k] !== undefined);
    if (chosen.length !== 1) {
      check.addIssue({
        code: 'custom',
        path: chosen[1] ? [chosen[1]] : ['linkIds'],
        message: 'Give exactly one of linkIds, folderId or bulkJobId',
      });
    }
  });

const pdfResponse = {
  description: 'The print sheet (application/pdf), as an attachment',
  content: { 'application/pdf': { schema: z.string().meta({ format: 'binary' }) } },
};

const routes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  app.post('', {
    config: {
      auth: { scope: 'links.read' },
      audit: { none: 'a print sheet reads links and changes nothing of the account' },
    },
    schema: {
      tags: ['links'],
      summary: 'A print-ready PDF of many codes: a grid sheet or table tents (an addition)',
      description:
        `Chooses the links by \`linkIds\`, \`folderId\` or \`bulkJobId\` (exactly one; at most ${SHEET_MAX_LINKS} links; ` +
        'ids the caller cannot reach are a 404, as everywhere). `grid`: A4 or Letter, codes `sizeMm` wide a quiet zone apart, ' +
        'a caption under each, crop marks, page numbers. `table-tent`: one A5 page per cafe among the links, folded across ' +
        'the middle. Waits for the job up to JOB_WAIT_MS and answers the PDF; past that, or with `Prefer: respond-async`, 202 ' +
        `with the job (GET /jobs/{jobId}: progress; /download: the PDF). ${IDEMPOTENCY_DESCRIPTION}`,
      headers: idempotentJobHeaders,
      body: printSheetBody,
      response: { 200: pdfResponse, 202: acceptedJobResponse, ...errorResponses(401, 404, 409, 413, 429, 503) },
    },
    handler: async (request, reply) => {
      const { principal, body } = request;
      const selection: SheetSelection =
        body.linkIds !== undefined
          ? { linkIds: body.linkIds }
          : body.folderId !== undefined
            ? { folderId: body.folderId }
            : { bulkJobId: body.bulkJobId! };
      const options = {
        template: body.template,
        paper: body.paper,
        sizeMm: body.sizeMm,
        marginsMm: body.marginsMm,
        caption: body.caption,
        cropMarks: body.cropMarks,
        colorSpace: body.colorSpace,
      };
      const linkIds = await chooseSheetLinks(ctx.db, principal, selection, options);
      await assertJobFilesFit(ctx.db, principal.accountId);
      const payload: PrintSheetPayload = { linkIds, ...options };
      const jobId = await startRequestJob(request, { queue: 'print-sheets', payload }, body);
      return answerQueuedJob(request, reply, 'print-sheets', jobId, async (job) =>
        sendJobFile(reply, await openJobFile(ctx.db, ctx.storage, principal, job.id)),
      );
    },
  });
};

export default routes;
