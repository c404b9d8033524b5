/**
 * Menu pages, rendered once and kept: a cafe's menu can be 5000 items (a couple of megabytes of
 * HTML), far too much to read from Postgres and render on every scan.
 *
 * Each menu link's entry holds the published menu read at one version (the cafe's last change),
 * the page rendered from it for one state of the cafe's clock (open or closed, today's row of the
 * hours), and that page compressed (brotli or gzip, made on first request for each). A scan reuses
 * the entry while the link's menu version and the clock's key are unchanged:
 * - a menu edit marks the cafe updated and invalidates the link (writeMenu), so the resolver's
 *   next copy of the link carries a new version and the menu is read again;
 * - the clock moving on (opening, closing, midnight) renders the page again from the kept menu.
 * Entries are kept within a byte budget, least recently used first out, so one huge menu cannot
 * take the process's memory; a menu larger than the budget is rendered, served and not kept.
 */
import type pg from 'pg';
import { loadPublishedMenu, type PublishedMenu } from '../shared/cafes/published-menu.js';
import type { ResolvedLink } from '../shared/links/resolve/resolved-link.js';
import { acceptedEncoding, compress, COMPRESS_MIN_BYTES, type Encoding } from './pages/compression.js';
import { fileUrlOf } from './pages/file-urls.js';
import { menuClock, renderLinkPage, renderMenuPage } from './pages/index.js';
import type { EncodedPage, Page } from './pages/types.js';


interface Entry {
  version: string;
  menu: PublishedMenu;
  clockKey: string | null;
  /** Whether the page was made for a password-protected link (its images then live under the link). */
  protectedLink: boolean;
  page: Page | null;
  /** The page compressed, per encoding; `size` once it is done. */
  encoded: Map<Encoding, { body: Promise<Buffer>; size: number }>;
  bytes: number;
}

export interface MenuPagesOptions {
  /** Bytes of menus, pages and compressed pages kept at most (approximate: text counted by length). */
  maxBytes: number;
  /** SHORT_URL_BASE: absolute URLs in the page's schema.org block. */
  baseUrl: string;
}

export class MenuPages {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<Entry | null>>();
  private bytes = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly opts: MenuPagesOptions,
  ) {}

  /** Entries and bytes kept now (for metrics and tests). */
  stats() {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  /**
   * The menu page of a menu link at `now`, encoded for `acceptEncoding`. Rejects when the menu
   * cannot be read (Postgres down) and no copy of it is kept.
   */
  async page(link: ResolvedLink, now: number, acceptEncoding: string | undefined): Promise<EncodedPage> {
    const entry = await this.entryOf(link);
    if (!entry) return renderLinkPage(link, { file: fileUrlOf(link), vcard: '', ics: '' });
    const at = new Date(now);
    const clock = menuClock(entry.menu, at);
    const protectedLink = link.passwordHash !== null;
    if (entry.page === null || entry.clockKey !== clock.key || entry.protectedLink !== protectedLink) {
      entry.page = renderMenuPage(entry.menu, { now: at, urls: { file: fileUrlOf(link) }, baseUrl: this.opts.baseUrl });
      entry.clockKey = clock.key;
      entry.protectedLink = protectedLink;
      entry.encoded.clear();
      this.resize(link.id, entry);
    }
    const page = entry.page;
    const encoding = acceptedEncoding(acceptEncoding);
    // Sent as it is; sendPage leaves a page with a Vary header uncompressed.
    if (encoding === null || page.body.length < COMPRESS_MIN_BYTES) return withVary(page);
    let encoded = entry.encoded.get(encoding);
    if (!encoded) {
      const made = { body: Promise.resolve(compress(page.body, encoding)), size: 0 };
      entry.encoded.set(encoding, made);
      made.body.then(
        (buffer) => {
          made.size = buffer.length;
          this.resize(link.id, entry);
        },
        () => entry.encoded.delete(encoding),
      );
      encoded = made;
    }
    const body = await encoded.body;
    return { ...page, body, headers: { ...page.headers, 'Content-Encoding': encoding, Vary: 'Accept-Encoding' } };
  }

  /** The kept entry when it is the link's menu version, else the menu read again (one read per link at a time). */
  private async entryOf(link: ResolvedLink): Promise<Entry | null> {
    const kept = this.entries.get(link.id);
    // A link copy without a version (written by an older process) takes what is kept.
    if (kept && (link.menuVersion == null || kept.version === link.menuVersion)) {
      this.entries.delete(link.id);
      this.entries.set(link.id, kept); // most recently used last
      return kept;
    }
    let pending = this.loading.get(link.id);
    if (!pending) {
      pending = this.load(link.id, kept).finally(() => this.loading.delete(link.id));
      this.loading.set(link.id, pending);
    }
    return pending;
  }

  private async load(linkId: string, kept: Entry | undefined): Promise<Entry | null> {
    let menu: PublishedMenu | null;
    try {
      menu = await loadPublishedMenu(this.pool, linkId);
    } catch (err) {
      // Postgres away: the last copy kept is better than no menu.
      if (kept) return kept;
      throw err;
    }
    this.forget(linkId);
    if (!menu) return null;
    const entry: Entry = { version: menu.version, menu, clockKey: null, protectedLink: false, page: null, encoded: new Map(), bytes: 0 };
    this.entries.set(linkId, entry);
    return entry;
  }

  private forget(linkId: string) {
    const entry = this.entries.get(linkId);
    if (!entry) return;
    this.bytes -= entry.bytes;
    this.entries.delete(linkId);
  }

  /** Recounts an entry's bytes and evicts the least recently used entries beyond the budget. */
  private resize(linkId: string, entry: Entry) {
    if (this.entries.get(linkId) !== entry) return;
    // The menu data takes about as much again as the page made from it.
    let bytes = entry.page ? entry.page.body.length * 2 : 0;
    for (const { size } of entry.encoded.values()) bytes += size;
    this.bytes += bytes - entry.bytes;
    entry.bytes = bytes;
    for (const [id, other] of this.entries) {
      if (this.bytes <= this.opts.maxBytes) break;
      this.forget(id);
      if (other === entry) break;
    }
  }
}

function withVary(page: Page): Page {
  return { ...page, headers: { ...page.headers, Vary: 'Accept-Encoding' } };
}
