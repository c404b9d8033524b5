/** /cafes/:id/groups: the menu's top level. Create and update are forms (an optional image). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { assertCafe } from '#domain/cafes/cafes.js';
import { createGroup, deleteGroup, getGroup, listGroups, reorderGroups, updateGroup } from '#domain/cafes/groups.js';
import { errorResponses, messageResponse } from '../../schemas.js';
import { createGroupForm, formDocument, groupResponse, IMAGE_FILE_FIELDS, reorderGroupsBody, updateGroupForm } from './schemas.js';
import { groupView } from './view.js';
import { formRoutes, readImageForm } from './form.js';
import { cafeParams, groupParams, tags } from './params.js';

const groupAnswer = z.object({ data: groupResponse });

const routes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  app.get('', {
    config: { auth: { scope: 'cafe.read' } },
    schema: {
      tags,
      summary: "The cafe's groups, by order then creation",
      params: cafeParams,
      response: { 200: z.object({ data: z.array(groupResponse) }), ...errorResponses(401, 404, 429) },
    },
    handler: async (request) => ({
      data: (await listGroups(ctx, request.principal.accountId, request.params.id)).map((r) => groupView(ctx, r)),
    }),
  });

  app.get('/:groupId', {
    config: { auth: { scope: 'cafe.read' } },
    schema: { tags, summary: 'One group', params: groupParams, response: { 200: groupAnswer, ...errorResponses(401, 404, 429) } },
    handler: async (request) => ({
      data: groupView(ctx, await getGroup(ctx, request.principal.accountId, request.params.id, request.params.groupId)),
    }),
  });

  app.delete('/:groupId', {
    config: { auth: { scope: 'cafe.delete' }, audit: { entity: 'cafe_group', action: 'delete', id: { param: 'groupId' } } },
    schema: {
      tags,
      summary: 'Delete a group; its categories stay, ungrouped (group_id null)',
      params: groupParams,
      response: { 200: messageResponse, ...errorResponses(401, 404, 429) },
    },
    handler: async (request) => {
      await deleteGroup(ctx, request.principal.accountId, request.params.id, request.params.groupId);
      return { message: 'Group deleted' };
    },
  });

  app.patch('/reorder', {
    config: { auth: { scope: 'cafe.update' }, audit: { entity: 'cafe', action: 'reorder_groups', bulk: true } },
    schema: {
      tags,
      summary: 'Set the groups’ order',
      description:
        'Each id must be one of the cafe’s groups, listed once (else 400 naming the entry, and nothing changes). Groups left out keep their order.',
      params: cafeParams,
      body: reorderGroupsBody,
      response: { 200: messageResponse, ...errorResponses(401, 404, 429) },
    },
    handler: async (request) => {
      await reorderGroups(ctx, request.principal.accountId, request.params.id, request.body.orders);
      return { message: 'Groups reordered' };
    },
  });

  await formRoutes(app, async (form) => {
    form.post('', {
      config: { auth: { scope: 'cafe.update' }, audit: { entity: 'cafe_group', action: 'create', id: 'response' } },
      schema: {
        tags,
        summary: 'Create a group (multipart/form-data)',
        description: 'Without `order` the group goes after the last one. `visible` is the text true or false (default true).',
        consumes: ['multipart/form-data'],
        params: cafeParams,
        body: formDocument(
          createGroupForm,
          IMAGE_FILE_FIELDS,
          'multipart/form-data: name (required), visible, order, and an optional image',
        ),
        response: { 200: groupAnswer, ...errorResponses(401, 404, 413, 415, 429) },
      },
      handler: async (request) => {
        const { accountId } = request.principal;
        await assertCafe(ctx.db, accountId, request.params.id);
        const { fields, image } = await readImageForm(request, createGroupForm);
        return { data: groupView(ctx, await createGroup(ctx, accountId, request.params.id, fields, image)) };
      },
    });

    form.put('/:groupId', {
      config: { auth: { scope: 'cafe.update' }, audit: { entity: 'cafe_group', action: 'update', id: { param: 'groupId' } } },
      schema: {
        tags,
        summary: 'Update a group (multipart/form-data)',
        description: 'Fields left out keep their values; `image` replaces the image, `delete_image` = true removes it.',
        consumes: ['multipart/form-data'],
        params: groupParams,
        body: formDocument(
          updateGroupForm,
          IMAGE_FILE_FIELDS,
          'multipart/form-data: name, visible, order, delete_image, and an optional image',
        ),
        response: { 200: groupAnswer, ...errorResponses(401, 404, 413, 415, 429) },
      },
      handler: async (request) => {
        const { accountId } = request.principal;
        const { id, groupId } = request.params;
        await getGroup(ctx, accountId, id, groupId);
        const { fields, image } = await readImageForm(request, updateGroupForm);
        return { data: groupView(ctx, await updateGroup(ctx, accountId, id, groupId, fields, image)) };
      },
    });
  });
};

export default routes;
