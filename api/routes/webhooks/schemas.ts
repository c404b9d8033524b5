/** The webhooks endpoints' request and response schemas. */
import { z } from 'zod';
import { WEBHOOK_EVENTS } from '#domain/webhooks/events.js';
import { DELIVERY_STATES } from '#domain/webhooks/tables.js';
import { MAX_PREVIOUS_SECRET_HOURS } from '#domain/webhooks/endpoints.js';
import { pageQuery } from '../../schemas.js';

const URL_MAX = 2048;
/** Links or folders one endpoint may be limited to. */
const SCOPE_MAX = 100;

const url = z
  .string({ error: 'Must be a string' })
  .min(1, { error: 'Must be an http(s) URL' })
  .max(URL_MAX, { error: `Must be at most ${URL_MAX} characters` })
  .describe('Where events are POSTed: an http(s) URL that resolves to public addresses only');

const description = z
  .string({ error: 'Must be a string' })
  .max(500, { error: 'Must be at most 500 characters' })
  .regex(/^[^\p{Cc}]*$/u, { error: 'Must not contain control characters' })
  .describe('What the endpoint is, for people reading the list');

const events = z
  .array(z.enum(WEBHOOK_EVENTS, { error: `Must be one of: ${WEBHOOK_EVENTS.join(', ')}` }), { error: 'Must be a list of event types' })
  .min(1, { error: 'Choose at least one event' })
  .max(WEBHOOK_EVENTS.length * 2)
  .describe('The events sent to it');

const linkIds = z
  .array(z.string().min(1).max(200), { error: 'Must be a list of link ids' })
  .max(SCOPE_MAX, { error: `At most ${SCOPE_MAX} links` })
  .nullable()
  .optional()
  .describe('Events about links go only for these links (their dynamic_link_id) or those in `folder_ids`; null or absent: every link');

const folderIds = z
  .array(z.string().min(1).max(200), { error: 'Must be a list of folder ids' })
  .max(SCOPE_MAX, { error: `At most ${SCOPE_MAX} folders` })
  .nullable()
  .optional()
  .describe('Events about links go only for links in these folders (or named in `link_ids`); null or absent: every link');

export const createWebhookBody = z.strictObject({
  url,
  description: description.optional(),
  events,
  link_ids: linkIds,
  folder_ids: folderIds,
});

export const updateWebhookBody = z.strictObject({
  url: url.optional(),
  description: description.optional(),
  events: events.optional(),
  link_ids: linkIds,
  folder_ids: folderIds,
  disabled: z
    .boolean({ error: 'Must be true or false' })
    .optional()
    .describe('true turns it off (events are no longer sent to it); false turns it on again and clears its failures'),
});

export const rotateSecretBody = z
  .strictObject({
    keep_previous_hours: z
      .number({ error: 'Must be a number of hours' })
      .int({ error: 'Must be a whole number of hours' })
      .min(0, { error: 'Must be 0 or more' })
      .max(MAX_PREVIOUS_SECRET_HOURS, { error: `Must be at most ${MAX_PREVIOUS_SECRET_HOURS}` })
      .optional()
      .describe('How long the old secret keeps signing beside the new one (both signatures are sent); 0: it stops now; default 24'),
  })
  .nullish();

/** Hours the old secret signs beside the new one when a rotation does not say. */
export const DEFAULT_PREVIOUS_SECRET_HOURS = 24;

export const webhookResponse = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.string()),
  link_ids: z.array(z.string()).nullable(),
  folder_ids: z.array(z.string()).nullable(),
  enabled: z.boolean(),
  disabled_at: z.string().nullable(),
  disabled_reason: z
    .enum(['manual', 'gone', 'failing'])
    .nullable()
    .describe('manual: turned off by the account; gone: the receiver answered 410; failing: it kept failing'),
  consecutive_failures: z.number().int(),
  failing_since: z.string().nullable(),
  last_success_at: z.string().nullable(),
  previous_secret_expires_at: z
    .string()
    .nullable()
    .describe('Until when the secret before the last rotation still signs beside the current one'),
  created_at: z.string(),
  updated_at: z.string(),
});

export const webhookWithSecretResponse = webhookResponse.extend({
  secret: z.string().describe('The signing secret (`whsec_…`): shown only in this answer; keep it with the receiver'),
});

export const attemptResponse = z.object({
  attempted_at: z.string(),
  status: z.number().int().nullable().describe('The receiver’s HTTP status; null when it gave none'),
  duration_ms: z.number().int(),
  response: z.string().describe('The first 4 KB of its answer'),
  error: z.string().nullable().describe('Why no answer came (timeout, connection failed, address not allowed)'),
  trigger: z.enum(['schedule', 'replay', 'test']),
  succeeded: z.boolean(),
});

export const deliveryResponse = z.object({
  id: z.string().describe('The webhook-id header: the same on every attempt and replay'),
  endpoint_id: z.string().describe('The webhook it was sent to'),
  event_type: z.string(),
  state: z.enum(DELIVERY_STATES),
  attempts: z.number().int(),
  last_status: z.number().int().nullable(),
  last_error: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
  created_at: z.string(),
});

export const deliveryDetailResponse = deliveryResponse.extend({
  payload: z.unknown().describe('The body sent: {type, timestamp, data}'),
  attempt_log: z.array(attemptResponse),
});

export const deliveryListQuery = z.strictObject({
  state: z.enum(DELIVERY_STATES).optional().describe('Only deliveries in this state'),
  event_type: z.string().max(64).optional().describe('Only deliveries of this event type'),
  ...pageQuery,
});
