import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createLink,
  deleteLink,
  duplicateLink,
  findLinkRow,
  getLink,
  listLinks,
  moveLink,
  readLinks,
  saveLinkAsTemplate,
  setLinkFlags,
  updateLink,
  updateLinkQr,
} from '../../../domain/links/links.js';
import {
  linkBodySchema,
  listLinksQuerySchema,
  moveLinkBodySchema,
  optionalNameBodySchema,
  patchQrBodySchema,
} from '../../../domain/links/schemas.js';
import { qrImageQuery } from '../../../domain/qr/qr-images.js';
import { jsonChunks, sendJsonPage } from '../../json-stream.js';
import { analyticsRoutes } from '../analytics/index.js';
import { sendQr } from '../../qr-reply.js';
import { messageResponse, pageMeta, resourceParams } from '../../schemas.js';
import { linkResponse } from './schemas.js';
import { linkView } from './view.js';
import { shortUrl } from '../../../domain/links/slugs.js';

const tags = ['links'];

/** Links read per query while a page streams: this many first, then as many as make about LIST_CHUNK_BYTES of JSON. */
const LIST_FIRST_CHUNK_ROWS = 20;
const LIST_CHUNK_BYTES = 2 << 20;
const slugParams = resourceParams('id', 'Link', 'dynamic_link_id (the slug)');

