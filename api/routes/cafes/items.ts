/**
 * /cafes/:id/items: create and update are forms (an optional image); the rest JSON or no body.
 * bulk-insert replaces the whole menu through a cafe-bulk-insert job (api/job-reply.ts).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createItem, deleteItem, getItem, listItemIds, readItems, reorderItems, setItemVisible, updateItem } from '#domain/cafes/items.js';
import { assertCafe } from '#domain/cafes/cafes.js';
import type { CafeBulkInsertPayload } from '#domain/cafes/bulk-insert-schema.js';
import { bulkInsertBody, bulkInsertResult, GENERAL_GROUP } from '#domain/cafes/bulk-insert-schema.js';
import { MENU_ITEMS_MAX } from '#domain/cafes/schema-parts.js';
import { errorResponses, messageResponse } from '../../schemas.js';
import { jsonChunks, sendJsonPage } from '../../json-stream.js';
import { createJsonBodyChecker } from '../../json-body-thread.js';
import { bodyCheckedByHandler } from '../../plugins/app/validation.js';
import {
  createItemForm,
  formDocument,
  IMAGE_FILE_FIELDS,
  itemResponse,
  listItemsQuery,
  reorderItemsBody,
  updateItemForm,
} from './schemas.js';
import { itemView } from './view.js';
import { acceptedJobResponse, answerQueuedJob, IDEMPOTENCY_DESCRIPTION, idempotentJobHeaders, startRequestJob } from '../../job-reply.js';
import { formRoutes, readImageForm } from './form.js';
import { cafeParams, itemParams, tags } from './params.js';

const itemAnswer = z.object({ data: itemResponse });

const FORM_DESCRIPTION =
  'Booleans (visible, is_featured, is_new, is_recommended, delete_image) are the text true or false. price: a number ≥ 0 ' +
  'with at most 3 decimals; currency: ISO 4217 (default USD); spice_level: none, mild, medium, hot or extra_hot. ' +
  'ingredients, tags, allergens: one field per entry (repeated), or one field holding a JSON array of strings. ' +
  'category_id must be one of the cafe’s categories. Without order the item goes after the last of its category.';

/** Items read per query while the list streams: this many first, then as many as make about ITEMS_CHUNK_BYTES of JSON. */
const ITEMS_FIRST_CHUNK = 50;
const ITEMS_CHUNK_BYTES = 512 * 1024;

/** A bulk insert's body may be far past BODY_LIMIT_BYTES: 5000 entries with descriptions and ingredients. */
const BULK_INSERT_BODY_LIMIT_BYTES = 16 * 1024 * 1024;

