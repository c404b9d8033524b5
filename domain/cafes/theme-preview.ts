/**
 * A preview of a cafe's menu page in a look not saved yet: POST /cafes/:id/theme/preview stores
 * the look (the body PUT /cafes/:id/theme takes) for ten minutes in Redis under a random 128-bit
 * id, and the menu link's short URL with `?preview=<id>` shows the menu in that look. The
 * redirect renders it once per menu version (kept apart from the saved page), records no scan, and lets
 * the console's origin that asked for it (stored in the record) frame it; any other `preview`
 * value, or a record of another link, gets the link's ordinary answer.
 */
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { cafes, domains, links } from '../schema.js';
import type { Executor } from '../database.js';
import { isUuid } from '#platform/format/ids.js';
import { NotFoundError } from '../errors.js';
import { shortUrl } from '../links/slugs.js';
import { linkAddress } from '../links/link-addresses.js';
import type { Redis } from '#platform/redis/client.js';
import type { PublishedMenuRecord } from './published-menu.js';
import type { ThemeInput } from './schemas.js';

export const MENU_PREVIEW_TTL_SECONDS = 600;

/** What the short URL's `preview` parameter names: 128 random bits, base64url. */
export const MENU_PREVIEW_ID = /^[A-Za-z0-9_-]{22}$/;

/** The Redis key of a preview, under the install's prefix (REDIS_NAMESPACE) like every other key. */
export const menuPreviewKey = (prefix: string, id: string) => `${prefix}:menu-preview:${id}`;

export interface MenuPreview {
  /** The menu link the preview is for: on any other link the id means nothing. */
  linkId: string;
  /**
   * Where the redirect finds that link (domain/links/link-addresses.ts). The preview is framed
   * from the default domain (the console's one framable origin) whatever the link's domain, so a
   * brand link's preview is looked up here; absent in records made before brand domains.
   */
  address?: string;
  /** The one origin that may frame the preview: the console's that asked for it (api/console.ts, consoleOriginOf). */
  frameAncestor: string;
  /** The unsaved look; a colour or the dietary switch left out keeps the saved value, as PUT does. */
  theme: ThemeInput;
}

interface PreviewContext {
  db: Executor;
  redis: Pick<Redis, 'set'>;
  config: { REDIS_NAMESPACE: string; SHORT_URL_BASE: string };
}

/**
 * Stores a preview of the account's cafe in `theme`, framable by `frameAncestor` (an http(s)
 * origin): the URL that shows it, when it stops, and who may frame it. 404 for a cafe not the account's.
 */
export async function createMenuPreview(
  ctx: PreviewContext,
  accountId: string,
  cafeId: string,
  theme: ThemeInput,
  frameAncestor: string,
  now = Date.now(),
) {
  const [cafe] = isUuid(cafeId)
    ? await ctx.db
        .select({ linkId: cafes.linkId, slug: links.slug, host: domains.hostname })
        .from(cafes)
        .innerJoin(links, eq(links.id, cafes.linkId))
        .leftJoin(domains, eq(domains.id, links.domainId))
        .where(and(eq(cafes.accountId, accountId), eq(cafes.id, cafeId)))
    : [];
  if (!cafe) throw new NotFoundError('Cafe');
  const id = randomBytes(16).toString('base64url');
  const preview: MenuPreview = { linkId: cafe.linkId, address: linkAddress(cafe.host, cafe.slug), frameAncestor, theme };
  await ctx.redis.set(menuPreviewKey(ctx.config.REDIS_NAMESPACE, id), JSON.stringify(preview), 'EX', MENU_PREVIEW_TTL_SECONDS);
  const url = new URL(shortUrl(ctx.config.SHORT_URL_BASE, cafe.slug));
  url.searchParams.set('preview', id);
  return { url: url.href, expiresAt: new Date(now + MENU_PREVIEW_TTL_SECONDS * 1000).toISOString(), frameAncestor };
}

/** A stored preview, when `value` is one (anything else in Redis under the key is no preview). */
export function menuPreviewOf(value: string | null): MenuPreview | null {
  if (value === null) return null;
  try {
    const p = JSON.parse(value) as MenuPreview;
    const origin = typeof p.frameAncestor === 'string' && URL.canParse(p.frameAncestor) ? new URL(p.frameAncestor).origin : null;
    // Only an http(s) origin goes into the CSP header, exactly as it was serialised.
    if (typeof p.linkId !== 'string' || origin !== p.frameAncestor || !/^https?:/.test(origin) || typeof p.theme?.themeImage !== 'string')
      return null;
    return p;
  } catch {
    return null;
  }
}

/** The published menu as read, in the preview's look. */
export function withPreviewTheme(record: PublishedMenuRecord, theme: ThemeInput): PublishedMenuRecord {
  return {
    ...record,
    theme_image: theme.themeImage,
    primary_color: theme.primaryColor !== undefined ? theme.primaryColor : record.primary_color,
    secondary_color: theme.secondaryColor !== undefined ? theme.secondaryColor : record.secondary_color,
    show_dietary_section: theme.showDietarySection ?? record.show_dietary_section,
  };
}
