/** /cafes/:id/categories: JSON, except the image (a form). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createCategory,
  deleteCategory,
  DUPLICATE_CATEGORY_MESSAGE,
  getCategory,
  listCategories,
  reorderCategories,
  setCategoryImage,
  updateCategory,
} from '#domain/cafes/categories.js';
import { ValidationError } from '#domain/errors.js';
import { errorResponses, messageResponse } from '../../schemas.js';
import {
  categoryResponse,
  createCategoryBody,
  formDocument,
  IMAGE_FILE_FIELDS,
  reorderCategoriesBody,
  updateCategoryBody,
} from './schemas.js';
import { categoryView } from './view.js';
import { formRoutes, readImageForm } from './form.js';
import { cafeParams, categoryParams, tags } from './params.js';

const categoryAnswer = z.object({ data: categoryResponse });
const imageForm = z.strictObject({});

const routes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  app.get('', {
    config: { auth: { scope: 'cafe.read' } },
    schema: {
      tags,
      summary: "The cafe's categories, by order then creation",
      params: cafeParams,
      response: { 200: z.object({ data: z.array(categoryResponse) }), ...errorResponses(401, 404, 429) },
    },
    handler: async (request) => ({
      data: (await listCategories(ctx, request.principal.accountId, request.params.id)).map((r) => categoryView(ctx, r)),
    }),
  });

  app.get('/:categoryId', {
    config: { auth: { scope: 'cafe.read' } },
    schema: { tags, summary: 'One category', params: categoryParams, response: { 200: categoryAnswer, ...errorResponses(401, 404, 429) } },
    handler: async (request) => ({
      data: categoryView(ctx, await getCategory(ctx, request.principal.accountId, request.params.id, request.params.categoryId)),
    }),
  });

  app.post('', {
    config: { auth: { scope: 'cafe.update' }, audit: { entity: 'cafe_category', action: 'create', id: 'response' } },
    schema: {
      tags,
      summary: 'Create a category',
      description: `Names are unique within the cafe ignoring case (400 on name: "${DUPLICATE_CATEGORY_MESSAGE}"). group_id must be one of the cafe's groups. Without order it goes after the last one.`,
      params: cafeParams,
      body: createCategoryBody,
      response: { 200: categoryAnswer, ...errorResponses(401, 404, 429) },
    },
    handler: async (request) => ({
      data: categoryView(ctx, await createCategory(ctx, request.principal.accountId, request.params.id, request.body)),
    }),
  });

  app.put('/:categoryId', {
    config: { auth: { scope: 'cafe.update' }, audit: { entity: 'cafe_category', action: 'update', id: { param: 'categoryId' } } },
    schema: {
      tags,
      summary: 'Update a category (members left out keep their values; delete_image true removes its image)',
      params: categoryParams,
      body: updateCategoryBody,
      response: { 200: categoryAnswer, ...errorResponses(401, 404, 429) },
    },
    handler: async (request) => ({
      data: categoryView(
        ctx,
        await updateCategory(ctx, request.principal.accountId, request.params.id, request.params.categoryId, request.body),
      ),
    }),
  });

  app.delete('/:categoryId', {
    config: { auth: { scope: 'cafe.update' }, audit: { entity: 'cafe_category', action: 'delete', id: { param: 'categoryId' } } },
    schema: {
      tags,
      summary: 'Delete a category and its items',
      params: categoryParams,
      response: { 200: messageResponse, ...errorResponses(401, 404, 429) },
    },
    handler: async (request) => {
      await deleteCategory(ctx, request.principal.accountId, request.params.id, request.params.categoryId);
      return { message: 'Category deleted' };
    },
  });

  app.patch('/reorder', {
    config: { auth: { scope: 'cafe.update' }, audit: { entity: 'cafe', action: 'reorder_categories', bulk: true } },
    schema: {
      tags,
      summary: 'Set the categories’ order',
      description:
        'Each id must be one of the cafe’s categories, listed once (else 400 naming the entry, and nothing changes). Categories left out keep their order.',
      params: cafeParams,
      body: reorderCategoriesBody,
      response: { 200: messageResponse, ...errorResponses(401, 404, 429) },
    },
    handler: async (request) => {
      await reorderCategories(ctx, request.principal.accountId, request.params.id, request.body.orders);
      return { message: 'Categories reordered' };
    },
  });

  await formRoutes(app, async (form) => {
    form.put('/:categoryId/image', {
      config: { auth: { scope: 'cafe.update' }, audit: { entity: 'cafe_category', action: 'update_image', id: { param: 'categoryId' } } },
      schema: {
        tags,
        summary: "Set a category's image (multipart/form-data, the file in `image`)",
        consumes: ['multipart/form-data'],
        params: categoryParams,
        body: formDocument(imageForm, IMAGE_FILE_FIELDS, 'multipart/form-data: the image file in `image`'),
        response: { 200: categoryAnswer, ...errorResponses(401, 404, 413, 415, 429) },
      },
      handler: async (request) => {
        const { accountId } = request.principal;
        const { id, categoryId } = request.params;
        await getCategory(ctx, accountId, id, categoryId);
        const { image } = await readImageForm(request, imageForm);
        if (!image) throw new ValidationError([{ path: 'image', message: 'An image file is required' }]);
        return { data: categoryView(ctx, await setCategoryImage(ctx, accountId, id, categoryId, image)) };
      },
    });
  });
};

export default routes;
