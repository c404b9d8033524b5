/**
 * product links: images, name, description and the price breakdown as entered. The amounts are
 * shown as stored (the API does not cross-check them: tax and rounding rules vary); only a
 * percentage discount is also shown as the amount it takes off the subtotal.
 */
import type { LinkDataByType } from '../../shared/links/data/index.js';
import type { ResolvedLink } from '../../shared/links/resolve/resolved-link.js';
import { html } from './html.js';
import { htmlPage } from './layout.js';
import { imageAlt, linkFiles } from './files.js';
import type { Page, PageUrls } from './types.js';

const STYLES =
  '.product-images{list-style:none;padding:0;display:grid;grid-template-columns:repeat(4,1fr);gap:.5rem}' +
  '.product-images li:first-child{grid-column:1/-1}.product-images img{display:block;width:100%;aspect-ratio:1;object-fit:cover;border-radius:.75rem}' +
  '.prices{width:100%;border-collapse:collapse;margin:0 0 1rem}.prices caption{text-align:left}.prices th{text-align:left;font-weight:400}.prices td{text-align:right;font-variant-numeric:tabular-nums}' +
  '.prices th,.prices td{padding:.5rem 0;border-bottom:1px solid var(--line)}.prices .total th,.prices .total td{font-weight:700;border-bottom:0;font-size:1.2rem}';

export function renderProductPage(link: ResolvedLink, data: LinkDataByType['product'], urls: PageUrls): Page {
  const money = new Intl.NumberFormat('en', { style: 'currency', currency: data.currency });
  const images = linkFiles(link, data.images?.files.map((f) => f.fileId) ?? []);
  const discount = data.discount;
  const discountAmount = discount && (discount.type === 'percent' ? (data.subTotal * discount.value) / 100 : discount.value);
  const discountLabel = discount?.type === 'percent' ? `Discount (${new Intl.NumberFormat('en').format(discount.value)}%)` : 'Discount';
  return htmlPage({
    title: data.productName,
    styles: STYLES,
    content: html`${images.length > 0 &&
      html`<ul class="product-images">${images.map((file, i) => html`<li><img src="${urls.file(file.id)}" alt="${imageAlt(file, i, images.length)}"></li>`)}</ul>`}
<h1>${data.productName}</h1>
<p class="text">${data.productDescription}</p>
<table class="prices"><caption class="muted">Price in ${data.currency.toUpperCase()}</caption>
<tr><th scope="row">Subtotal</th><td>${money.format(data.subTotal)}</td></tr>
${discountAmount !== undefined && html`<tr><th scope="row">${discountLabel}</th><td>−${money.format(discountAmount)}</td></tr>`}
<tr><th scope="row">Tax</th><td>${money.format(data.tax)}</td></tr>
<tr class="total"><th scope="row">Total</th><td>${money.format(data.totalNet)}</td></tr>
</table>`,
  });
}
