/**
 * `/links/:id/placements`: a link's named placements (an addition to the API contract), each with
 * a QR image of its own at `/links/:id/qr?placement=<placement id>` (domain/placements).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { markedShortUrl } from '#domain/links/attribution.js';
import { shortUrlOfLink } from '#domain/links/link-domains.js';
import { findLinkRow } from '#domain/links/links.js';
import {
  createPlacement,
  listPlacements,
  PLACEMENTS_PER_LINK,
  removePlacement,
  renamePlacement,
  type PlacementRow,
} from '#domain/placements/placements.js';
import { API_PREFIX } from '../../prefix.js';
import { messageResponse, nestedResourceParams, resourceParams } from '../../schemas.js';

const tags = ['links'];
const linkParams = resourceParams('id', 'Link', 'dynamic_link_id (the slug)');
const placementParams = nestedResourceParams(['id', 'placementId'], 'Link');

const placementName = z
  .string()
  .trim()
  .min(1, 'Name is required')
  .max(100, 'Name must be at most 100 characters')
  .regex(/^[^\p{Cc}]*$/u, 'Name must not contain control characters');
const placementBody = z.strictObject({ name: placementName });

const placementResponse = z
  .object({
    id: z.string(),
    name: z.string(),
    code: z.string().meta({ description: 'The marker value its QR image carries: the encoded URL ends in `?q=<code>`' }),
    url: z.string().meta({ description: 'The URL its QR image encodes' }),
    qrImage: z.string().meta({ description: 'Where its QR image is (PNG; `&format=svg` for SVG)' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({
    example: {
      id: '5b3c0f5e-8a8e-4f0a-9d0e-2c1f6f0b7a11',
      name: 'Table tent',
      code: '1',
      url: 'https://qrl.ink/aB3xY9k?q=1',
      qrImage: '/api/v1/links/aB3xY9k/qr?placement=5b3c0f5e-8a8e-4f0a-9d0e-2c1f6f0b7a11',
      createdAt: '2026-11-30T10:00:00.000Z',
      updatedAt: '2026-11-30T10:00:00.000Z',
    },
  });

function placementView(row: PlacementRow, shortUrl: string, slug: string): z.infer<typeof placementResponse> {
  return {
    id: row.id,
    name: row.name,
    code: row.code,
    url: markedShortUrl(shortUrl, row.code),
    qrImage: `${API_PREFIX}/links/${encodeURIComponent(slug)}/qr?placement=${row.id}`,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const placementRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const shortUrlOf = async (scope: Parameters<typeof findLinkRow>[1], slug: string) =>
    shortUrlOfLink(ctx.db, ctx.config, await findLinkRow(ctx.db, scope, slug));

  app.get('', {
    config: { auth: { scope: 'links.read' } },
    schema: {
      tags,
      summary: "An addition: the link's placements, oldest first",
      params: linkParams,
      response: { 200: z.object({ data: z.array(placementResponse) }) },
    },
    handler: async (request) => {
      const rows = await listPlacements(ctx, request.principal, request.params.id);
      const shortUrl = await shortUrlOf(request.principal, request.params.id);
      return { data: rows.map((row) => placementView(row, shortUrl, request.params.id)) };
    },
  });

  app.post('', {
    config: { auth: { scope: 'links.update' }, audit: { entity: 'link', action: 'add_placement' } },
    schema: {
      tags,
      summary: `An addition: a named placement of the link, with a QR image of its own (at most ${PLACEMENTS_PER_LINK} per link)`,
      params: linkParams,
      body: placementBody,
      response: { 200: z.object({ data: placementResponse }) },
    },
    handler: async (request) => {
      const row = await createPlacement(ctx, request.principal, request.params.id, request.body.name);
      return { data: placementView(row, await shortUrlOf(request.principal, request.params.id), request.params.id) };
    },
  });

  app.patch('/:placementId', {
    config: { auth: { scope: 'links.update' }, audit: { entity: 'link', action: 'rename_placement' } },
    schema: {
      tags,
      summary: 'An addition: rename a placement (its code, and so its printed QR images, stay)',
      params: placementParams,
      body: placementBody,
      response: { 200: z.object({ data: placementResponse }) },
    },
    handler: async (request) => {
      const { id, placementId } = request.params;
      const row = await renamePlacement(ctx, request.principal, id, placementId, request.body.name);
      return { data: placementView(row, await shortUrlOf(request.principal, id), id) };
    },
  });

  app.delete('/:placementId', {
    config: { auth: { scope: 'links.update' }, audit: { entity: 'link', action: 'remove_placement' } },
    schema: {
      tags,
      summary: 'An addition: remove a placement; its printed codes still lead to the link, counted as QR scans of no placement',
      params: placementParams,
      response: { 200: messageResponse },
    },
    handler: async (request) => {
      await removePlacement(ctx, request.principal, request.params.id, request.params.placementId);
      return { message: 'Placement removed' };
    },
  });
};

export default placementRoutes;
