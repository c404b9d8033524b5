/**
 * Pages made once and kept: a landing page (up to 512 KiB of HTML to sanitize) and a cafe's menu
 * (up to 5000 items, megabytes of HTML) cost far too much to make on every scan. They are made in
 * the render thread (page-renderer.ts) and kept per link, with their compressed copies:
 * - a landing page per version of its link (its last change, its slug and whether it is
 *   password-protected, which decides where its images are linked);
 * - a menu page per version of the cafe's menu (its last change; every menu write marks the cafe
 *   updated and invalidates the link, so the resolver's next copy of the link carries the new
 *   version) and per state of the cafe's clock (open or closed, today's row of the hours): when the
 *   clock moves on (opening, closing, midnight) the menu is read and rendered again. A cafe with a
 *   language has one page; one without has a page per catalogue language its guests' browsers
 *   chose (at most five, keyed by that language, never by the raw Accept-Language header), sent
 *   with Vary: Accept-Language. When Postgres cannot be read, the kept page serves; with none, the
 *   scan gets the 503 page.
 * - the page of any other link type with one (a contact card, Wi-Fi, files, …) per version of the
 *   link (the JSON the resolver's copy was made from: an unchanged link reloaded after its copy
 *   was dropped keeps its page), per page language, and per platform only when the page read it
 *   (map links: a location, a contact's address): made in this thread, as it is small, once
 *   instead of on every scan. Not an event's page, which changes as the event ends; it is made
 *   for each scan.
 * The thread also compresses the page (brotli and gzip), so a scan of a kept page does no work
 * that grows with the page but sending it. One render per page at a time: scans arriving
 * meanwhile wait for it. Pages are kept within a byte budget (their bytes, compressed copies
 * included), least recently used first out; a page larger than the budget is made, served and
 * not kept.
 */
import type pg from 'pg';
import { loadPublishedMenu, type PublishedMenuRecord } from '#domain/cafes/published-menu.js';
import type { DayHours } from '#domain/cafes/opening-hours.js';
import type { ResolvedLink } from '#domain/links/resolve/resolved-link.js';
import { versionOfCopy } from '#domain/links/resolve/link-resolver.js';
import { shortUrlBaseOf } from '#domain/links/link-addresses.js';
import { renderedPage, type RenderedPage } from './page-render-task.js';
import type { PageRenderer } from './page-renderer.js';
import { acceptedCoding } from '#platform/http/accept-encoding.js';
import { linkPageUrls } from './pages/common/file-urls.js';
import { CATALOGUE_LANGUAGES, pageLocale } from './pages/common/locale.js';
import { menuClock, renderLinkPage } from './pages/index.js';
import { menuLocale } from './pages/menu/words.js';
import type { ScannerPlatform } from './pages/common/maps.js';
import type { EncodedPage, Scanner } from './pages/common/types.js';

const SCANNER_PLATFORMS: readonly ScannerPlatform[] = ['ios', 'android', 'other'];

/**
 * A menu page in another look than the saved one (a preview, menu-preview.ts): kept apart from the
 * saved page under its own name, made from the record as it shows it, and made only once `admit`
 * lets it (which may refuse, rejecting the scans waiting for it).
 */
export interface MenuVariant {
  name: string;
  record: (saved: PublishedMenuRecord) => PublishedMenuRecord;
  /** Resolves, when this page may be made, to what ends its making; rejects when it may not. */
  admit: () => Promise<() => void>;
}

interface Entry {
  /** What the page was made from: another key means it is made again. */
  key: string;
  /** Menus: the cafe's hours, to tell when its clock moves on, and the clock's key the page was made at. */
  clock: { operatingHours: DayHours[]; timezone: string; key: string } | null;
  page: RenderedPage;
  bytes: number;
}

export interface PageCacheOptions {
  /** Bytes of pages kept at most, compressed copies included (PAGE_CACHE_MB). */
  maxBytes: number;
  /** SHORT_URL_BASE: absolute URLs in a menu page's schema.org block. */
  baseUrl: string;
}

