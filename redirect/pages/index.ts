/**
 * The pages a scanner sees, as pure functions from a link (or a reason) to a `Page` the redirect
 * routes send as is. Every page carries its complete headers (`pageHeaders`: CSP, nosniff,
 * no-referrer, no-store).
 */
import type { LinkType } from '#domain/links/data/index.js';
import type { ResolvedLink } from '#domain/links/resolve/resolved-link.js';
import { renderVcardPage } from './contact/contact-page.js';
import { renderEventPage } from './event/event-page.js';
import { renderGalleryPage, renderImagePage, renderMultiPdfPage, renderPdfPage } from './files/files-page.js';
import { renderLandingPage } from './landing/landing-page.js';
import { renderLocationPage } from './location/location-page.js';
import { renderMenuPlaceholderPage } from './menu/menu-page.js';
import { renderEmailPage, renderSmsPage } from './email-sms/email-sms-page.js';
import { renderMultiLinksPage } from './multi-links/multi-links-page.js';
import { renderProductPage } from './product/product-page.js';
import { htmlPage, pageBrand, shownName, type PageContent } from './common/layout.js';
import { pageLocale, type PageLocale } from './common/locale.js';
import type { Page, PageUrls, Scanner } from './common/types.js';
import { renderWifiPage } from './wifi/wifi-page.js';

export { renderVcard, vcardFileName } from './contact/contact-page.js';
export { attachmentDisposition } from './common/download-name.js';
export { platformOf, type ScannerPlatform } from './common/maps.js';
export { DEFAULT_EVENT_DURATION_MINUTES, eventFileName, renderIcs } from './event/event-page.js';
export { CONTENT_SECURITY_POLICY, pageHeaders } from './common/layout.js';
export { pageLocale, type PageLocale } from './common/locale.js';
export { sendPage } from './common/send.js';
export { renderMenuPage } from './menu/menu-page.js';
export { menuClock } from './menu/hours.js';
export { framedMenuPolicy } from './menu/script.js';
export type { MenuPageUrls } from './menu/sections.js';
export {
  notFoundPage,
  renderClientErrorPage,
  renderPasswordPage,
  renderServiceUnavailablePage,
  renderTooManyNotFoundPage,
  renderUnavailablePage,
  statusBrand,
  type PasswordPageOptions,
} from './status/status-pages.js';
export type { Page, PageUrls, Scanner, UnavailableReason } from './common/types.js';

/** The link types answered with a redirect rather than a page. */
export const REDIRECT_LINK_TYPES = ['website', 'smart-url'] as const satisfies readonly LinkType[];

/** A scanner of unknown platform, now (pages rendered outside a scan: tests, previews). */
const ANY_SCANNER = (): Scanner => ({ platform: 'other', now: Date.now() });

/**
 * The page of a link of any type but `REDIRECT_LINK_TYPES` (for those it throws: they have no
 * page), for `scanner`'s platform (map links) at its time (an event that has ended).
 */
export function renderLinkPage(link: ResolvedLink, urls: PageUrls, scanner: Scanner = ANY_SCANNER()): Page {
  const locale = pageLocale(link.pageStyle?.language, scanner.acceptLanguage);
  return htmlPage({
    ...linkPageContent(link, urls, scanner, locale),
    brand: pageBrand(link, urls),
    locale,
    ...(urls.page ? { pageUrl: urls.page } : {}),
  });
}

function linkPageContent(link: ResolvedLink, urls: PageUrls, scanner: Scanner, locale: PageLocale): PageContent {
  switch (link.type) {
    case 'email':
      return renderEmailPage(link.data, locale);
    case 'sms':
      return renderSmsPage(link.data, locale);
    case 'vcard':
      return renderVcardPage(link, link.data, urls, scanner, locale);
    case 'wifi':
      return renderWifiPage(link.data, urls, locale);
    case 'location':
      return renderLocationPage(shownName(link), link.data, urls, scanner, locale);
    case 'event':
      return renderEventPage(link, link.data, urls, scanner, locale);
    case 'image':
      return renderImagePage(link, link.data, urls, locale);
    case 'gallery':
      return renderGalleryPage(link, link.data, urls, locale);
    case 'pdf':
      return renderPdfPage(link, link.data, urls, locale);
    case 'multi-pdf':
      return renderMultiPdfPage(link, link.data, urls, locale);
    case 'landing':
      return renderLandingPage(link, link.data, urls, locale);
    case 'product':
      return renderProductPage(link, link.data, urls, locale);
    case 'multi-links':
      return renderMultiLinksPage(link.data, urls, locale);
    case 'menu':
      // A menu link serving a cafe is answered by the menu page cache (redirect/page-cache.ts) instead.
      return renderMenuPlaceholderPage(link.data, locale);
    case 'website':
    case 'smart-url':
      throw new TypeError(`${link.type} links redirect; they have no page`);
  }
}