const routes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  // The bulk insert's body is read as bytes and parsed and checked in a thread (decision 0361):
  // on the event loop, 14 MB took seconds from every other account's requests.
  const bodies = createJsonBodyChecker();
  app.addHook('onClose', () => bodies.close());
  // The bytes as they came, by request: `request.body` is typed by the schema the docs show.
  const bodyBytes = new WeakMap<object, Buffer>();
  const bulkInsertRoute: FastifyPluginAsyncZod = async (bulk) => {
    bulk.removeContentTypeParser('application/json');
    bulk.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
      bodyBytes.set(request, Buffer.isBuffer(body) ? body : Buffer.from(body));
      done(null, body);
    });
    bulk.post('/bulk-insert', {
      config: { auth: { scope: 'cafe.update' }, audit: { entity: 'cafe', action: 'replace_menu', bulk: true } },
      bodyLimit: BULK_INSERT_BODY_LIMIT_BYTES,
      validatorCompiler: bodyCheckedByHandler,
      schema: {
        tags,
        summary: 'Replace the whole menu: delete every item, category and group, then insert these items',
        description:
          `1 to ${MENU_ITEMS_MAX} entries, all checked before anything changes (a 400 names each bad entry's field, ` +
          '`items[17].price`). Groups are made by name (ignoring case, first spelling kept), in order of first appearance; ' +
          `entries without a group go to a group named ${GENERAL_GROUP}. Categories are made by name in their entry's group, ` +
          'matched ignoring case and kept as first written (Coffee, then coffee: one category named Coffee); a category ' +
          "named under two groups is a 400 on the later entry's `group`. Items keep the request's " +
          'order. The replacement is one transaction: the old menu stays whole until the new one is in. Images of what is ' +
          'deleted are released. Runs as a job: answers its result when it finishes within JOB_WAIT_MS, else (or with ' +
          '`Prefer: respond-async`) 202 with the job to poll at GET /jobs/{jobId}, whose result is the same object. ' +
          `Body up to ${BULK_INSERT_BODY_LIMIT_BYTES / 1024 / 1024} MiB (413 past it). ${IDEMPOTENCY_DESCRIPTION}`,
        params: cafeParams,
        headers: idempotentJobHeaders,
        body: bulkInsertBody,
        response: { 200: z.object({ data: bulkInsertResult }), 202: acceptedJobResponse, ...errorResponses(401, 404, 409, 413, 429, 503) },
      },
      handler: async (request, reply) => {
        const { accountId } = request.principal;
        // The schema documents the body; the thread applies it (the parser left the bytes as they
        // came), before the cafe is looked up, as the schema was.
        const bytes = bodyBytes.get(request) ?? Buffer.alloc(0);
        const { packedItems } = await bodies.check(accountId, 'cafe-bulk-insert', bytes);
        await assertCafe(ctx.db, accountId, request.params.id);
        const payload: CafeBulkInsertPayload = { cafeId: request.params.id.toLowerCase(), packedItems };
        const jobId = await startRequestJob(request, { queue: 'cafe-bulk-insert', payload }, payload);
        return answerQueuedJob(request, reply, 'cafe-bulk-insert', jobId, async (job) => reply.send({ data: job.result }));
      },
    });
  };
  await app.register(bulkInsertRoute);

  app.get('', {
    config: { auth: { scope: 'cafe.read' } },
    schema: {
      tags,
      summary: "The cafe's items (hidden ones too), by order then creation",
      params: cafeParams,
      querystring: listItemsQuery,
      response: { 200: z.object({ data: z.array(itemResponse) }), ...errorResponses(401, 404, 429) },
    },
    // Streamed like the links list (decisions 0106, 0361): 5000 items with full descriptions are ~16 MB of
    // JSON, which built whole cost a second of the event loop and hundreds of MB.
    handler: async (request, reply) => {
      const { accountId } = request.principal;
      const cafeId = request.params.id;
      const ids = await listItemIds(ctx, accountId, cafeId, request.query.category_id);
      const items = jsonChunks(ids, {
        read: (chunk) => readItems(ctx.db, cafeId, chunk),
        view: (row) => itemView(ctx, row),
        firstChunkItems: ITEMS_FIRST_CHUNK,
        chunkBytes: ITEMS_CHUNK_BYTES,
        turnKey: accountId,
      });
      return sendJsonPage(reply, items);
    },
  });

  app.get('/:itemId', {
    config: { auth: { scope: 'cafe.read' } },
    schema: { tags, summary: 'One item', params: itemParams, response: { 200: itemAnswer, ...errorResponses(401, 404, 429) } },
    handler: async (request) => ({
      data: itemView(ctx, await getItem(ctx, request.principal.accountId, request.params.id, request.params.itemId)),
    }),
  });

  app.delete('/:itemId', {
    config: { auth: { scope: 'cafe.update' }, audit: { entity: 'cafe_item', action: 'delete', id: { param: 'itemId' } } },
    schema: { tags, summary: 'Delete an item', params: itemParams, response: { 200: messageResponse, ...errorResponses(401, 404, 429) } },
    handler: async (request) => {
      await deleteItem(ctx, request.principal.accountId, request.params.id, request.params.itemId);
      return { message: 'Item deleted' };
    },
  });

  for (const [action, visible] of [
    ['hide', false],
    ['show', true],
  ] as const) {
    app.post(`/:itemId/${action}`, {
      config: { auth: { scope: 'cafe.update' }, audit: { entity: 'cafe_item', action, id: { param: 'itemId' } } },
      schema: {
        tags,
        summary: visible ? 'Show a hidden item on the menu page' : 'Hide an item from the menu page (it stays in the API’s lists)',
        params: itemParams,
        response: { 200: messageResponse, ...errorResponses(401, 404, 429) },
      },
      handler: async (request) => {
        await setItemVisible(ctx, request.principal.accountId, request.params.id, request.params.itemId, visible);
        return { message: visible ? 'Item shown' : 'Item hidden' };
      },
    });
  }

  app.patch('/reorder', {
    config: { auth: { scope: 'cafe.update' }, audit: { entity: 'cafe', action: 'reorder_items', bulk: true } },
    schema: {
      tags,
      summary: 'Set the items’ order (the body is the array itself)',
      description:
        'Each id must be one of the cafe’s items, listed once (else 400 naming the entry, and nothing changes). Items left out keep their order.',
      params: cafeParams,
      body: reorderItemsBody,
      response: { 200: messageResponse, ...errorResponses(401, 404, 429) },
    },
    handler: async (request) => {
      await reorderItems(ctx, request.principal.accountId, request.params.id, request.body);
      return { message: 'Items reordered' };
    },
  });

  await formRoutes(app, async (form) => {
    form.post('', {
      config: { auth: { scope: 'cafe.update' }, audit: { entity: 'cafe_item', action: 'create', id: 'response' } },
      schema: {
        tags,
        summary: 'Create an item (multipart/form-data)',
        description: `${FORM_DESCRIPTION} A cafe holds at most ${MENU_ITEMS_MAX} items (hidden ones too): past it, a 409.`,
        consumes: ['multipart/form-data'],
        params: cafeParams,
        body: formDocument(createItemForm, IMAGE_FILE_FIELDS, 'multipart/form-data: the item’s fields and an optional image'),
        response: { 200: itemAnswer, ...errorResponses(401, 404, 409, 413, 415, 429) },
      },
      handler: async (request) => {
        const { accountId } = request.principal;
        await assertCafe(ctx.db, accountId, request.params.id);
        const { fields, image } = await readImageForm(request, createItemForm);
        return { data: itemView(ctx, await createItem(ctx, accountId, request.params.id, fields, image)) };
      },
    });

    form.put('/:itemId', {
      config: { auth: { scope: 'cafe.update' }, audit: { entity: 'cafe_item', action: 'update', id: { param: 'itemId' } } },
      schema: {
        tags,
        summary: 'Update an item (multipart/form-data; fields left out keep their values)',
        description: `${FORM_DESCRIPTION} \`image\` replaces the image, \`delete_image\` = true removes it.`,
        consumes: ['multipart/form-data'],
        params: itemParams,
        body: formDocument(updateItemForm, IMAGE_FILE_FIELDS, 'multipart/form-data: any of the item’s fields and an optional image'),
        response: { 200: itemAnswer, ...errorResponses(401, 404, 413, 415, 429) },
      },
      handler: async (request) => {
        const { accountId } = request.principal;
        const { id, itemId } = request.params;
        await getItem(ctx, accountId, id, itemId);
        const { fields, image } = await readImageForm(request, updateItemForm);
        return { data: itemView(ctx, await updateItem(ctx, accountId, id, itemId, fields, image)) };
      },
    });
  });
};

export default routes;
