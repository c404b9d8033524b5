/**
 * `/links/:id/qr`: the link's QR code as a picture, and `/links/:id/qr/report`: its print report
 * (an addition: the scannability gate's verdict at a print size, the figures a print shop asks
 * for, and the smallest fix when it does not scan well; domain/qr/print).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { cafeLanguageOfLink } from '#domain/cafes/cafes.js';
import { markedShortUrl } from '#domain/links/attribution.js';
import { shortUrlOfLink } from '#domain/links/link-domains.js';
import { findLinkRow } from '#domain/links/links.js';
import { findPlacement } from '#domain/placements/placements.js';
import { qrImageQuery, qrPrintQuery, reportQr } from '#domain/qr/qr-images.js';
import { printInputOf, sendQr } from '../../qr-reply.js';
import { resourceParams } from '../../schemas.js';
import { autoFixOf, autoFixQuery, printQuery, printReportResponse } from '../qr/schemas.js';

const tags = ['links'];
const slugParams = resourceParams('id', 'Link', 'dynamic_link_id (the slug)');
const placementQuery = z
  .string()
  .optional()
  .meta({ description: "An addition: one of the link's placements (its id): that placement's code" });

const routes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  /** Whether the picture gets a frame whose text is the default (then its language is looked up). */
  const needsDefaultFrameText = (stored: Record<string, unknown>, frame: string | undefined, frameText: string | undefined) => {
    const storedFrame = stored.frameOptions as { text?: string } | undefined;
    if (frame === 'none' || frameText !== undefined) return false;
    return (frame !== undefined || storedFrame !== undefined) && storedFrame?.text === undefined;
  };
  /** The language of the link's page: its own, or for a menu link its cafe's. */
  const pageLanguage = async (link: { id: string; type: string; pageStyle: { language?: string } | null }) =>
    link.pageStyle?.language ?? (link.type === 'menu' ? await cafeLanguageOfLink(ctx.db, link.id) : null);

  app.get('', {
    config: { auth: { scope: 'links.read' } },
    schema: {
      tags,
      summary: "The link's QR code as PNG, SVG or a print PDF (its stored qr_options; size overrides width and height)",
      description:
        'The code encodes the short URL with a source marker (`?q`, or `?q=<code>` for a placement), which the redirect ' +
        'records and strips: scans of the code are told from clicks on the link (an addition). `autoFix=true` (an addition) ' +
        'first judges the design printed `sizeMm` wide and, when it does not scan well, draws the smallest change that does ' +
        '(`GET /links/:id/qr/report` says which). `frame` and `frameText` (additions) draw a frame with a call to action ' +
        "around the code (overriding the design's `frameOptions`); its default text speaks the link page's language.",
      params: slugParams,
      querystring: qrImageQuery.extend({ placement: placementQuery, ...autoFixQuery, ...qrPrintQuery }),
    },
    handler: async (request, reply) => {
      const link = await findLinkRow(ctx.db, request.principal, request.params.id);
      const { placement: placementId } = request.query;
      const placement = placementId === undefined ? null : await findPlacement(ctx, link.id, placementId);
      const { frame, frameText } = request.query;
      return sendQr(
        ctx,
        request,
        reply,
        {
          accountId: link.accountId,
          owner: `link-${link.id}`,
          options: link.qrOptions,
          data: markedShortUrl(await shortUrlOfLink(ctx.db, ctx.config, link), placement?.code),
          format: request.query.format,
          size: request.query.size,
          frame,
          frameText,
          language: needsDefaultFrameText(link.qrOptions, frame, frameText) ? await pageLanguage(link) : null,
          pathPrefix: 'qr_options',
          ...autoFixOf(request.query),
          print: printInputOf(request.query, `QR code: ${link.name}`),
        },
        placement ? `${link.slug}-${placement.code}` : link.slug,
      );
    },
  });

  app.get('/report', {
    config: { auth: { scope: 'links.read' } },
    schema: {
      tags,
      summary: "The print report of the link's QR code at a print size (an addition)",
      description:
        'Simulated phone captures of the code printed `sizeMm` wide and read from `distanceMm` (steady and shaking hands, ' +
        'tilts, dim light, glare), each decoded by jsQR and zxing-cpp: the share both read is the score, and its verdict ' +
        'is `scans-well` (at least 7 of 8), `will-fail` (neither decoder reads a single one) or `risky`. With the QR version, module size, ' +
        'contrast, logo coverage, quiet zone, reading distances, warnings with stable codes, and the smallest fix.',
      params: slugParams,
      querystring: printQuery.extend({ placement: placementQuery }),
      response: { 200: z.object({ data: printReportResponse }) },
    },
    handler: async (request) => {
      const link = await findLinkRow(ctx.db, request.principal, request.params.id);
      const { placement: placementId, sizeMm, distanceMm } = request.query;
      const placement = placementId === undefined ? null : await findPlacement(ctx, link.id, placementId);
      const report = await reportQr(
        ctx,
        {
          accountId: link.accountId,
          options: link.qrOptions,
          data: markedShortUrl(await shortUrlOfLink(ctx.db, ctx.config, link), placement?.code),
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
