import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { markedShortUrl } from '#domain/links/attribution.js';
import { z } from 'zod';
import { createTemplate, deleteTemplate, getTemplate, listTemplates, updateTemplate } from '#domain/templates/templates.js';
import { checkStoredQrImage } from '#domain/qr/image-source.js';
import { deleteQrCache, qrImageQuery, qrPrintQuery, reportQr } from '#domain/qr/qr-images.js';
import { shortUrl } from '#domain/links/slugs.js';
import { printInputOf, sendQr } from '../../qr-reply.js';
import { messageResponse, resourceParams } from '../../schemas.js';
import { createTemplateBody, templateResponse, updateTemplateBody } from './schemas.js';
import { templateView } from './view.js';
import { autoFixOf, autoFixQuery, printQuery, printReportResponse } from '../qr/schemas.js';

/** What a template preview encodes: a short URL of the same shape as a real link's. */
const PREVIEW_SLUG = 'Preview';
/** Marked as a link's code is, so the preview is as dense as the codes it will make. */
const previewData = (config: { SHORT_URL_BASE: string }) => markedShortUrl(shortUrl(config.SHORT_URL_BASE, PREVIEW_SLUG));

const idParams = resourceParams('id', 'Template');
const tags = ['templates'];

const routes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;

  app.get('', {
    config: { auth: { scope: 'templates.read' } },
    schema: { tags, summary: 'List QR style templates, newest first', response: { 200: z.object({ data: z.array(templateResponse) }) } },
    handler: async (request) => ({ data: (await listTemplates(db, request.principal.accountId)).map((t) => templateView(t, 'list')) }),
  });

  app.get('/:id', {
    config: { auth: { scope: 'templates.read' } },
    schema: { tags, summary: 'Get a template', params: idParams, response: { 200: z.object({ data: templateResponse }) } },
    handler: async (request) => ({ data: templateView(await getTemplate(db, request.principal.accountId, request.params.id), 'list') }),
  });

  app.get('/:id/preview', {
    config: { auth: { scope: 'templates.read' } },
    schema: {
      tags,
      summary: 'The template rendered as a QR code on sample data (PNG, SVG or a print PDF)',
      params: idParams,
      querystring: qrImageQuery.extend({ ...autoFixQuery, ...qrPrintQuery }),
    },
    handler: async (request, reply) => {
      const template = await getTemplate(db, request.principal.accountId, request.params.id);
      return sendQr(
        app.ctx,
        request,
        reply,
        {
          accountId: request.principal.accountId,
          owner: `template-${template.id}`,
          options: template.qrOptions,
          data: previewData(app.ctx.config),
          format: request.query.format,
          size: request.query.size,
          frame: request.query.frame,
          frameText: request.query.frameText,
          pathPrefix: 'qr_options',
          ...autoFixOf(request.query),
          print: printInputOf(request.query, `QR template: ${template.name}`),
        },
        `template-${template.name}`,
      );
    },
  });

  app.get('/:id/report', {
    config: { auth: { scope: 'templates.read' } },
    schema: {
      tags,
      summary: "The print report of the template's design on sample data (an addition; as GET /links/:id/qr/report answers)",
      params: idParams,
      querystring: printQuery,
      response: { 200: z.object({ data: printReportResponse }) },
    },
    handler: async (request) => {
      const template = await getTemplate(db, request.principal.accountId, request.params.id);
      const { sizeMm, distanceMm } = request.query;
      const report = await reportQr(
        app.ctx,
        {
          accountId: request.principal.accountId,
          options: template.qrOptions,
          data: previewData(app.ctx.config),
          pathPrefix: 'qr_options',
        },
        { sizeMm, ...(distanceMm !== undefined && { distanceMm }), proposeFix: true },
        { maxWaiting: app.ctx.config.QR_RENDER_ACCOUNT_QUEUE },
      );
      return { data: report };
    },
  });

  app.post('', {
    config: { auth: { scope: 'templates.create' }, audit: { entity: 'template', action: 'create', id: 'response' } },
    schema: {
      tags,
      summary: 'Create a template (answers with the bare template, ISO timestamps)',
      body: createTemplateBody,
      response: { 200: templateResponse },
    },
    handler: async (request) => {
      await checkStoredQrImage(app.ctx, request.principal.accountId, request.body.qrOptions.image, { path: 'qrOptions.image' });
      return templateView(await createTemplate(db, request.principal.accountId, request.body), 'iso');
    },
  });

  app.put('/:id', {
    config: { auth: { scope: 'templates.update' }, audit: { entity: 'template', action: 'update' } },
    schema: {
      tags,
      summary: 'Update a template (answers {})',
      params: idParams,
      body: updateTemplateBody,
      response: { 200: z.object({}) },
    },
    handler: async (request) => {
      await checkStoredQrImage(app.ctx, request.principal.accountId, request.body.qrOptions?.image, { path: 'qrOptions.image' });
      await updateTemplate(db, request.principal.accountId, request.params.id, request.body);
      return {};
    },
  });

  app.delete('/:id', {
    config: { auth: { scope: 'templates.delete' }, audit: { entity: 'template', action: 'delete' } },
    schema: {
      tags,
      summary: 'Delete a template permanently (the message reads "Link archived", as the API contract says)',
      params: idParams,
      response: { 200: messageResponse },
    },
    handler: async (request) => {
      await deleteTemplate(db, request.principal.accountId, request.params.id);
      await deleteQrCache(app.ctx, request.principal.accountId, `template-${request.params.id}`);
      return { message: 'Link archived' };
    },
  });
};

export default routes;
