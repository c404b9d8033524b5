/**
 * An account's webhook endpoints (decision 0427): where events go, which events, optionally only
 * about some links or folders; the secret that signs them, shown once when made and when rotated;
 * turning one off and on. A URL is checked when it is given (its scheme, port and every address it
 * resolves to) and again at every delivery.
 */
import { randomBytes } from 'node:crypto';
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Config } from '#platform/config/index.js';
import { isUuid } from '#platform/format/ids.js';
import { checkFetchUrl, resolveAllowed, SafeFetchError, type Resolver } from '#platform/net/safe-fetch.js';
import { parseCidrList } from '#platform/net/ip-ranges.js';
import { within } from '#platform/with-timeout.js';
import type { Database, Executor } from '../database.js';
import { folders, links, webhookEndpoints } from '../schema.js';
import { ConflictError, NotFoundError, ValidationError, type FieldError } from '../errors.js';
import type { WebhookEvent } from './events.js';

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;

/** Endpoints one account may have: enough for every system an agency wires, few enough to fan out cheaply. */
export const WEBHOOKS_PER_ACCOUNT = 20;
/** The longest a rotated-out secret may keep signing beside the new one. */
export const MAX_PREVIOUS_SECRET_HOURS = 168;

export interface EndpointInput {
  url: string;
  description?: string;
  events: WebhookEvent[];
  /** Links (their API ids) the endpoint's link events are limited to; null or absent: no limit by link. */
  linkIds?: string[] | null;
  folderIds?: string[] | null;
}

export type EndpointChange = Partial<EndpointInput> & { disabled?: boolean };

type UrlConfig = Pick<Config, 'WEBHOOK_ALLOW_CIDRS' | 'WEBHOOK_TIMEOUT_MS'>;

/** `whsec_` and 32 random bytes in base64, as the Standard Webhooks libraries read it. */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * The URL, if deliveries to it may be made: http(s), no credentials, an allowed port, and every
 * address its name has public (or in WEBHOOK_ALLOW_CIDRS). A 400 at `url` otherwise, in words.
 */
export async function checkEndpointUrl(config: UrlConfig, url: string, resolve?: Resolver): Promise<string> {
  try {
    const parsed = checkFetchUrl(url);
    // A resolver that never answers costs the request this long, as it would cost a delivery.
    const resolved = await within(
      resolveAllowed(parsed, parseCidrList(config.WEBHOOK_ALLOW_CIDRS), resolve).then(() => true),
      config.WEBHOOK_TIMEOUT_MS,
      false,
    );
    if (!resolved) throw new SafeFetchError('dns');
    return parsed.href;
  } catch (err) {
    if (!(err instanceof SafeFetchError)) throw err;
    const why =
      err.code === 'non_public_address'
        ? 'This URL resolves to a private address; webhooks are only sent to public addresses'
        : err.code === 'dns'
          ? 'This URL’s host could not be resolved; check the name and try again'
          : err.message;
    throw new ValidationError([{ path: 'url', message: why }]);
  }
}

/** The links' and folders' ids for the API's link ids and folder ids, each checked to be the account's. */
async function scopeIds(db: Executor, accountId: string, input: Pick<EndpointInput, 'linkIds' | 'folderIds'>) {
  const errors: FieldError[] = [];
  let linkIds: string[] | null | undefined = input.linkIds === undefined ? undefined : null;
  if (input.linkIds && input.linkIds.length > 0) {
    const wanted = [...new Set(input.linkIds)];
    const rows = await db
      .select({ id: links.id, slug: links.slug })
      .from(links)
      .where(and(eq(links.accountId, accountId), inArray(links.slug, wanted)));
    const bySlug = new Map(rows.map((r) => [r.slug, r.id]));
    wanted.forEach((slug) => {
      if (!bySlug.has(slug))
        errors.push({ path: `link_ids[${input.linkIds!.indexOf(slug)}]`, message: 'No link of this account has this id' });
    });
    linkIds = [...bySlug.values()];
  }
  let folderIds: string[] | null | undefined = input.folderIds === undefined ? undefined : null;
  if (input.folderIds && input.folderIds.length > 0) {
    const wanted = [...new Set(input.folderIds)];
    const valid = wanted.filter(isUuid);
    const rows =
      valid.length === 0
        ? []
        : await db
            .select({ id: folders.id })
            .from(folders)
            .where(and(eq(folders.accountId, accountId), inArray(folders.id, valid)));
    const found = new Set(rows.map((r) => r.id));
    wanted.forEach((id) => {
      if (!found.has(id))
        errors.push({ path: `folder_ids[${input.folderIds!.indexOf(id)}]`, message: 'No folder of this account has this id' });
    });
    folderIds = [...found];
  }
  if (errors.length > 0) throw new ValidationError(errors);
  return { linkIds, folderIds };
}

