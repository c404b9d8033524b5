/**
 * One attempt of a delivery: signed now, POSTed through the SSRF-safe client within
 * WEBHOOK_TIMEOUT_MS, and its outcome written in one transaction: the attempt (status, duration,
 * the answer's first 4 KB), the delivery's state, and the endpoint's run of failures. A 2xx is
 * delivered; a 410 turns the endpoint off (the receiver said it wants no more); any other answer,
 * or none, is retried on the schedule until it runs out. An endpoint failing for
 * WEBHOOK_DISABLE_AFTER_FAILURES attempts in a row, over at least WEBHOOK_DISABLE_AFTER_MS, is
 * turned off and its account's owners and admins are told by mail.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Config } from '#platform/config/index.js';
import type { Logger } from '#platform/logger.js';
import type { Mailer } from '#platform/mail/index.js';
import { safePost, SafeFetchError } from '#platform/net/safe-fetch.js';
import type { Database } from '../database.js';
import { accounts, memberships, users, webhookAttempts, webhookDeliveries, webhookEndpoints } from '../schema.js';
import { webhookDisabledMail } from '../people/mails.js';
import { signedHeaders } from './signing.js';

/** How much of an answer the delivery log keeps. */
export const KEPT_ANSWER_BYTES = 4096;

export interface AttemptContext {
  db: Database;
  config: Pick<
    Config,
    'WEBHOOK_ALLOW_CIDRS' | 'WEBHOOK_TIMEOUT_MS' | 'WEBHOOK_DISABLE_AFTER_FAILURES' | 'WEBHOOK_DISABLE_AFTER_MS' | 'PUBLIC_API_URL'
  >;
  mailer: Mailer;
  logger: Logger;
}

export interface AttemptOptions {
  /** schedule: the delivery's own attempts; test: an endpoint's one test event; replay: one more attempt asked for by hand. */
  trigger: 'schedule' | 'replay' | 'test';
  /** When the next attempt comes if this one fails; null: this is the last one. */
  retryInMs: number | null;
  now?: () => Date;
}

export type AttemptResult =
  | { outcome: 'delivered'; status: number }
  | { outcome: 'failed'; status: number | null; error: string | null; retry: boolean }
  /** Nothing was sent: the delivery is gone, already settled, or its endpoint is off. */
  | { outcome: 'skipped' };

/** Text a Postgres column can hold, whatever bytes came back. */
function answerText(head: Buffer): string {
  return head.toString('utf8').replace(/\u0000/g, '\uFFFD');
}

