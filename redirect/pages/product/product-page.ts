/**
 * product links: images, name, description and the price breakdown as entered. The amounts are
 * shown as stored (the API does not cross-check them: tax and rounding rules vary); only a
 * percentage discount is also shown as the amount it takes off the subtotal.
 */
import type { LinkDataByType } from '#domain/links/data/index.js';
import type { ResolvedLink } from '#domain/links/resolve/resolved-link.js';
import { checkedUrl, html } from '../common/html.js';
import type { PageContent } from '../common/layout.js';
import { COLUMN_SIZES, imageAlt, imageViewers, linkFiles, VIEWER_SCRIPT, VIEWER_STYLES } from '../files/files-page.js';
import { imageSources, pictureTag } from '../common/images.js';
import { formatPrice, numberFormat, type PageLocale } from '../common/locale.js';
import { productText } from './product-messages.js';
import type { PageUrls } from '../common/types.js';
import { pingOf } from '../common/taps.js';

const STYLES =
  '.product-images{list-style:none;padding:0;display:grid;grid-template-columns:repeat(4,1fr);gap:.5rem}' +
  '.product-images li:first-child{grid-column:1/-1}.product-images a{display:block}.product-images img{display:block;width:100%;aspect-ratio:1;object-fit:cover;border-radius:.75rem}' +
  '.prices{width:100%;border-collapse:collapse;margin:0 0 1rem}.prices caption{text-align:left}.prices th{text-align:left;font-weight:400}.prices td{text-align:right;font-variant-numeric:tabular-nums}' +
  '.prices th,.prices td{padding:.5rem 0;border-bottom:1px solid var(--line)}.prices .total th,.prices .total td{font-weight:700;border-bottom:0;font-size:1.2rem}';

/**
 * A product made by bulk generation may leave out its description and amounts (only name and
 * productName are required there): those parts of the page are left out, not shown as NaN.
 */
type ProductData = Omit<LinkDataByType['product'], 'productDescription' | 'subTotal' | 'tax' | 'totalNet'> &
  Partial<Pick<LinkDataByType['product'], 'productDescription' | 'subTotal' | 'tax' | 'totalNet'>>;

/**
 * The page: the images (the first large; each opens the shared image viewer, so a tap shows it
 * whole), the name, a Buy button when the owner gave a shop link, the description and the prices
 * as the page's locale writes them.
 */
export function renderProductPage(link: ResolvedLink, data: ProductData, urls: PageUrls, locale: PageLocale): PageContent {
  const money = (amount: number) => formatPrice(locale, amount, data.currency);
  const images = linkFiles(link, data.images?.files.map((f) => f.fileId) ?? []);
  const discount = data.discount;
  const discountAmount = discount && (discount.type === 'percent' ? ((data.subTotal ?? 0) * discount.value) / 100 : discount.value);
  const hasPrices = data.subTotal !== undefined || data.tax !== undefined || data.totalNet !== undefined;
  const discountLabel =
    discount?.type === 'percent'
      ? productText(locale, 'discountPercent', {
          percent: numberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }).format(discount.value / 100),
        })
      : productText(locale, 'discount');
  const buy = checkedUrl(data.buyUrl, ['http', 'https']);
  return {
    title: data.productName,
    styles: STYLES + VIEWER_STYLES,
    ...(images.length > 0 ? { script: VIEWER_SCRIPT } : {}),
    content: html`${
      images.length > 0 &&
      html`<ul class="product-images">${images.map(
        (file, i) =>
          html`<li id="image-${i + 1}"><a href="#view-${i + 1}">${pictureTag(imageSources(file, urls.file), {
            alt: imageAlt(locale, data.productName, i, images.length),
            sizes: i === 0 ? COLUMN_SIZES : '(min-width: 36rem) 8rem, 25vw',
            priority: i === 0,
            lazy: i > 0,
          })}</a></li>`,
      )}</ul>${imageViewers(data.productName, images, urls, locale)}`
    }
<h1>${data.productName}</h1>
${buy && html`<a class="button" href="${buy}"${pingOf(urls, 'website')}>${productText(locale, 'buy')}</a>`}
${data.productDescription !== undefined && html`<p class="text">${data.productDescription}</p>`}
${
  hasPrices &&
  html`<table class="prices"><caption class="muted">${productText(locale, 'priceIn', { currency: data.currency.toUpperCase() })}</caption>
${data.subTotal !== undefined && html`<tr><th scope="row">${productText(locale, 'subtotal')}</th><td>${money(data.subTotal)}</td></tr>`}
${discountAmount !== undefined && html`<tr><th scope="row">${discountLabel}</th><td>−${money(discountAmount)}</td></tr>`}
${data.tax !== undefined && html`<tr><th scope="row">${productText(locale, 'tax')}</th><td>${money(data.tax)}</td></tr>`}
${data.totalNet !== undefined && html`<tr class="total"><th scope="row">${productText(locale, 'total')}</th><td>${money(data.totalNet)}</td></tr>`}
</table>`
}`,
  };
}
