/**
 * The menu's groups, categories and items as HTML: each dish with its photo (opening large in a
 * `:target` sheet), price, badges, spice level, ingredients, allergens and tags, and the images
 * of groups and categories, each copy chosen by the size the theme shows it at.
 */
import { dietOf } from '#domain/cafes/diets.js';
import type { PublishedCategory, PublishedItem, PublishedMenu } from '#domain/cafes/published-menu.js';
import type { MenuTheme } from '#domain/cafes/themes.js';
import { html, type HtmlValue, type SafeHtml } from '../common/html.js';
import { imageSources, pictureTag, thumbnailTag, type ImageSources } from '../common/images.js';
import { formatPrice, type PageLocale } from '../common/locale.js';
import { menuText } from './menu-messages.js';
import { allergenKey, dietLabel, SPICE } from './words.js';
import { pingOf } from '../common/taps.js';
import type { PageUrls } from '../common/types.js';

/** Where the page's images are served (the redirect's /files/:id), and where its taps are reported (none in a preview: not a guest's). */
export interface MenuPageUrls extends Pick<PageUrls, 'tap'> {
  file(id: string): string;
}

/** How wide a dish photo is shown in each layout, for the browser's choice of copy (main is at most 46rem, groups pad 1.25rem). */
export const LAYOUT_IMAGE_SIZES: Record<MenuTheme['layout'], string | null> = {
  // 88 px: the smallest copy (480 px) is more than twice that.
  list: null,
  cards: '(min-width: 46rem) 43.5rem, calc(100vw - 2.5rem)',
  grid: '(min-width: 46rem) 14rem, calc(50vw - 1.625rem)',
};

/** A group's or category's banner, and a photo in the sheet: as wide as the column. */
const COLUMN_SIZES = '(min-width: 46rem) 43.5rem, calc(100vw - 2.5rem)';

export interface ItemContext {
  locale: PageLocale;
  urls: MenuPageUrls;
  variants: PublishedMenu['imageVariants'];
  showDiets: boolean;
  /** How wide the theme shows a dish photo (`sizes`); null: a thumbnail. */
  imageSizes: string | null;
  /** Numbers the items, for their photo sheets' fragments. */
  next: () => number;
}

export const sourcesOf = (id: string, ctx: Pick<ItemContext, 'urls' | 'variants'>): ImageSources =>
  imageSources({ id, variants: ctx.variants[id] }, ctx.urls.file);

/** The item, and its photo's sheet (put after its list: a sheet is no list item). */
function renderItem(item: PublishedItem, ctx: ItemContext): { item: SafeHtml; sheet: HtmlValue } {
  const { locale } = ctx;
  const n = ctx.next();
  const allergenKeys = [...new Set(item.allergens.map(allergenKey).filter(Boolean))];
  const diets = [...new Set(item.tags.map(dietOf).filter((d): d is string => d !== null))];
  // Dietary tags are badges when the cafe shows its dietary section; every other tag is a plain tag.
  const plainTags = ctx.showDiets ? item.tags.filter((t) => dietOf(t) === null) : item.tags;
  const spice = SPICE[item.spiceLevel] ?? SPICE.none;
  const spiceLabel = menuText(locale, spice.key);
  const badges: HtmlValue[] = [
    item.isFeatured && html`<span class="badge">${menuText(locale, 'featured')}</span>`,
    item.isNew && html`<span class="badge">${menuText(locale, 'new')}</span>`,
    item.isRecommended && html`<span class="badge">${menuText(locale, 'recommended')}</span>`,
    ctx.showDiets && diets.map((d) => html`<span class="badge diet-tag">${dietLabel(locale, d)}</span>`),
    spice.peppers > 0 &&
      html`<span class="spice" role="img" aria-label="${menuText(locale, 'spiceLevel', { level: spiceLabel })}" title="${spiceLabel}">${'🌶️'.repeat(spice.peppers)}</span>`,
  ];
  const hasBadges = badges.some((b) => b && (!Array.isArray(b) || b.length > 0));
  const price = formatPrice(locale, Number(item.price), item.currency);
  const sources = item.image ? sourcesOf(item.image, ctx) : null;
  const photo =
    sources &&
    html`<a class="zoom" id="i${n}" href="#d${n}"${pingOf(ctx.urls, 'open_dish')} aria-label="${menuText(locale, 'photoOf', { name: item.name })}">${
      ctx.imageSizes
        ? pictureTag(sources, { alt: item.name, sizes: ctx.imageSizes, lazy: true })
        : thumbnailTag(sources, { alt: item.name, lazy: true, width: 88, height: 88 })
    }</a>`;
  const sheet =
    sources &&
    html`<div class="sheet" id="d${n}" role="dialog" aria-label="${item.name}"><a class="close" href="#i${n}">${menuText(locale, 'closePhoto')}</a>${pictureTag(
      sources,
      {
        alt: item.name,
        sizes: COLUMN_SIZES,
        lazy: true,
      },
    )}<p><b>${item.name}</b> · ${price}</p>${item.description && html`<p class="text">${item.description}</p>`}</div>`;
  return {
    item: html`<li class="item" data-a="${allergenKeys.join('|')}" data-d="${diets.join('|')}">${photo}<div class="body"><div class="top"><h4 class="s">${item.name}</h4><span class="price">${price}</span></div>${
      hasBadges && html`<p class="badges">${badges}</p>`
    }${item.description && html`<p class="desc text s">${item.description}</p>`}${
      item.ingredients.length > 0 &&
      html`<p class="meta"><b>${menuText(locale, 'ingredients')}</b> <span class="s">${item.ingredients.join(', ')}</span></p>`
    }${item.allergens.length > 0 && html`<p class="meta"><b>${menuText(locale, 'allergens')}</b> ${item.allergens.join(', ')}</p>`}${
      plainTags.length > 0 && html`<p class="badges">${plainTags.map((t) => html`<span class="tag">${t}</span>`)}</p>`
    }</div></li>`,
    sheet,
  };
}

/** A group's or category's image, as wide as the column, loaded when it nears the screen. */
export function sectionImage(id: string | null, ctx: ItemContext): HtmlValue {
  return id && pictureTag(sourcesOf(id, ctx), { className: 'section-img', alt: '', sizes: COLUMN_SIZES, lazy: true });
}

export function renderCategory(category: PublishedCategory, ctx: ItemContext): SafeHtml {
  const rendered = category.items.map((item) => renderItem(item, ctx));
  return html`<section class="cat"><h3>${category.name}</h3>${sectionImage(category.image, ctx)}${category.description && html`<p class="text">${category.description}</p>`}<ul class="items">${rendered.map(
    (r) => r.item,
  )}</ul>${rendered.map((r) => r.sheet)}</section>`;
}
