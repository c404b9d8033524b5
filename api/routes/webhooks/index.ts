/**
 * An account's webhooks (decision 0427): its admins' (with a key of every scope), reading as well
 * as changing, since an endpoint receives what happens across the whole account and its delivery
 * log holds what other systems answered. Signing secrets are answered only when made (create,
 * rotate).
 */
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  linkSlugsOf,
  listEndpoints,
  rotateSecret,
  updateEndpoint,
  type WebhookEndpointRow,
} from '#domain/webhooks/endpoints.js';
import { createTestDelivery, getDelivery, listDeliveries, type DeliveryRow } from '#domain/webhooks/log.js';
import { sendNow } from '#infra/webhooks/send-now.js';
import { messageResponse, pageMeta, resourceParams } from '../../schemas.js';
import {
  createWebhookBody,
  DEFAULT_PREVIOUS_SECRET_HOURS,
  deliveryDetailResponse,
  deliveryListQuery,
  deliveryResponse,
  rotateSecretBody,
  updateWebhookBody,
  webhookResponse,
  webhookWithSecretResponse,
} from './schemas.js';
import { deliveryDetailView, deliveryView, webhookView } from './view.js';

const idParams = resourceParams('id', 'Webhook');
const deliveryParams = resourceParams('deliveryId', 'Delivery');
const tags = ['webhooks'];
const admin = { scope: 'all', role: 'admin' } as const;

const SENT_NOW =
  'The attempt is made at once, through the same signing and address checks as every delivery; the answer waits for it (up to WEBHOOK_TIMEOUT_MS and 2 s) and carries its outcome in `attempt_log`, or is 202 with the delivery as it stands.';