const routes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  await app.register(analyticsRoutes(true), { prefix: '/:id/analytics' });

  app.get('', {
    config: { auth: { scope: 'links.read' } },
    schema: {
      tags,
      summary: 'List links with filters, sorting and pages',
      querystring: listLinksQuerySchema,
      response: { 200: z.object({ data: z.array(linkResponse), meta: pageMeta }) },
    },
    // Streamed (docs/decisions/0106-list-pages-are-streamed-not-built.md): a page of 1000 big links
    // is hundreds of MB of JSON, so it is written a chunk of links at a time rather than built
    // whole. The schema above documents the answer; the stream writes what it would serialize
    // (test/links-list-stream.test.ts).
    handler: async (request, reply) => {
      const { accountId } = request.principal;
      const page = await listLinks(ctx, accountId, request.query);
      // One instant for the whole page: every link's status is as of the request.
      const now = new Date();
      const items = jsonChunks(page.ids, {
        read: (ids) => readLinks(ctx, accountId, ids),
        view: (link) => linkView(link, ctx.config, now),
        firstChunkItems: LIST_FIRST_CHUNK_ROWS,
        chunkBytes: LIST_CHUNK_BYTES,
        turnKey: accountId,
      });
      return sendJsonPage(reply, items, page.meta);
    },
  });

  app.get('/:id', {
    config: { auth: { scope: 'links.read' } },
    schema: { tags, summary: 'Get a link', params: slugParams, response: { 200: z.object({ data: linkResponse }) } },
    handler: async (request) => ({ data: linkView(await getLink(ctx, request.principal.accountId, request.params.id), ctx.config) }),
  });

  app.get('/:id/qr', {
    config: { auth: { scope: 'links.read' } },
    schema: {
      tags,
      summary: "The link's QR code as PNG or SVG (its stored qr_options; size overrides width and height)",
      params: slugParams,
      querystring: qrImageQuery,
    },
    handler: async (request, reply) => {
      const link = await findLinkRow(ctx.db, request.principal.accountId, request.params.id);
      return sendQr(ctx, request, reply, {
        accountId: link.accountId,
        owner: `link-${link.id}`,
        options: link.qrOptions,
        data: shortUrl(ctx.config.SHORT_URL_BASE, link.slug),
        format: request.query.format,
        size: request.query.size,
        pathPrefix: 'qr_options',
      });
    },
  });

  app.post('', {
    config: { auth: { scope: 'links.create' } },
    schema: {
      tags,
      summary: 'Create a link of any of the 16 types; answers its dynamic_link_id',
      body: linkBodySchema,
      response: { 200: z.object({ id: z.string() }) },
    },
    handler: async (request) => ({ id: (await createLink(ctx, request.principal, request.body)).slug }),
  });

  app.put('/:id', {
    config: { auth: { scope: 'links.update' } },
    schema: {
      tags,
      summary: 'Replace a link (same body as create); answers the updated link',
      params: slugParams,
      body: linkBodySchema,
      response: { 200: z.object({ data: linkResponse }) },
    },
    handler: async (request) => ({ data: linkView(await updateLink(ctx, request.principal, request.params.id, request.body), ctx.config) }),
  });

  app.patch('/:id', {
    config: { auth: { scope: 'links.update' } },
    schema: {
      tags,
      summary: "Change a link's QR styling",
      params: slugParams,
      body: patchQrBodySchema,
      response: { 200: z.object({ data: z.object({ dynamic_link_id: z.string(), qr_options: z.record(z.string(), z.unknown()) }) }) },
    },
    handler: async (request) => {
      const link = await updateLinkQr(ctx, request.principal.accountId, request.params.id, request.body.qrCode);
      return { data: { dynamic_link_id: link.slug, qr_options: link.qrOptions } };
    },
  });

  const remove = async (request: { principal: { accountId: string }; params: { id: string } }) => {
    await deleteLink(ctx, request.principal.accountId, request.params.id);
    return { message: 'Link archived' };
  };
  const removeSchema = { tags, params: slugParams, response: { 200: messageResponse } };
  app.delete('/:id', {
    config: { auth: { scope: 'links.delete' } },
    schema: { ...removeSchema, summary: 'Delete a link permanently, with its files and scans' },
    handler: remove,
  });
  app.post('/:id/archive', {
    config: { auth: { scope: 'links.delete' } },
    schema: { ...removeSchema, summary: 'Same as DELETE: the link, its files and scans are removed for good' },
    handler: remove,
  });

  const flag = (
    path: string,
    method: 'POST' | 'DELETE',
    scope: 'links.pause' | 'links.resume' | 'links.update',
    flags: { paused?: boolean; favorite?: boolean },
    message: string,
    summary: string,
  ) =>
    app.route({
      method,
      url: `/:id/${path}`,
      config: { auth: { scope } },
      schema: { tags, summary, params: slugParams, response: { 200: messageResponse } },
      handler: async (request) => {
        await setLinkFlags(ctx, request.principal.accountId, request.params.id, flags);
        return { message };
      },
    });
  flag('pause', 'POST', 'links.pause', { paused: true }, 'Link paused', 'Pause a link: it stops resolving');
  flag('resume', 'POST', 'links.resume', { paused: false }, 'Link resumed', 'Resume a paused link');
  flag('favorite', 'POST', 'links.update', { favorite: true }, 'Success', 'Mark a link as favorite');
  flag('favorite', 'DELETE', 'links.update', { favorite: false }, 'Success', 'Unmark a favorite link');

  app.put('/:id/folder', {
    config: { auth: { scope: 'links.update' } },
    schema: {
      tags,
      summary: 'Move a link into a folder, or out of any (folder_id null); nothing else of the link changes',
      params: slugParams,
      body: moveLinkBodySchema,
      response: { 200: messageResponse },
    },
    handler: async (request) => {
      await moveLink(ctx, request.principal.accountId, request.params.id, request.body.folder_id);
      return { message: 'Link moved' };
    },
  });

  app.post('/:id/duplicate', {
    config: { auth: { scope: 'links.create' } },
    schema: {
      tags,
      summary: 'Copy a link (new slug, optional new name; its files share the stored bytes, so no quota is used)',
      params: slugParams,
      body: optionalNameBodySchema,
      response: { 200: messageResponse },
    },
    handler: async (request) => {
      await duplicateLink(ctx, request.principal, request.params.id, request.body?.name);
      return { message: 'Link duplicated' };
    },
  });

  app.post('/:id/save-template', {
    config: { auth: { scope: 'templates.create' } },
    schema: {
      tags,
      summary: "Save the link's QR styling as a template",
      params: slugParams,
      body: optionalNameBodySchema,
      response: { 200: messageResponse },
    },
    handler: async (request) => {
      await saveLinkAsTemplate(ctx.db, request.principal.accountId, request.params.id, request.body?.name);
      return { message: 'Template Saved' };
    },
  });
};

export default routes;
