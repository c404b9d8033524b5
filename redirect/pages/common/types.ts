import type { PageAction } from '#domain/page-actions/actions.js';
import type { ScannerPlatform } from './maps.js';

/** What a page renderer returns; the redirect routes send it as is (text/html unless headers say otherwise). */
export interface Page {
  status: number;
  body: string;
  /**
   * Extra headers, e.g. a Content-Security-Policy stricter than the default one. Pages made by
   * `redirect/pages` carry the complete set (`pageHeaders` included): send them as they are.
   */
  headers?: Record<string, string>;
}

/** A page ready to send: its body may be bytes already encoded as `headers['Content-Encoding']` says. */
export type EncodedPage = Omit<Page, 'body'> & { body: string | Buffer };

/** Why a short link does not resolve: each has its own clear page. */
export type UnavailableReason = 'not_found' | 'paused' | 'scheduled' | 'expired' | 'limit_reached' | 'broken_destination';

/** Where a page's own resources live on the redirect process (built by the routes). */
export interface PageUrls {
  /** A file of the link (image or PDF) by id. */
  file(id: string): string;
  /** The link's contact card (.vcf), for vcard links. */
  vcard: string;
  /** The link's calendar file (.ics), for event links. */
  ics: string;
  /** The page's own absolute address (SHORT_URL_BASE/slug), for link previews; absent where a page is made for a test. */
  page?: string;
  /** Where a tap of one of the page's actions is reported (domain/page-actions); absent: taps are not reported (a test's page). */
  tap?: (action: PageAction) => string;
}

/** Who is looking at a page: the platform its actions should suit, the time it is asked at, the languages it reads. */
export interface Scanner {
  platform: ScannerPlatform;
  /** Epoch ms. */
  now: number;
  /** The request's Accept-Language: the page's language when its owner set none. */
  acceptLanguage?: string;
}