const routes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.ctx;
  const views = async (rows: WebhookEndpointRow[]) => {
    const slugs = await linkSlugsOf(db, [...new Set(rows.flatMap((r) => r.linkIds ?? []))]);
    return rows.map((row) => webhookView(row, slugs));
  };
  const view = async (row: WebhookEndpointRow) => (await views([row]))[0]!;
  const detail = async (accountId: string, deliveryId: string) => {
    const { delivery, attempts } = await getDelivery(db, accountId, deliveryId);
    return deliveryDetailView(delivery, attempts);
  };

  /** One attempt now; 200 with its outcome, or 202 with the delivery as it stands when it takes longer. */
  const sentNow = async (reply: FastifyReply, accountId: string, delivery: DeliveryRow, trigger: 'test' | 'replay') => {
    const { attempted } = await sendNow(app.ctx, delivery, trigger);
    return reply.code(attempted ? 200 : 202).send({ data: await detail(accountId, delivery.id) });
  };

  app.get('', {
    config: { auth: admin },
    schema: {
      tags,
      summary: 'The account’s webhooks, newest first',
      response: { 200: z.object({ data: z.array(webhookResponse) }) },
    },
    handler: async (request) => ({ data: await views(await listEndpoints(db, request.principal.accountId)) }),
  });

  app.post('', {
    config: { auth: admin, audit: { entity: 'webhook', action: 'create', id: 'response' } },
    schema: {
      tags,
      summary: 'Add a webhook: where to POST which events; its signing secret is in this answer only',
      body: createWebhookBody,
      response: { 201: webhookWithSecretResponse },
    },
    handler: async (request, reply) => {
      const { url, description, events, link_ids, folder_ids } = request.body;
      const row = await createEndpoint(db, config, request.principal.accountId, {
        url,
        description,
        events,
        linkIds: link_ids,
        folderIds: folder_ids,
      });
      return reply.code(201).send({ ...(await view(row)), secret: row.secret });
    },
  });

  app.get('/:id', {
    config: { auth: admin },
    schema: { tags, summary: 'A webhook', params: idParams, response: { 200: z.object({ data: webhookResponse }) } },
    handler: async (request) => ({ data: await view(await getEndpoint(db, request.principal.accountId, request.params.id)) }),
  });

  app.patch('/:id', {
    config: { auth: admin, audit: { entity: 'webhook', action: 'update' } },
    schema: {
      tags,
      summary: 'Change a webhook’s URL, events or links, or turn it off or on',
      params: idParams,
      body: updateWebhookBody,
      response: { 200: z.object({ data: webhookResponse }) },
    },
    handler: async (request) => {
      const { url, description, events, link_ids, folder_ids, disabled } = request.body;
      const row = await updateEndpoint(db, config, request.principal.accountId, request.params.id, {
        url,
        description,
        events,
        linkIds: link_ids,
        folderIds: folder_ids,
        disabled,
      });
      return { data: await view(row) };
    },
  });

  app.delete('/:id', {
    config: { auth: admin, audit: { entity: 'webhook', action: 'delete' } },
    schema: {
      tags,
      summary: 'Remove a webhook with its delivery log; deliveries still being retried are dropped',
      params: idParams,
      response: { 200: messageResponse },
    },
    handler: async (request) => {
      await deleteEndpoint(db, request.principal.accountId, request.params.id);
      return { message: 'Webhook deleted' };
    },
  });

  app.post('/:id/rotate-secret', {
    config: { auth: admin, audit: { entity: 'webhook', action: 'rotate_secret' } },
    schema: {
      tags,
      summary: 'A new signing secret (in this answer only); the old one keeps signing beside it for `keep_previous_hours`',
      params: idParams,
      body: rotateSecretBody,
      response: { 200: webhookWithSecretResponse },
    },
    handler: async (request) => {
      const keep = request.body?.keep_previous_hours ?? DEFAULT_PREVIOUS_SECRET_HOURS;
      const row = await rotateSecret(db, request.principal.accountId, request.params.id, keep);
      return { ...(await view(row)), secret: row.secret };
    },
  });

  app.post('/:id/test', {
    config: { auth: admin, audit: { entity: 'webhook', action: 'test' } },
    schema: {
      tags,
      summary: 'Send a `webhook.test` event to the webhook now, even while it is turned off; not retried',
      description: SENT_NOW,
      params: idParams,
      response: { 200: z.object({ data: deliveryDetailResponse }), 202: z.object({ data: deliveryDetailResponse }) },
    },
    handler: async (request, reply) => {
      const { accountId } = request.principal;
      return sentNow(reply, accountId, await createTestDelivery(db, accountId, request.params.id), 'test');
    },
  });

  app.get('/:id/deliveries', {
    config: { auth: admin },
    schema: {
      tags,
      summary: 'The webhook’s deliveries of the last 30 days, newest first, a page at a time',
      params: idParams,
      querystring: deliveryListQuery,
      response: { 200: z.object({ data: z.array(deliveryResponse), meta: pageMeta.extend({ total: z.number().int() }) }) },
    },
    handler: async (request) => {
      const { state, event_type, page, size } = request.query;
      const { rows, total } = await listDeliveries(db, request.principal.accountId, request.params.id, {
        state,
        eventType: event_type,
        page,
        limit: size,
      });
      return { data: rows.map(deliveryView), meta: { currentPage: page, totalPages: Math.max(1, Math.ceil(total / size)), total } };
    },
  });

  app.get('/deliveries/:deliveryId', {
    config: { auth: admin },
    schema: {
      tags,
      summary: 'One delivery: the body sent and every attempt (status, duration, the first 4 KB of the answer)',
      params: deliveryParams,
      response: { 200: z.object({ data: deliveryDetailResponse }) },
    },
    handler: async (request) => ({ data: await detail(request.principal.accountId, request.params.deliveryId) }),
  });

  app.post('/deliveries/:deliveryId/replay', {
    config: { auth: admin, audit: { entity: 'webhook_delivery', action: 'replay', id: { param: 'deliveryId' } } },
    schema: {
      tags,
      summary: 'Send a delivery again, with its own body and webhook-id (receivers that saw it can tell), signed now',
      description: SENT_NOW,
      params: deliveryParams,
      response: { 200: z.object({ data: deliveryDetailResponse }), 202: z.object({ data: deliveryDetailResponse }) },
    },
    handler: async (request, reply) => {
      const { accountId } = request.principal;
      return sentNow(reply, accountId, (await getDelivery(db, accountId, request.params.deliveryId)).delivery, 'replay');
    },
  });
};

export default routes;
