/**
 * `/qr/report`: the print report of a design that is not stored yet (an addition): what the
 * console's designer asks while someone designs, for a link not saved yet or a design not applied.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { markedShortUrl } from '#domain/links/attribution.js';
import { shortUrl } from '#domain/links/slugs.js';
import { qrOptionsSchema, QR_MAX_DATA_CHARS } from '#domain/qr/options.js';
import { DEFAULT_PRINT_SIZE_MM } from '#domain/qr/print/print-sizes.js';
import { distanceMmQuery, reportQr, sizeMmQuery } from '#domain/qr/qr-images.js';
import { printReportResponse } from './schemas.js';

/** What an unsaved design is judged on when no data is given: a short URL of a real link's shape. */
const SAMPLE_SLUG = 'Sample1';

const routes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  app.post('/report', {
    config: { auth: { scope: 'links.read' } },
    schema: {
      tags: ['links'],
      summary: 'The print report of a QR design not stored yet (an addition; as GET /links/:id/qr/report answers)',
      body: z.strictObject({
        qr_options: qrOptionsSchema,
        data: z
          .string()
          .min(1)
          .max(QR_MAX_DATA_CHARS)
          .optional()
          .meta({ description: 'What the code encodes (default: a short URL with a source marker, as a link of this service has)' }),
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
