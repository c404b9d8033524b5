/**
 * How to reach the cafe: the "Visit us" section (about, hours, address, contact, social links,
 * facilities) and the map and phone links the header shares.
 */
import type { CafeClock } from '#domain/cafes/opening-hours.js';
import type { PublishedMenu } from '#domain/cafes/published-menu.js';
import { checkedUrl, html, type SafeHtml } from '../common/html.js';
import { icon, socialPlatform } from '../common/icons.js';
import type { PageLocale } from '../common/locale.js';
import { menuText, type MenuTextKey } from './menu-messages.js';
import { renderHours } from './hours.js';
import { pingOf } from '../common/taps.js';
import type { PageUrls } from '../common/types.js';

export function mapsUrl(address: string): string {
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(address)}`;
}

export function telUrl(phone: string): string | undefined {
  const digits = phone.replace(/[^\d+]/g, '');
  return /^\+?\d{3,}$/.test(digits) ? `tel:${digits}` : undefined;
}

export function renderVisit(menu: PublishedMenu, clock: CafeClock, urls: Pick<PageUrls, 'tap'>, locale: PageLocale): SafeHtml {
  const t = (key: MenuTextKey) => menuText(locale, key);
  const website = checkedUrl(menu.website, ['http', 'https']);
  const tel = menu.phone ? telUrl(menu.phone) : undefined;
  const email = menu.email && /^[^\s@<>]+@[^\s@<>]+$/.test(menu.email) ? menu.email : undefined;
  const socials = menu.socialLinks.map((s) => ({ platform: s.platform, url: checkedUrl(s.url, ['http', 'https']) })).filter((s) => s.url);
  return html`<section class="visit" aria-labelledby="visit-h"><h2 id="visit-h">${t('visitUs')}</h2>
${menu.description && html`<h3>${t('about')}</h3><p class="text">${menu.description}</p>`}
${renderHours(menu.operatingHours, clock.today, locale)}
${menu.address && html`<h3>${t('address')}</h3><p class="text">${menu.address}</p><p><a href="${mapsUrl(menu.address)}"${pingOf(urls, 'directions')}>${t('openInMaps')}</a></p>`}
${
  (menu.phone || menu.email || website) &&
  html`<h3>${t('contact')}</h3><p>${[
    menu.phone && (tel ? html`<a href="${tel}"${pingOf(urls, 'call')}>${menu.phone}</a><br>` : html`${menu.phone}<br>`),
    menu.email && (email ? html`<a href="mailto:${email}">${menu.email}</a><br>` : html`${menu.email}<br>`),
    website && html`<a href="${website}"${pingOf(urls, 'website')}>${new URL(website).host}</a>`,
  ]}</p>`
}
${socials.length > 0 && html`<h3>${t('followUs')}</h3><ul class="social">${socials.map((s) => html`<li><a href="${s.url}">${icon(socialPlatform(s.platform, s.url)?.icon ?? 'link')}${s.platform}</a></li>`)}</ul>`}
${menu.facilities.length > 0 && html`<h3>${t('facilities')}</h3><p>${menu.facilities.join(' · ')}</p>`}
</section>`;
}