export class PageCache {
  private readonly entries = new Map<string, Entry>();
  private readonly making = new Map<string, Promise<Entry | null>>();
  private bytes = 0;
  /** Pages made since the process started, by kind (for metrics): landing and menu pages in the render thread, the others in this one. */
  readonly rendered = { landing: 0, menu: 0, link: 0 };
  /** A number per copy of a link the resolver did not hand out: a link page is kept for the copy it was made from. */
  private readonly copies = new WeakMap<ResolvedLink, string>();
  private copiesMade = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly renderer: PageRenderer,
    private readonly opts: PageCacheOptions,
  ) {}

  /** Where the link's short URL starts: its brand domain's, else SHORT_URL_BASE. */
  private baseOf(link: ResolvedLink): string {
    return shortUrlBaseOf({ SHORT_URL_BASE: this.opts.baseUrl }, link.host ?? null);
  }

  /** Pages and bytes kept now (for metrics). */
  stats() {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  /** A landing link's page, encoded for `acceptEncoding`. */
  async landing(link: ResolvedLink, acceptEncoding: string | undefined): Promise<EncodedPage> {
    const key = `${link.updatedAt}|${link.slug}|${link.passwordHash !== null}`;
    const entry = await this.entryOf(
      link.id,
      (kept) => kept.key === key,
      async () => {
        const page = await this.renderer.render(link.accountId, { kind: 'landing', link, baseUrl: this.baseOf(link) });
        this.rendered.landing++;
        return { key, clock: null, page };
      },
    );
    return encodedFor(entry!.page, acceptEncoding);
  }

  /**
   * The menu page of a menu link at `now` for a guest sending `acceptLanguage`, encoded for
   * `acceptEncoding`. Rejects when the menu cannot be read (Postgres down) and no page of it is kept.
   */
  async menu(
    link: ResolvedLink,
    now: number,
    acceptEncoding: string | undefined,
    acceptLanguage: string | undefined,
  ): Promise<EncodedPage> {
    // A menu link serving no cafe (made with POST /links): its placeholder page.
    return (await this.menuPage(link, now, acceptEncoding, acceptLanguage)) ?? renderLinkPage(link, linkPageUrls(link, this.opts.baseUrl));
  }

  /**
   * As `menu`, in the look of `variant` when one is given; null for a link serving no cafe. Also
   * rejects when `variant` refuses the making.
   */
  async menuPage(
    link: ResolvedLink,
    now: number,
    acceptEncoding: string | undefined,
    acceptLanguage: string | undefined,
    variant?: MenuVariant,
  ): Promise<EncodedPage | null> {
    const linkKey = `${link.slug}|${link.passwordHash !== null}`;
    const at = new Date(now);
    const current = (kept: Entry) => kept.key === `${link.menuVersion}|${linkKey}` && kept.clock!.key === menuClock(kept.clock!, at).key;
    // The cafe's own language's page serves every guest; else the page of the guest's catalogue language.
    const scope = variant ? `${link.id}|${variant.name}` : link.id;
    const ownKey = menuPageKey(scope, null);
    const guestKey = menuPageKey(scope, menuLocale(null, acceptLanguage).language);
    const own = this.entries.get(ownKey);
    const entry =
      own && current(own)
        ? this.touch(ownKey, own)
        : await this.entryOf(guestKey, current, async (kept) => {
            const done = await variant?.admit();
            try {
              return await this.makeMenu(link, now, acceptLanguage, { scope, ownKey, guestKey, linkKey, at }, kept ?? own, variant);
            } finally {
              done?.();
            }
          });
    return entry && encodedFor(entry.page, acceptEncoding);
  }

  /** The menu page made from the menu as read now (null: the link serves no cafe); `stale` when Postgres cannot be read. */
  private async makeMenu(
    link: ResolvedLink,
    now: number,
    acceptLanguage: string | undefined,
    keys: { scope: string; ownKey: string; guestKey: string; linkKey: string; at: Date },
    stale: Entry | undefined,
    variant: MenuVariant | undefined,
  ) {
    const { scope, ownKey, guestKey, linkKey, at } = keys;
    let saved;
    try {
      saved = await loadPublishedMenu(this.pool, link.id);
    } catch (err) {
      // Postgres away: the last page kept is better than no menu.
      if (stale) return stale;
      throw err;
    }
    if (!saved) return null;
    const record = variant ? variant.record(saved) : saved;
    const locale = menuLocale(record.language, acceptLanguage);
    const clock = { operatingHours: record.operating_hours, timezone: record.timezone };
    const task = {
      kind: 'menu' as const,
      record,
      now,
      link: { slug: link.slug, passwordHash: link.passwordHash },
      baseUrl: this.baseOf(link),
      locale,
      // A preview in the console's frame is its owner's look at it, not a guest's: no taps.
      taps: !variant,
    };
    const page = await this.renderer.render(link.accountId, task);
    this.rendered.menu++;
    // A page in the cafe's language replaces every guest language's; a guest language's replaces the cafe's.
    const replaces = locale.negotiated ? [ownKey] : CATALOGUE_LANGUAGES.map((l) => menuPageKey(scope, l));
    for (const key of replaces) this.forget(key);
    return {
      key: `${record.version}|${linkKey}`,
      clock: { ...clock, key: menuClock(clock, at).key },
      page,
      keptAs: locale.negotiated ? guestKey : ownKey,
    };
  }

  /**
   * The page of a link of a type `renderLinkPage` answers with a page (not landing, menu or
   * event), for `scanner`, encoded for `acceptEncoding`: kept per version of the link and page
   * language, and per platform only when making it read the scanner's platform. Most pages (Wi-Fi,
   * email, files, a contact without an address) are the same on every phone: one page serves all
   * three platforms instead of being made and kept three times.
   */
  linkPage(link: ResolvedLink, scanner: Scanner, acceptEncoding: string | undefined): EncodedPage {
    const locale = pageLocale(link.pageStyle?.language, scanner.acceptLanguage);
    const version = versionOfCopy(link) ?? this.copyNumber(link);
    const base = `page|${link.id}|${locale.tag}|${locale.negotiated}`;
    const anyPlatform = `${base}|*`;
    const ownPlatform = `${base}|${scanner.platform}`;
    for (const id of [anyPlatform, ownPlatform]) {
      const kept = this.entries.get(id);
      if (kept && kept.key === version) return encodedFor(this.touch(id, kept).page, acceptEncoding);
    }
    let readPlatform = false;
    const watched: Scanner = { ...scanner };
    Object.defineProperty(watched, 'platform', {
      enumerable: true,
      get: () => {
        readPlatform = true;
        return scanner.platform;
      },
    });
    const page = renderedPage(renderLinkPage(link, linkPageUrls(link, this.opts.baseUrl), watched));
    this.rendered.link++;
    // The pages of an earlier version, for every platform or per platform, are of no use any more.
    if (readPlatform) {
      this.forget(anyPlatform);
      return encodedFor(this.keep(ownPlatform, { key: version, clock: null, page }).page, acceptEncoding);
    }
    for (const platform of SCANNER_PLATFORMS) this.forget(`${base}|${platform}`);
    return encodedFor(this.keep(anyPlatform, { key: version, clock: null, page }).page, acceptEncoding);
  }

  /** A number per copy, for a copy the resolver did not hand out (tests, previews): a page is kept for that copy. */
  private copyNumber(link: ResolvedLink): string {
    let copy = this.copies.get(link);
    if (copy === undefined) this.copies.set(link, (copy = `copy ${this.copiesMade++}`));
    return copy;
  }

  private touch(key: string, kept: Entry): Entry {
    this.entries.delete(key);
    this.entries.set(key, kept); // most recently used last
    return kept;
  }

  /**
   * The entry kept under `key` when `current` says it still is, else made again (one making per
   * key at a time) and kept under `key`, or under the `keptAs` key the making names. A making
   * may answer with an entry kept before (a stale page while Postgres is away): it stays as it is.
   */
  private async entryOf(
    key: string,
    current: (kept: Entry) => boolean,
    make: (kept: Entry | undefined) => Promise<Entry | (Omit<Entry, 'bytes'> & { keptAs?: string }) | null>,
  ): Promise<Entry | null> {
    const kept = this.entries.get(key);
    if (kept && current(kept)) return this.touch(key, kept);
    let pending = this.making.get(key);
    if (!pending) {
      pending = make(kept)
        .then((made) => {
          if (made && 'bytes' in made) return made;
          this.forget(key);
          if (!made) return null;
          const { keptAs = key, ...fields } = made;
          return this.keep(keptAs, fields);
        })
        .finally(() => this.making.delete(key));
      this.making.set(key, pending);
    }
    return pending;
  }

  /** Keeps a page made under `key`, in place of the one kept there, within the budget. */
  private keep(key: string, fields: Omit<Entry, 'bytes'>): Entry {
    const { body, encoded } = fields.page;
    const entry: Entry = { ...fields, bytes: body.length + (encoded ? encoded.br.length + encoded.gzip.length : 0) };
    this.forget(key);
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
    this.evict(entry);
    return entry;
  }

  private forget(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.bytes -= entry.bytes;
    this.entries.delete(key);
  }

  /** Evicts the least recently used entries beyond the budget (`added` last: it is served, then). */
  private evict(added: Entry) {
    for (const [id, entry] of this.entries) {
      if (this.bytes <= this.opts.maxBytes) break;
      this.forget(id);
      if (entry === added) break;
    }
  }
}

/** Where a menu page is kept: per link (and variant), and per guest language when the cafe has no language of its own (null: it has). */
function menuPageKey(scope: string, guestLanguage: string | null): string {
  return `menu|${scope}|${guestLanguage ?? '*'}`;
}

/** The page as sent to a client accepting `acceptEncoding`. */
function encodedFor(page: RenderedPage, acceptEncoding: string | undefined): EncodedPage {
  const encoding = page.encoded && acceptedCoding(acceptEncoding);
  // With Vary set, sendPage sends the body as it is; a page in the guest's language varies by it too.
  const headers = { ...page.headers, Vary: page.headers?.Vary ? `Accept-Encoding, ${page.headers.Vary}` : 'Accept-Encoding' };
  if (!encoding) return { status: page.status, headers, body: asBuffer(page.body) };
  return { status: page.status, headers: { ...headers, 'Content-Encoding': encoding }, body: asBuffer(page.encoded![encoding]) };
}

/** Bytes from the thread as a Buffer (no copy). */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
