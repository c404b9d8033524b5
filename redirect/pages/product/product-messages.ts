/** The words of the product page. */
import { catalogue } from '../common/catalogue.js';

export const productText = catalogue(
  {
    buy: 'Buy',
    priceIn: 'Price in {currency}',
    subtotal: 'Subtotal',
    discount: 'Discount',
    discountPercent: 'Discount ({percent})',
    tax: 'Tax',
    total: 'Total',
  },
  {
    pt: {
      buy: 'Comprar',
      priceIn: 'Preço em {currency}',
      subtotal: 'Subtotal',
      discount: 'Desconto',
      discountPercent: 'Desconto ({percent})',
      tax: 'Imposto',
      total: 'Total',
    },
    es: {
      buy: 'Comprar',
      priceIn: 'Precio en {currency}',
      subtotal: 'Subtotal',
      discount: 'Descuento',
      discountPercent: 'Descuento ({percent})',
      tax: 'Impuestos',
      total: 'Total',
    },
    fr: {
      buy: 'Acheter',
      priceIn: 'Prix en {currency}',
      subtotal: 'Sous-total',
      discount: 'Remise',
      discountPercent: 'Remise ({percent})',
      tax: 'Taxes',
      total: 'Total',
    },
    de: {
      buy: 'Kaufen',
      priceIn: 'Preis in {currency}',
      subtotal: 'Zwischensumme',
      discount: 'Rabatt',
      discountPercent: 'Rabatt ({percent})',
      tax: 'Steuer',
      total: 'Gesamt',
    },
  },
);