export async function createEndpoint(
  db: Database,
  config: UrlConfig,
  accountId: string,
  input: EndpointInput,
): Promise<WebhookEndpointRow> {
  const url = await checkEndpointUrl(config, input.url);
  const scope = await scopeIds(db, accountId, input);
  return db.transaction(async (tx) => {
    // Serialises two creates of one account, so both cannot pass the count.
    await tx.execute(sql`select pg_advisory_xact_lock(7340031, hashtext(${accountId}))`);
    const [held] = await tx.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.accountId, accountId));
    if ((held?.n ?? 0) >= WEBHOOKS_PER_ACCOUNT)
      throw new ConflictError('webhook_limit_reached', `An account can have ${WEBHOOKS_PER_ACCOUNT} webhooks; remove one to add another`);
    const [row] = await tx
      .insert(webhookEndpoints)
      .values({
        accountId,
        url,
        description: input.description ?? '',
        events: [...new Set(input.events)],
        linkIds: scope.linkIds ?? null,
        folderIds: scope.folderIds ?? null,
        secret: newSecret(),
      })
      .returning();
    return row!;
  });
}

export async function listEndpoints(db: Database, accountId: string): Promise<WebhookEndpointRow[]> {
  return db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.accountId, accountId))
    .orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id));
}

/** Another account's endpoint is "not found" exactly like a missing one. */
export async function getEndpoint(db: Executor, accountId: string, id: string): Promise<WebhookEndpointRow> {
  if (!isUuid(id)) throw new NotFoundError('Webhook');
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.accountId, accountId)));
  if (!row) throw new NotFoundError('Webhook');
  return row;
}

/**
 * Changes what was given. Turning an endpoint on again clears its failure count, and the
 * deliveries cancelled while it was off stay cancelled (each can be replayed).
 */
export async function updateEndpoint(
  db: Database,
  config: UrlConfig,
  accountId: string,
  id: string,
  change: EndpointChange,
): Promise<WebhookEndpointRow> {
  const current = await getEndpoint(db, accountId, id);
  const url = change.url === undefined ? undefined : await checkEndpointUrl(config, change.url);
  const scope = await scopeIds(db, accountId, change);
  const toggled =
    change.disabled === undefined || change.disabled === (current.disabledAt !== null)
      ? {}
      : change.disabled
        ? { disabledAt: new Date(), disabledReason: 'manual' as const }
        : { disabledAt: null, disabledReason: null, consecutiveFailures: 0, failingSince: null };
  const [row] = await db
    .update(webhookEndpoints)
    .set({
      ...(url === undefined ? {} : { url }),
      ...(change.description === undefined ? {} : { description: change.description }),
      ...(change.events === undefined ? {} : { events: [...new Set(change.events)] }),
      ...(scope.linkIds === undefined ? {} : { linkIds: scope.linkIds }),
      ...(scope.folderIds === undefined ? {} : { folderIds: scope.folderIds }),
      ...toggled,
      updatedAt: new Date(),
    })
    .where(and(eq(webhookEndpoints.id, current.id), eq(webhookEndpoints.accountId, accountId)))
    .returning();
  if (!row) throw new NotFoundError('Webhook');
  return row;
}

/** Removes the endpoint with its deliveries, their attempts and its waiting scans. */
export async function deleteEndpoint(db: Database, accountId: string, id: string): Promise<void> {
  const current = await getEndpoint(db, accountId, id);
  await db.delete(webhookEndpoints).where(and(eq(webhookEndpoints.id, current.id), eq(webhookEndpoints.accountId, accountId)));
}

/**
 * A new secret signs from now on; the old one signs beside it for `keepPreviousHours` (0: not at
 * all), so receivers can move to the new one without missing a delivery.
 */
export async function rotateSecret(
  db: Database,
  accountId: string,
  id: string,
  keepPreviousHours: number,
  now = new Date(),
): Promise<WebhookEndpointRow> {
  const current = await getEndpoint(db, accountId, id);
  const keep = keepPreviousHours > 0;
  const [row] = await db
    .update(webhookEndpoints)
    .set({
      secret: newSecret(),
      previousSecret: keep ? current.secret : null,
      previousSecretExpiresAt: keep ? new Date(now.getTime() + keepPreviousHours * 3_600_000) : null,
      updatedAt: now,
    })
    .where(and(eq(webhookEndpoints.id, current.id), eq(webhookEndpoints.accountId, accountId)))
    .returning();
  return row!;
}

/** The links' API ids of an endpoint limited to some links (for its answer). */
export async function linkSlugsOf(db: Executor, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: links.id, slug: links.slug })
    .from(links)
    .where(inArray(links.id, [...ids]));
  return new Map(rows.map((r) => [r.id, r.slug]));
}
