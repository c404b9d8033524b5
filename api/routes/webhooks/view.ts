import type { WebhookEndpointRow } from '#domain/webhooks/endpoints.js';
import type { AttemptRow, DeliveryRow } from '#domain/webhooks/log.js';

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** An endpoint as the API answers it (webhookResponse): never its secret, which only create and rotate show. */
export function webhookView(row: WebhookEndpointRow, linkSlugs: Map<string, string>) {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events,
    link_ids: row.linkIds?.flatMap((id) => (linkSlugs.has(id) ? [linkSlugs.get(id)!] : [])) ?? null,
    folder_ids: row.folderIds,
    enabled: row.disabledAt === null,
    disabled_at: iso(row.disabledAt),
    disabled_reason: row.disabledReason,
    consecutive_failures: row.consecutiveFailures,
    failing_since: iso(row.failingSince),
    last_success_at: iso(row.lastSuccessAt),
    previous_secret_expires_at: row.previousSecret ? iso(row.previousSecretExpiresAt) : null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function deliveryView(row: DeliveryRow) {
  return {
    id: row.id,
    endpoint_id: row.endpointId,
    event_type: row.eventType,
    state: row.state,
    attempts: row.attempts,
    last_status: row.lastStatus,
    last_error: row.lastError,
    next_attempt_at: row.state === 'pending' ? iso(row.nextAttemptAt) : null,
    delivered_at: iso(row.deliveredAt),
    created_at: row.createdAt.toISOString(),
  };
}

export function deliveryDetailView(row: DeliveryRow, attempts: AttemptRow[]) {
  return {
    ...deliveryView(row),
    payload: JSON.parse(row.body) as unknown,
    attempt_log: attempts.map((a) => ({
      attempted_at: a.attemptedAt.toISOString(),
      status: a.status,
      duration_ms: a.durationMs,
      response: a.response,
      error: a.error,
      trigger: a.trigger,
      succeeded: a.succeeded,
    })),
  };
}
