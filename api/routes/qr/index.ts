/**
 * `/qr/report` and `/qr/preview`: the print report and the picture of a design that is not stored
 * yet (additions): what the console's designer asks while someone designs, for a link not saved
 * yet or a design not applied (the browser draws plain codes itself; frames need the server's
 * fonts).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { markedShortUrl } from '#domain/links/attribution.js';
import { shortUrl } from '#domain/links/slugs.js';
import { qrOptionsSchema, QR_MAX_DATA_CHARS, QR_MIN_SIZE } from '#domain/qr/options.js';
import { DEFAULT_PRINT_SIZE_MM } from '#domain/qr/print/print-sizes.js';
import { distanceMmQuery, planQr, QR_FORMATS, renderQr, reportQr, sizeMmQuery } from '#domain/qr/qr-images.js';
import { printReportResponse } from './schemas.js';

/** What an unsaved design is judged on when no data is given: a short URL of a real link's shape. */
const SAMPLE_SLUG = 'Sample1';
/** A preview is for a screen: at most this many pixels (downloads go through the link's own route). */
const QR_PREVIEW_MAX_SIZE = 1024;

const sampleData = z
  .string()
  .min(1)
  .max(QR_MAX_DATA_CHARS)
  .optional()
  .meta({ description: 'What the code encodes (default: a short URL with a source marker, as a link of this service has)' });

const routes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  app.post('/preview', {
    config: { auth: { scope: 'links.read' }, audit: { none: 'draws a picture of the design sent; stores and changes nothing' } },
    schema: {
      tags: ['links'],
      summary: 'A QR design not stored yet, drawn as PNG or SVG (an addition; not cached)',
      body: z.strictObject({
        qr_options: qrOptionsSchema,
        data: sampleData,
        format: z.enum(QR_FORMATS, { error: 'Must be png or svg' }).default('svg'),
        size: z
          .number({ error: `Must be a whole number from ${QR_MIN_SIZE} to ${QR_PREVIEW_MAX_SIZE}` })
          .int(`Must be a whole number from ${QR_MIN_SIZE} to ${QR_PREVIEW_MAX_SIZE}`)
          .min(QR_MIN_SIZE, `Must be a whole number from ${QR_MIN_SIZE} to ${QR_PREVIEW_MAX_SIZE}`)
          .max(QR_PREVIEW_MAX_SIZE, `Must be a whole number from ${QR_MIN_SIZE} to ${QR_PREVIEW_MAX_SIZE}`)
          .optional(),
      }),
    },
    handler: async (request, reply) => {
      const { qr_options: options, data, format, size } = request.body;
      const plan = planQr({
        accountId: request.principal.accountId,
        owner: 'preview',
        options,
        data: data ?? markedShortUrl(shortUrl(ctx.config.SHORT_URL_BASE, SAMPLE_SLUG)),
        format,
        ...(size !== undefined && { size }),
        pathPrefix: 'qr_options',
      });
      const rendered = await renderQr(ctx, plan, { maxWaiting: ctx.config.QR_RENDER_ACCOUNT_QUEUE });
      return reply.header('content-type', rendered.contentType).header('cache-control', 'private, no-store').send(rendered.body);
    },
  });

  app.post('/report', {
    config: { auth: { scope: 'links.read' }, audit: { none: 'judges the design sent; stores and changes nothing' } },
    schema: {
      tags: ['links'],
      summary: 'The print report of a QR design not stored yet (an addition; as GET /links/:id/qr/report answers)',
      body: z.strictObject({
        qr_options: qrOptionsSchema,
        data: sampleData,
        sizeMm: sizeMmQuery.default(DEFAULT_PRINT_SIZE_MM),
        distanceMm: distanceMmQuery.optional(),
      }),
      response: { 200: z.object({ data: printReportResponse }) },
    },
    handler: async (request) => {
      const { qr_options: options, data, sizeMm, distanceMm } = request.body;
      const report = await reportQr(
        ctx,
        {
          accountId: request.principal.accountId,
          options,
          data: data ?? markedShortUrl(shortUrl(ctx.config.SHORT_URL_BASE, SAMPLE_SLUG)),
          pathPrefix: 'qr_options',
        },
        { sizeMm, ...(distanceMm !== undefined && { distanceMm }), proposeFix: true },
        { maxWaiting: ctx.config.QR_RENDER_ACCOUNT_QUEUE },
      );
      return { data: report };
    },
  });
};

export default routes;
