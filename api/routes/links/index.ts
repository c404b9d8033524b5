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
  patchLink,
  readLinks,
  saveLinkAsTemplate,
  setLinkFlags,
  updateLink,
} from '#domain/links/links.js';
import { jsonChunks, sendJsonPage } from '../../json-stream.js';
import { analyticsRoutes } from '../analytics/index.js';
import { messageResponse, pageMeta, resourceParams } from '../../schemas.js';
import {
  linkBodySchema,
  linkFieldsParam,
  linkResponse,
  listLinksQuerySchema,
  moveLinkBodySchema,
  optionalNameBodySchema,
  patchLinkBodySchema,
  pickFields,
} from './schemas.js';
import { linkView } from './view.js';
import placementRoutes from './placements.js';
import qrRoutes from './qr.js';
import type { LinkScope } from '#domain/links/scope.js';
import { listAuditEvents } from '#domain/audit/events.js';
import { historyQuerySchema } from '../audit-events/schemas.js';
import { auditPageResponse } from '../audit-events/schemas.js';
import { auditPageView } from '../audit-events/view.js';

const tags = ['links'];

/** Links read per query while a page streams: this many first, then as many as make about LIST_CHUNK_BYTES of JSON. */
const LIST_FIRST_CHUNK_ROWS = 20;
const LIST_CHUNK_BYTES = 2 << 20;
const slugParams = resourceParams('id', 'Link', 'dynamic_link_id (the slug)');
/** What a client (a person with the client role, or its key) may do with a link's folder. */
const CLIENT_FOLDERS =
  'A client reaches only the links of its folders (any other is a 404) and keeps them there: ' +
  'a folder_id that is not one of its folders, or none, is a 403 `folder_forbidden`.';

