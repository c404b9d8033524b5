/**
 * Menu previews (domain/cafes/theme-preview.ts): a menu link's page in a look its owner has not
 * saved, for the console's frame. Made in the render thread like every menu page, but for this
 * request only: never read from nor kept in the page cache (the cache holds the saved look), and
 * sent uncached, unindexed and framable by the console's origin alone.
 */
import type pg from 'pg';
import { loadPublishedMenu } from '../domain/cafes/published-menu.js';
import { MENU_PREVIEW_ID, menuPreviewKey, menuPreviewOf, withPreviewTheme } from '../domain/cafes/theme-preview.js';
import type { ResolvedLink } from '../domain/links/resolve/resolved-link.js';
import type { Redis } from '../platform/redis/client.js';
import { encodedFor } from './page-cache.js';
import type { PageRenderer } from './page-renderer.js';
import { framedMenuPolicy } from './pages/index.js';
import { menuLocale } from './pages/menu/words.js';
import type { EncodedPage } from './pages/types.js';

export class MenuPreviews {
  constructor(
    private readonly redis: Pick<Redis, 'get'>,
    private readonly pool: pg.Pool,
    private readonly renderer: PageRenderer,
    private readonly opts: { prefix: string; baseUrl: string },
  ) {}

  /** The preview `id` names for this menu link, in the cafe's (else `acceptLanguage`'s) language, encoded for `acceptEncoding`; null when it names none of this link. */
  async page(
    link: ResolvedLink,
    id: string,
    now: number,
    acceptEncoding: string | undefined,
    acceptLanguage: string | undefined,
  ): Promise<EncodedPage | null> {
    if (!MENU_PREVIEW_ID.test(id)) return null;
    const preview = menuPreviewOf(await this.redis.get(menuPreviewKey(this.opts.prefix, id)));
    if (!preview || preview.linkId !== link.id) return null;
    const record = await loadPublishedMenu(this.pool, link.id);
    if (!record) return null;
    const locale = menuLocale(record.language, acceptLanguage);
    const task = {
      kind: 'menu' as const,
      record: withPreviewTheme(record, preview.theme),
      now,
      link: { slug: link.slug, passwordHash: link.passwordHash },
      baseUrl: this.opts.baseUrl,
      locale,
    };
    const page = encodedFor(await this.renderer.render(link.accountId, task), acceptEncoding);
    return {
      ...page,
      headers: {
        ...page.headers,
        'Content-Security-Policy': framedMenuPolicy(preview.frameAncestor),
        'Cache-Control': 'no-store',
        'X-Robots-Tag': 'noindex',
      },
    };
  }
}
