/**
 * /cafes: the cafe itself (JSON), its profile (multipart: contact fields, logo, cover) and theme,
 * and its menu's groups, categories and items in the nested files, laid out like the URL space.
 * Cafe endpoints are on every plan.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { assertCafe, createCafe, deleteCafe, getCafe, listCafes, updateCafe, updateProfile, updateTheme } from '#domain/cafes/cafes.js';
import { createMenuPreview, MENU_PREVIEW_TTL_SECONDS } from '#domain/cafes/theme-preview.js';
import { consoleOriginOf } from '../../console.js';
import { MENU_THEME_KEYS, MENU_THEMES } from '#domain/cafes/themes.js';
import { ValidationError } from '#domain/errors.js';
import { errorResponses, messageResponse } from '../../schemas.js';
import { cafeResponse, createCafeBody, formDocument, PROFILE_FILE_FIELDS, profileForm, themeBody, updateCafeBody } from './schemas.js';
import { cafeView } from './view.js';
import categoriesRoutes from './categories.js';
import { formRoutes, readMenuForm, storeFormImage } from './form.js';
import groupsRoutes from './groups.js';
import itemsRoutes from './items.js';
import { cafeParams, tags } from './params.js';

const cafeAnswer = z.object({ data: cafeResponse });

const themePreviewAnswer = z
  .object({
    url: z
      .string()
      .meta({ description: 'The menu link’s short URL with `?preview=<id>`: the menu page in this look, framable by the console' }),
    expiresAt: z.string().meta({ description: 'When the preview stops working (ISO 8601); after it the URL shows the saved look' }),
    frameAncestor: z.string().meta({
      description:
        'The one origin that may show the URL in a frame: the console’s that asked (its `Origin`, when that is the origin the request was sent to), else PUBLIC_API_URL’s',
    }),
  })
  .meta({
    example: {
      url: 'https://qr.example.com/cafe-aroma?preview=Q2h4nX0pV7mWc1bYt9LzRg',
      expiresAt: '2026-11-26T18:10:00.000Z',
      frameAncestor: 'https://console.qr.example.com',
    },
  });

const THEMES_DESCRIPTION = MENU_THEME_KEYS.map((key) => `\`${key}\`: ${MENU_THEMES[key].label}`).join('; ');

const routes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  app.get('', {
    config: { auth: { scope: 'cafe.read' } },
    schema: {
      tags,
      summary: "The account's cafes, newest first",
      response: { 200: z.object({ data: z.array(cafeResponse) }), ...errorResponses(401, 429) },
    },
    handler: async (request) => ({ data: (await listCafes(ctx, request.principal.accountId)).map((r) => cafeView(ctx, r)) }),
  });

  app.get('/:id', {
    config: { auth: { scope: 'cafe.read' } },
    schema: { tags, summary: 'One cafe', params: cafeParams, response: { 200: cafeAnswer, ...errorResponses(401, 404, 429) } },
    handler: async (request) => ({ data: cafeView(ctx, await getCafe(ctx, request.principal.accountId, request.params.id)) }),
  });

  app.post('', {
    config: { auth: { scope: 'cafe.create' }, audit: { entity: 'cafe', action: 'create', id: 'response' } },
    schema: {
      tags,
      summary: 'Create a cafe and the menu link that serves it',
      description:
        'Makes, in one transaction, the cafe and a link of type `menu` whose `menu` column is the cafe’s id ' +
        '(`GET /links?menu=<cafe id>` finds it); the answer carries the link. Deleting that link deletes the cafe.',
      body: createCafeBody,
      response: { 200: cafeAnswer, ...errorResponses(401, 409, 413, 429) },
    },
    handler: async (request) => ({ data: cafeView(ctx, await createCafe(ctx, request.principal, request.body)) }),
  });

  app.put('/:id', {
    config: { auth: { scope: 'cafe.update' }, audit: { entity: 'cafe', action: 'update' } },
    schema: {
      tags,
      summary: 'Update a cafe: name, description, time zone, operating hours, facilities, social links, QR styling',
      description:
        'Every member optional; one left out keeps its value. `qr_options` restyle the cafe’s link (checked as PATCH /links/:id). ' +
        'operating_hours: one entry per day at most; a range whose `to` is before its `from` runs past midnight. ' +
        'Contact fields, logo and cover are set only through PUT /cafes/:id/profile.',
      params: cafeParams,
      body: updateCafeBody,
      response: { 200: cafeAnswer, ...errorResponses(401, 404, 429) },
    },
    handler: async (request) => ({
      data: cafeView(ctx, await updateCafe(ctx, request.principal, request.params.id, request.body)),
    }),
  });

  app.put('/:id/theme', {
    config: { auth: { scope: 'cafe.update' }, audit: { entity: 'cafe', action: 'update_theme' } },
    schema: {
      tags,
      summary: 'Set the menu page’s theme and colors',
      description: `Themes: ${THEMES_DESCRIPTION}.`,
      params: cafeParams,
      body: themeBody,
      response: { 200: cafeAnswer, ...errorResponses(401, 404, 429) },
    },
    handler: async (request) => ({
      data: cafeView(ctx, await updateTheme(ctx, request.principal.accountId, request.params.id, request.body)),
    }),
  });

  app.post('/:id/theme/preview', {
    config: { auth: { scope: 'cafe.update' }, audit: { none: 'a preview saves nothing' } },
    schema: {
      tags,
      summary: 'Preview the menu page in a look not saved yet',
      description:
        `Takes the body of PUT /cafes/:id/theme and saves nothing: the URL answered shows the menu page in that look for ${MENU_PREVIEW_TTL_SECONDS / 60} minutes ` +
        '(not cached, not counted as a scan, framable only by the origin of the console that asked, `frameAncestor`). A colour or `showDietarySection` left out keeps the saved value.',
      params: cafeParams,
      body: themeBody,
      response: { 200: themePreviewAnswer, ...errorResponses(401, 404, 429) },
    },
    handler: async (request) =>
      createMenuPreview(
        ctx,
        request.principal.accountId,
        request.params.id,
        request.body,
        consoleOriginOf(request, ctx.config.PUBLIC_API_URL),
      ),
  });

  app.delete('/:id', {
    config: { auth: { scope: 'cafe.delete' }, audit: { entity: 'cafe', action: 'delete' } },
    schema: {
      tags,
      summary: 'Delete a cafe: its groups, categories, items, images and its link (with the link’s scans)',
      params: cafeParams,
      response: { 200: messageResponse, ...errorResponses(401, 404, 429) },
    },
    handler: async (request) => {
      await deleteCafe(ctx, request.principal.accountId, request.params.id);
      return { message: 'Cafe deleted' };
    },
  });

  // The profile is a form: multipart is accepted here and by the nested image routes only.
  await formRoutes(app, async (form) => {
    form.put('/:id/profile', {
      config: { auth: { scope: 'cafe.update' }, audit: { entity: 'cafe', action: 'update_profile' } },
      schema: {
        tags,
        summary: 'Update the cafe’s profile: contact fields, logo and cover (multipart/form-data)',
        description:
          'All fields optional; an empty text field clears it (name cannot be cleared). `logo` and `cover` replace the images; ' +
          '`delete_logo` / `delete_cover` (also accepted as `delete_cafe-cover`) set to `true` remove them. ' +
          'Images: PNG, JPEG, WebP, GIF or SVG (sanitized), typed from their content, up to FILE_SIZE_LIMIT_BYTES.',
        consumes: ['multipart/form-data'],
        params: cafeParams,
        body: formDocument(profileForm, PROFILE_FILE_FIELDS, 'multipart/form-data: the profile’s text fields and its logo and cover files'),
        response: { 200: cafeAnswer, ...errorResponses(401, 404, 413, 415, 429) },
      },
      handler: async (request) => {
        const { accountId } = request.principal;
        await assertCafe(ctx.db, accountId, request.params.id);
        const { fields, files } = await readMenuForm(request, profileForm, PROFILE_FILE_FIELDS);
        const coverFlag = fields.delete_cover === true || fields['delete_cafe-cover'] === true;
        const both = [
          ...(files.has('logo') && fields.delete_logo
            ? [{ path: 'delete_logo', message: 'Send a new logo or delete_logo, not both' }]
            : []),
          ...(files.has('cover') && coverFlag ? [{ path: 'delete_cover', message: 'Send a new cover or delete_cover, not both' }] : []),
        ];
        if (both.length > 0) throw new ValidationError(both);
        const logo = await storeFormImage(request, files, 'logo');
        const cover = await storeFormImage(request, files, 'cover');
        const images = { ...(logo ? { logo } : {}), ...(cover ? { cover } : {}) };
        return { data: cafeView(ctx, await updateProfile(ctx, accountId, request.params.id, fields, images)) };
      },
    });
  });

  await app.register(groupsRoutes, { prefix: '/:id/groups' });
  await app.register(categoriesRoutes, { prefix: '/:id/categories' });
  await app.register(itemsRoutes, { prefix: '/:id/items' });
};

export default routes;
