/**
 * What the redirect's render thread does (page-renderer.ts): the pages whose cost grows with what
 * their owner wrote, landing HTML to sanitize and cafe menus of thousands of items, rendered here
 * and compressed, and handed back as bytes, so that work never runs on the event loop that
 * answers scans.
 */
import { publishedMenuOf, type PublishedMenuRecord } from '#domain/cafes/published-menu.js';
import type { ResolvedLink } from '#domain/links/resolve/resolved-link.js';
import { COMPRESS_MIN_BYTES, type ContentCoding } from '#platform/http/accept-encoding.js';
import { compressSync } from './pages/common/compression.js';
import { fileUrlOf, linkPageUrls } from './pages/common/file-urls.js';
import { tapPath, type PageAction } from '#domain/page-actions/actions.js';
import { renderLinkPage, renderMenuPage, type Page, type PageLocale } from './pages/index.js';

export type PageRenderTask =
  | { kind: 'landing'; link: ResolvedLink; /** SHORT_URL_BASE: the page's own address in its preview tags. */ baseUrl: string }
  | {
      kind: 'menu';
      record: PublishedMenuRecord;
      /** Epoch ms: the cafe's clock at this moment decides "open now" and today's hours. */
      now: number;
      /** Where the page's images are linked: under the link when it is password-protected. */
      link: Pick<ResolvedLink, 'slug' | 'passwordHash'>;
      /** SHORT_URL_BASE, for absolute image URLs in the schema.org block. */
      baseUrl: string;
      /** The page's language (menuLocale: the cafe's, else the guest's catalogue language). */
      locale: PageLocale;
      /** Whether the page reports taps on its actions (a guest's page; not a preview). */
      taps: boolean;
    };

export interface RenderedPage {
  status: number;
  headers?: Record<string, string>;
  /** The page's HTML as UTF-8. */
  body: Uint8Array;
  /** The body compressed with each encoding; null for a page too small to gain from it. */
  encoded: Record<ContentCoding, Uint8Array> | null;
}

export function renderPageTask(task: PageRenderTask): RenderedPage {
  return renderedPage(
    task.kind === 'landing'
      ? renderLinkPage(task.link, linkPageUrls(task.link, task.baseUrl))
      : renderMenuPage(publishedMenuOf(task.record), {
          now: new Date(task.now),
          urls: { file: fileUrlOf(task.link), ...(task.taps ? { tap: (action: PageAction) => tapPath(task.link.slug, action) } : {}) },
          baseUrl: task.baseUrl,
          locale: task.locale,
        }),
  );
}

/**
 * A page as bytes, with its compressed copies when it is large enough to gain from them. Each in
 * memory of its own size: the page cache keeps them and counts their lengths, while a small
 * Buffer is a slice of a shared 8 KiB pool and zlib's output a slice of a 16 KiB chunk, either of
 * which a kept slice would hold whole (a 1.4 KB brotli copy kept 16 KiB).
 */
export function renderedPage(page: Page): RenderedPage {
  const body = new TextEncoder().encode(page.body);
  const encoded =
    body.length < COMPRESS_MIN_BYTES ? null : { br: exactCopy(compressSync(body, 'br')), gzip: exactCopy(compressSync(body, 'gzip')) };
  return { status: page.status, headers: page.headers, body, encoded };
}

function exactCopy(bytes: Uint8Array): Uint8Array {
  return bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
}
