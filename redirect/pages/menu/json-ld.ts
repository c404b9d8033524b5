/** The menu described to search engines: a schema.org Menu block, its size bounded. */
import { dietOf, DIETS } from '#domain/cafes/diets.js';
import type { PublishedCategory, PublishedMenu } from '#domain/cafes/published-menu.js';
import { SafeHtml } from '../common/html.js';
import type { MenuPageUrls } from './sections.js';

/** Items described in the schema.org block at most: enough for search engines, without doubling a huge page. */
export const JSON_LD_ITEMS_MAX = 500;

/** The schema.org Menu block; `<` is escaped so no text can close the script element. */
export function renderJsonLd(menu: PublishedMenu, urls: MenuPageUrls, baseUrl: string | undefined): SafeHtml {
  let budget = JSON_LD_ITEMS_MAX;
  const section = (name: string | null, categories: PublishedCategory[]) => ({
    '@type': 'MenuSection',
    ...(name ? { name } : {}),
    hasMenuSection: categories.map((category) => ({
      '@type': 'MenuSection',
      name: category.name,
      ...(category.description ? { description: category.description } : {}),
      hasMenuItem: category.items.slice(0, Math.max(0, budget)).map((item) => {
        budget--;
        const diets = [...new Set(item.tags.map(dietOf))].flatMap((d) =>
          d && DIETS[d]!.schema ? [`https://schema.org/${DIETS[d]!.schema}`] : [],
        );
        return {
          '@type': 'MenuItem',
          name: item.name,
          ...(item.description ? { description: item.description } : {}),
          ...(item.image && baseUrl ? { image: new URL(urls.file(item.image), baseUrl).href } : {}),
          offers: { '@type': 'Offer', price: String(Number(item.price)), priceCurrency: item.currency },
          ...(diets.length > 0 ? { suitableForDiet: diets } : {}),
        };
      }),
    })),
  });
  const data = {
    '@context': 'https://schema.org',
    '@type': 'Menu',
    name: menu.title?.trim() || menu.name,
    ...(menu.description ? { description: menu.description } : {}),
    hasMenuSection: menu.groups.map((g) => section(g.name, g.categories)),
  };
  const json = JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return new SafeHtml(`<script type="application/ld+json">${json}</script>`);
}
