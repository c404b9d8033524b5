/**
 * Menu previews (domain/cafes/theme-preview.ts): a menu link's page in a look its owner has not
 * saved, for the console's frame, sent uncached, unindexed and framable by the console's origin
 * alone. Made like the saved page (decision 0360): in the render thread, and kept, per preview id,
 * menu version and clock state, in a page cache of their own (a small budget, so previews never
 * push saved pages out of theirs); requests for a page being made wait for that one making.
 *
 * A preview costs what its menu costs (a 5000-item menu: its JSON read, then a render of seconds),
 * and anyone holding the URL can ask for it, so each account has one preview made at a time in
 * this process and a few more waiting; past them a preview is refused at once
 * (PreviewsBusyError: the route answers 503 with Retry-After). One account's storm of previews
 * then costs the render thread and Postgres no more than one menu at a time, and other accounts'
 * scans and previews never wait behind it.
 */
import type pg from 'pg';
import { MENU_PREVIEW_ID, menuPreviewKey, menuPreviewOf, withPreviewTheme } from '#domain/cafes/theme-preview.js';
import type { ResolvedLink } from '#domain/links/resolve/resolved-link.js';
import type { Redis } from '#platform/redis/client.js';
import { PageCache } from './page-cache.js';
import type { PageRenderer } from './page-renderer.js';
import { framedMenuPolicy } from './pages/index.js';
import type { EncodedPage } from './pages/common/types.js';

/** Previews of one account made at once in a process, and waiting to be. */
const PREVIEWS_MAKING_PER_ACCOUNT = 1;
const PREVIEWS_WAITING_PER_ACCOUNT = 2;

/** A preview refused because its account has as many being made and waiting as it may. */
export class PreviewsBusyError extends Error {
  constructor() {
    super('too many menu previews of this account are being made');
  }
}

export interface MenuPreviewOptions {
  prefix: string;
  baseUrl: string;
  /** Bytes of preview pages kept at most, compressed copies included. */
  maxBytes: number;
}

export class MenuPreviews {
  private readonly pages: PageCache;
  /** Per account with previews being made: how many, and the makings waiting for a turn (first come first). */
  private readonly accounts = new Map<string, { making: number; waiting: Array<() => void> }>();

  constructor(
    private readonly redis: Pick<Redis, 'get'>,
    pool: pg.Pool,
    renderer: PageRenderer,
    private readonly opts: MenuPreviewOptions,
  ) {
    this.pages = new PageCache(pool, renderer, { maxBytes: opts.maxBytes, baseUrl: opts.baseUrl });
  }

  /** Where the link of preview `id` is found (its address), when the preview names one; null otherwise. */
  async addressOf(id: string): Promise<string | null> {
    if (!MENU_PREVIEW_ID.test(id)) return null;
    return menuPreviewOf(await this.redis.get(menuPreviewKey(this.opts.prefix, id)))?.address ?? null;
  }

  /** Preview pages made since the process started (for metrics). */
  get rendered(): number {
    return this.pages.rendered.menu;
  }

  /**
   * The preview `id` names for this menu link, in the cafe's (else `acceptLanguage`'s) language,
   * encoded for `acceptEncoding`; null when it names none of this link. Rejects with
   * PreviewsBusyError when the link's account has as many previews in the making as it may.
   */
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
    // A preview's look never changes (a new look is a new id): its id names its pages.
    const page = await this.pages.menuPage(link, now, acceptEncoding, acceptLanguage, {
      name: `preview|${id}`,
      record: (saved) => withPreviewTheme(saved, preview.theme),
      admit: () => this.admit(link.accountId),
    });
    if (!page) return null;
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

  /** Waits for the account's turn to make a preview (refused when too many wait); resolves to what ends it. */
  private admit(accountId: string): Promise<() => void> {
    let account = this.accounts.get(accountId);
    if (!account) this.accounts.set(accountId, (account = { making: 0, waiting: [] }));
    const own = account;
    const done = () => {
      const next = own.waiting.shift();
      if (next) return next(); // the turn passes on, `making` unchanged
      own.making--;
      if (own.making === 0) this.accounts.delete(accountId);
    };
    if (own.making < PREVIEWS_MAKING_PER_ACCOUNT) {
      own.making++;
      return Promise.resolve(done);
    }
    if (own.waiting.length >= PREVIEWS_WAITING_PER_ACCOUNT) return Promise.reject(new PreviewsBusyError());
    return new Promise((resolve) => own.waiting.push(() => resolve(done)));
  }
}
