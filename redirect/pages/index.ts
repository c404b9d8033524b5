/**
 * The pages a scanner sees, as pure functions from a link (or a reason) to a `Page` the redirect
 * routes send as is. Every page carries its complete headers (`pageHeaders`: CSP, nosniff,
 * no-referrer, no-store).
 */
import type { LinkDataByType, LinkType } from '../../shared/links/data/index.js';
import type { ResolvedLink } from '../../shared/links/resolve/resolved-link.js';
import { renderVcardPage } from './contact.js';
import { renderEventPage } from './event.js';
import { renderGalleryPage, renderImagePage, renderMultiPdfPage, renderPdfPage } from './files.js';
import { renderLandingPage } from './landing.js';
import { renderLocationPage } from './location.js';
import { renderMenuPage } from './menu.js';
import { renderEmailPage, renderSmsPage } from './messages.js';
import { renderMultiLinksPage } from './multi-links.js';
import { renderProductPage } from './product.js';
import type { Page, PageUrls } from './types.js';
import { renderWifiPage } from './wifi.js';

export { renderVcard } from './contact.js';
export { DEFAULT_EVENT_DURATION_MINUTES, renderIcs } from './event.js';
export { CONTENT_SECURITY_POLICY, pageHeaders } from './layout.js';
export { sendPage } from './send.js';
export { renderClientErrorPage, renderPasswordPage, renderServiceUnavailablePage, renderTooManyNotFoundPage, renderUnavailablePage, type PasswordPageOptions } from './status-pages.js';
export type { Page, PageUrls, UnavailableReason } from './types.js';

/** The link types answered with a redirect rather than a page. */
export const REDIRECT_LINK_TYPES = ['website', 'smart-url'] as const satisfies readonly LinkType[];

/** The page of a link of any type but `REDIRECT_LINK_TYPES` (for those it throws: they have no page). */
export function renderLinkPage(link: ResolvedLink, urls: PageUrls): Page {
  // The data was validated against the type's schema when it was stored.
  const data = <T extends LinkType>() => link.data as unknown as LinkDataByType[T];
  switch (link.type) {
    case 'email':
      return renderEmailPage(data<'email'>());
    case 'sms':
      return renderSmsPage(data<'sms'>());
    case 'vcard':
      return renderVcardPage(data<'vcard'>(), urls.vcard);
    case 'wifi':
      return renderWifiPage(data<'wifi'>());
    case 'location':
      return renderLocationPage(data<'location'>());
    case 'event':
      return renderEventPage(link, data<'event'>(), urls);
    case 'image':
      return renderImagePage(link, data<'image'>(), urls);
    case 'gallery':
      return renderGalleryPage(link, data<'gallery'>(), urls);
    case 'pdf':
      return renderPdfPage(link, data<'pdf'>(), urls);
    case 'multi-pdf':
      return renderMultiPdfPage(link, data<'multi-pdf'>(), urls);
    case 'landing':
      return renderLandingPage(data<'landing'>(), urls);
    case 'product':
      return renderProductPage(link, data<'product'>(), urls);
    case 'multi-links':
      return renderMultiLinksPage(data<'multi-links'>());
    case 'menu':
      return renderMenuPage(data<'menu'>());
    case 'website':
    case 'smart-url':
      throw new TypeError(`${link.type} links redirect; they have no page`);
  }
}