const routes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  await app.register(analyticsRoutes(true), { prefix: '/:id/analytics' });
  await app.register(placementRoutes, { prefix: '/:id/placements' });
  await app.register(qrRoutes, { prefix: '/:id/qr' });

  app.get('', {
    config: { auth: { scope: 'links.read' } },
    schema: {
      tags,
      summary: 'List links with filters, sorting and pages',
      querystring: listLinksQuerySchema.extend({ fields: linkFieldsParam }),
      response: {
        200: z.object({ data: z.array(linkResponse), meta: pageMeta }).meta({
          description: 'With `fields`, each link holds only the fields named (and id, dynamic_link_id)',
        }),
      },
    },
    // Streamed (docs/decisions/0106-list-pages-are-streamed-not-built.md): a page of 1000 big links
    // is hundreds of MB of JSON, so it is written a chunk of links at a time rather than built
    // whole. The schema above documents the answer; the stream writes what it would serialize
    // (test/integration/links/links-list-stream.test.ts).
    handler: async (request, reply) => {
      const { principal } = request;
      const { accountId } = principal;
      const page = await listLinks(ctx, principal, request.query);
      // One instant for the whole page: every link's status is as of the request.
      const now = new Date();
      const items = jsonChunks(page.ids, {
        read: (ids) => readLinks(ctx, principal, ids),
        view: (link) => pickFields(linkView(link, ctx.config, now), request.query.fields),
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
    handler: async (request) => ({ data: linkView(await getLink(ctx, request.principal, request.params.id), ctx.config) }),
  });

  app.get('/:id/history', {
    config: { auth: { scope: 'links.read' } },
    schema: {
      tags,
      summary: "The link's history: who changed what of it through the api, and when, newest first",
      description: 'The audit log of this link (GET /audit-events?linkId=), readable by anyone who can read the link.',
      params: slugParams,
      querystring: historyQuerySchema,
      response: { 200: auditPageResponse },
    },
    handler: async (request) => {
      const { accountId } = request.principal;
      const link = await findLinkRow(ctx.db, request.principal, request.params.id);
      const { cursor, limit } = request.query;
      return auditPageView(
        await listAuditEvents(ctx.db, accountId, { entity: 'link', entityId: link.id }, { limit, ...(cursor !== undefined && { cursor }) }),
      );
    },
  });

  app.post('', {
    config: { auth: { scope: 'links.create' }, audit: { entity: 'link', action: 'create', id: 'response' } },
    schema: {
      tags,
      summary: 'Create a link of any of the 16 types; answers its dynamic_link_id',
      description: CLIENT_FOLDERS,
      body: linkBodySchema,
      response: { 200: z.object({ id: z.string() }) },
    },
    handler: async (request) => ({ id: (await createLink(ctx, request.principal, request.body)).slug }),
  });

  app.put('/:id', {
    config: { auth: { scope: 'links.update' }, audit: { entity: 'link', action: 'update' } },
    schema: {
      tags,
      summary: 'Replace a link (same body as create); answers the updated link',
      description: CLIENT_FOLDERS,
      params: slugParams,
      body: linkBodySchema,
      response: { 200: z.object({ data: linkResponse }) },
    },
    handler: async (request) => ({ data: linkView(await updateLink(ctx, request.principal, request.params.id, request.body), ctx.config) }),
  });

  app.patch('/:id', {
    config: { auth: { scope: 'links.update' }, audit: { entity: 'link', action: 'update_qr' } },
    schema: {
      tags,
      summary: "Change a link's QR styling (and, an addition, its UTM parameters and query policy)",
      params: slugParams,
      body: patchLinkBodySchema,
      description: "The answer is the contract's, whatever was changed: GET /links/:id shows the link's utm and query_policy.",
      response: { 200: z.object({ data: z.object({ dynamic_link_id: z.string(), qr_options: z.record(z.string(), z.unknown()) }) }) },
    },
    handler: async (request) => {
      const link = await patchLink(ctx, request.principal, request.params.id, request.body);
      return { data: { dynamic_link_id: link.slug, qr_options: link.qrOptions } };
    },
  });

  const remove = async (request: { principal: LinkScope; params: { id: string } }) => {
    await deleteLink(ctx, request.principal, request.params.id);
    return { message: 'Link archived' };
  };
  const removeSchema = { tags, params: slugParams, response: { 200: messageResponse } };
  app.delete('/:id', {
    config: { auth: { scope: 'links.delete' }, audit: { entity: 'link', action: 'delete' } },
    schema: { ...removeSchema, summary: 'Delete a link permanently, with its files and scans' },
    handler: remove,
  });
  app.post('/:id/archive', {
    config: { auth: { scope: 'links.delete' }, audit: { entity: 'link', action: 'delete' } },
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
      config: { auth: { scope }, audit: { entity: 'link', action: method === 'DELETE' ? `un${path}` : path } },
      schema: { tags, summary, params: slugParams, response: { 200: messageResponse } },
      handler: async (request) => {
        await setLinkFlags(ctx, request.principal, request.params.id, flags);
        return { message };
      },
    });
  flag('pause', 'POST', 'links.pause', { paused: true }, 'Link paused', 'Pause a link: it stops resolving');
  flag('resume', 'POST', 'links.resume', { paused: false }, 'Link resumed', 'Resume a paused link');
  flag('favorite', 'POST', 'links.update', { favorite: true }, 'Success', 'Mark a link as favorite');
  flag('favorite', 'DELETE', 'links.update', { favorite: false }, 'Success', 'Unmark a favorite link');

  app.put('/:id/folder', {
    config: { auth: { scope: 'links.update' }, audit: { entity: 'link', action: 'move' } },
    schema: {
      tags,
      summary: 'Move a link into a folder, or out of any (folder_id null); nothing else of the link changes',
      description: CLIENT_FOLDERS,
      params: slugParams,
      body: moveLinkBodySchema,
      response: { 200: messageResponse },
    },
    handler: async (request) => {
      await moveLink(ctx, request.principal, request.params.id, request.body.folder_id);
      return { message: 'Link moved' };
    },
  });

  app.post('/:id/duplicate', {
    config: { auth: { scope: 'links.create' }, audit: { entity: 'link', action: 'duplicate' } },
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
    config: { auth: { scope: 'templates.create' }, audit: { entity: 'link', action: 'save_template' } },
    schema: {
      tags,
      summary: "Save the link's QR styling as a template",
      params: slugParams,
      body: optionalNameBodySchema,
      response: { 200: messageResponse },
    },
    handler: async (request) => {
      await saveLinkAsTemplate(ctx.db, request.principal, request.params.id, request.body?.name);
      return { message: 'Template Saved' };
    },
  });
};

export default routes;
