/**
 * What `link.*` events tell of a link: who it is (the API's id, its short URL and domain) and the
 * little a receiver needs to act without asking back; never its password or its files.
 */
import type { Config } from '#platform/config/index.js';
import type { Executor } from '../database.js';
import type { links } from '../schema.js';
import { defaultHostname, linkShortUrl } from '../links/link-addresses.js';
import { recordEvent, type WebhookEvent } from './events.js';

type LinkRow = typeof links.$inferSelect;

/** What changed in a `link.updated`: the request that made it. */
export type LinkChange = 'edited' | 'qr_styled' | 'paused' | 'resumed' | 'favorited' | 'unfavorited' | 'moved';

export function linkEventData(config: Pick<Config, 'SHORT_URL_BASE'>, row: LinkRow, hostname: string | null) {
  return {
    id: row.slug,
    short_url: linkShortUrl(config, hostname, row.slug),
    domain: hostname ?? defaultHostname(config),
    name: row.name,
    type: row.type,
    folder_id: row.folderId,
    paused: row.paused,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** Records a `link.*` event about `row` (in the caller's transaction when it passes one). */
export function recordLinkEvent(
  db: Executor,
  config: Pick<Config, 'SHORT_URL_BASE'>,
  type: Extract<WebhookEvent, `link.${string}`>,
  row: LinkRow,
  hostname: string | null,
  change?: LinkChange,
): Promise<number> {
  const data = { ...linkEventData(config, row, hostname), ...(change ? { change } : {}) };
  return recordEvent(db, { accountId: row.accountId, type, data, link: { id: row.id, folderId: row.folderId } });
}