export async function attemptDelivery(ctx: AttemptContext, deliveryId: string, opts: AttemptOptions): Promise<AttemptResult> {
  const now = opts.now ?? (() => new Date());
  const [found] = await ctx.db
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(eq(webhookDeliveries.id, deliveryId));
  if (!found) return { outcome: 'skipped' };
  const { delivery, endpoint } = found;
  if (opts.trigger === 'schedule') {
    if (delivery.state !== 'pending') return { outcome: 'skipped' };
    if (endpoint.disabledAt !== null) {
      await ctx.db
        .update(webhookDeliveries)
        .set({ state: 'cancelled', updatedAt: now() })
        .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.state, 'pending')));
      return { outcome: 'skipped' };
    }
  }

  const sentAt = now();
  const started = performance.now();
  let status: number | null = null;
  let answer = '';
  let error: string | null = null;
  try {
    const res = await safePost(endpoint.url, {
      body: delivery.body,
      headers: signedHeaders(endpoint, delivery.id, delivery.body, sentAt),
      timeoutMs: ctx.config.WEBHOOK_TIMEOUT_MS,
      keepBytes: KEPT_ANSWER_BYTES,
      allowCidrs: ctx.config.WEBHOOK_ALLOW_CIDRS,
    });
    status = res.status;
    answer = answerText(res.head);
  } catch (err) {
    error = err instanceof SafeFetchError ? err.message : 'connection failed';
  }
  const durationMs = Math.round(performance.now() - started);
  const succeeded = status !== null && status >= 200 && status <= 299;
  const gone = status === 410;
  const retry = !succeeded && !gone && opts.retryInMs !== null;
  const at = now();

  const disabled = await ctx.db.transaction(async (tx) => {
    await tx.insert(webhookAttempts).values({
      deliveryId: delivery.id,
      attemptedAt: sentAt,
      status,
      durationMs,
      response: answer,
      error,
      trigger: opts.trigger,
      succeeded,
    });
    const settled =
      opts.trigger === 'replay'
        ? succeeded
          ? { state: 'delivered' as const, deliveredAt: at }
          : {}
        : succeeded
          ? { state: 'delivered' as const, deliveredAt: at, nextAttemptAt: null }
          : retry
            ? { nextAttemptAt: new Date(at.getTime() + opts.retryInMs!) }
            : { state: 'failed' as const, nextAttemptAt: null };
    await tx
      .update(webhookDeliveries)
      .set({ attempts: sql`${webhookDeliveries.attempts} + 1`, lastStatus: status, lastError: error, updatedAt: at, ...settled })
      .where(eq(webhookDeliveries.id, delivery.id));
    if (succeeded) {
      await tx
        .update(webhookEndpoints)
        .set({ consecutiveFailures: 0, failingSince: null, lastSuccessAt: at })
        .where(eq(webhookEndpoints.id, endpoint.id));
      return null;
    }
    const [counted] = await tx
      .update(webhookEndpoints)
      .set({
        consecutiveFailures: sql`${webhookEndpoints.consecutiveFailures} + 1`,
        failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${sentAt.toISOString()}::timestamptz)`,
      })
      .where(eq(webhookEndpoints.id, endpoint.id))
      .returning({
        failures: webhookEndpoints.consecutiveFailures,
        since: webhookEndpoints.failingSince,
        off: webhookEndpoints.disabledAt,
      });
    if (!counted || counted.off !== null) return null;
    const failing =
      counted.failures >= ctx.config.WEBHOOK_DISABLE_AFTER_FAILURES &&
      counted.since !== null &&
      at.getTime() - counted.since.getTime() >= ctx.config.WEBHOOK_DISABLE_AFTER_MS;
    if (!gone && !failing) return null;
    const reason = gone ? ('gone' as const) : ('failing' as const);
    await tx
      .update(webhookEndpoints)
      .set({ disabledAt: at, disabledReason: reason, updatedAt: at })
      .where(eq(webhookEndpoints.id, endpoint.id));
    return { reason, failures: counted.failures };
  });
  if (disabled) await tellAccount(ctx, endpoint, disabled.reason, disabled.failures);
  if (succeeded) return { outcome: 'delivered', status: status! };
  return { outcome: 'failed', status, error, retry };
}

/** Mails the account's owners and admins that an endpoint was turned off; a failed mail is logged, never retried. */
async function tellAccount(
  ctx: AttemptContext,
  endpoint: { accountId: string; url: string },
  reason: 'gone' | 'failing',
  failures: number,
): Promise<void> {
  const people = await ctx.db
    .select({ email: users.email, accountName: accounts.name })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .innerJoin(accounts, eq(accounts.id, memberships.accountId))
    .where(and(eq(memberships.accountId, endpoint.accountId), inArray(memberships.role, ['owner', 'admin'])));
  const link = `${new URL(ctx.config.PUBLIC_API_URL).origin}/#/webhooks`;
  for (const person of people) {
    const mail = webhookDisabledMail({ accountName: person.accountName, url: endpoint.url, reason, failures, link });
    const sent = await ctx.mailer.send({ to: person.email, ...mail }).catch((err: unknown) => ({ delivered: false, error: String(err) }));
    if (!sent.delivered) ctx.logger.info({ to: person.email }, 'webhook disabled mail not delivered');
  }
  ctx.logger.warn({ accountId: endpoint.accountId, reason }, 'webhook endpoint turned off');
}
