/**
 * menu links: the live menu of a cafe, as a guest sees it after scanning the code on the table.
 *
 * The cafe's name, logo and cover, whether it is open now (in the cafe's time zone), its visible
 * groups → categories → items (with their images) and prices in their currencies, badges, spice
 * level, ingredients, allergens and tags, its hours, contact, address and social links, in the
 * look of its theme and in the page's language (menu-messages.ts; the cafe's language, else the
 * guest's, see redirect/page-cache.ts). A phone's first screen shows dishes: the header is compact,
 * and calling or finding the cafe are small links beside its open state. A small inline script
 * (allowed by its hash; the page is complete without it) filters by dietary tag and allergen and
 * searches names, descriptions and ingredients without a round trip, keeping the filter in the
 * URL's query (`?q=…&diet=vegan&avoid=gluten`), so a shared link opens the same view. A dish's
 * photo opens large in a sheet (a `:target` fragment, so no script is needed; the script closes it
 * on Escape). Images load lazily, each copy chosen by the size it is shown at. A schema.org Menu
 * block describes the menu to search engines.
 *
 * The page depends on the menu and on the cafe's clock (open or closed, today's row of the hours):
 * `menuClockKey` says when a rendered copy is still right (redirect/page-cache.ts caches by it).
 */
import type { PublishedMenu } from '#domain/cafes/published-menu.js';
import { MENU_THEMES } from '#domain/cafes/themes.js';
import type { LinkDataByType } from '#domain/links/data/index.js';
import { checkedUrl, html } from '../common/html.js';
import { pictureTag, thumbnailTag } from '../common/images.js';
import { htmlPage, type PageContent } from '../common/layout.js';
import { ENGLISH, type PageLocale } from '../common/locale.js';
import { menuText, type MenuTextKey } from './menu-messages.js';
import type { Page } from '../common/types.js';
import { MENU_ITEM_BYTES_MAX, withinBudget } from './budget.js';
import { collectFilterWords, renderFilters } from './filters.js';
import { menuClock, openStateText } from './hours.js';
import { renderJsonLd } from './json-ld.js';
import { menuScript } from './script.js';
import { LAYOUT_IMAGE_SIZES, renderCategory, sectionImage, sourcesOf, type ItemContext, type MenuPageUrls } from './sections.js';
import { themeStyles } from './theme.js';
import { mapsUrl, renderVisit, telUrl } from './visit.js';
import { counted } from './words.js';
import { pingOf } from '../common/taps.js';

export interface MenuPageOptions {
  /** The items' budget (MENU_ITEM_BYTES_MAX by default). */
  maxItemBytes?: number;
  now: Date;
  urls: MenuPageUrls;
  /** The page's own absolute URL base (SHORT_URL_BASE), for absolute image URLs in the schema.org block. */
  baseUrl?: string;
  /** The page's language and formats (the cafe's language, else the guest's; default English). */
  locale?: PageLocale;
}

/** The live menu page at `now` (whose clock decides "open now" and today's hours). */
export function renderMenuPage(
  menu: PublishedMenu,
  { now, urls, baseUrl, maxItemBytes = MENU_ITEM_BYTES_MAX, locale = ENGLISH }: MenuPageOptions,
): Page {
  const t = (key: MenuTextKey, params?: Record<string, string | number>) => menuText(locale, key, params);
  const theme = MENU_THEMES[menu.theme];
  const clock = menuClock(menu, now);
  const title = menu.title?.trim() || menu.name;
  const { groups, cut } = withinBudget(menu.groups, maxItemBytes);
  const words = collectFilterWords(groups, locale);
  const named = groups.filter((g) => g.name !== null);
  const website = checkedUrl(menu.website, ['http', 'https']);
  const tel = menu.phone ? telUrl(menu.phone) : undefined;
  let items = 0;
  const ctx: ItemContext = {
    locale,
    urls,
    variants: menu.imageVariants,
    showDiets: menu.showDietarySection,
    imageSizes: LAYOUT_IMAGE_SIZES[theme.layout],
    next: () => ++items,
  };
  // The open state and the ways to reach the cafe share one line: the first screen is for dishes.
  const facts = [
    clock.state && html`<li class="status${clock.state.open ? ' open' : ''}">${openStateText(locale, clock.state)}</li>`,
    tel && html`<li><a href="${tel}"${pingOf(urls, 'call')}>${t('call')}</a></li>`,
    menu.address && html`<li><a href="${mapsUrl(menu.address)}"${pingOf(urls, 'directions')}>${t('directions')}</a></li>`,
    website && html`<li><a href="${website}"${pingOf(urls, 'website')}>${t('website')}</a></li>`,
  ].filter(Boolean);
  return htmlPage({
    title: t('pageTitle', { name: title }),
    locale,
    styles: themeStyles(theme, menu),
    script: menuScript(),
    content: html`<header class="hero">${
      menu.cover &&
      pictureTag(sourcesOf(menu.cover, ctx), { className: 'cover', alt: '', sizes: '(min-width: 46rem) 46rem, 100vw', priority: true })
    }<div class="intro"><div class="brand">${
      menu.logo &&
      thumbnailTag(sourcesOf(menu.logo, ctx), { className: 'logo', alt: t('logoAlt', { name: menu.name }), width: 56, height: 56 })
    }<div><h1>${title}</h1>${menu.subtitle && html`<p class="subtitle">${menu.subtitle}</p>`}</div></div>${
      menu.description && html`<p class="text">${menu.description}</p>`
    }${facts.length > 0 && html`<ul class="facts">${facts}</ul>`}</div></header>
${named.length > 1 && html`<nav class="tabs" aria-label="${t('sections')}">${named.map((g) => html`<a href="#g${groups.indexOf(g) + 1}">${g.name}</a>`)}</nav>`}
${renderFilters(words, locale)}
${groups.length === 0 && html`<p class="none">${t('preparing')}</p>`}
${groups.map(
  (g, i) =>
    html`<section class="grp" id="g${i + 1}"${g.name ? html` aria-labelledby="g${i + 1}-h"` : ''}>${g.name && html`<h2 id="g${i + 1}-h">${g.name}</h2>`}${sectionImage(g.image, ctx)}${g.categories.map(
      (c) => renderCategory(c, ctx),
    )}</section>`,
)}
${cut > 0 && html`<p class="none">${counted(locale, cut, 'cutOne', 'cutOther')}</p>`}
<p id="mf-none" class="none" role="status" hidden>${t('noMatches')}</p>
${renderVisit(menu, clock, urls, locale)}
${renderJsonLd(menu, urls, baseUrl)}`,
  });
}

/** A menu link that serves no cafe (made with POST /links rather than POST /cafes): its name and a note. */
export function renderMenuPlaceholderPage(data: LinkDataByType['menu'], locale: PageLocale): PageContent {
  const title = data.name?.trim() ? data.name : 'Menu';
  return {
    title,
    content: html`<h1>${title}</h1><p class="card">${menuText(locale, 'placeholder')}</p>`,
  };
}
