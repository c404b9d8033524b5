/**
 * The menu's search and filters: the dietary tags and allergens its visible items carry (with
 * their labels in the page's language and counts), and the form the script (client.ts) drives.
 */
import { dietOf } from '#domain/cafes/diets.js';
import type { PublishedMenu } from '#domain/cafes/published-menu.js';
import { html, type SafeHtml } from '../common/html.js';
import type { PageLocale } from '../common/locale.js';
import { menuText } from './menu-messages.js';
import { allergenKey, allergenLabel, dietLabel } from './words.js';

interface FilterWords {
  /** key → label (in the page's language) and how many visible items carry it. */
  allergens: Map<string, { label: string; count: number }>;
  diets: Map<string, { label: string; count: number }>;
}

export function collectFilterWords(groups: PublishedMenu['groups'], locale: PageLocale): FilterWords {
  const words: FilterWords = { allergens: new Map(), diets: new Map() };
  const count = (map: FilterWords['allergens'], key: string, label: () => string) => {
    const entry = map.get(key);
    if (entry) entry.count++;
    else map.set(key, { label: label(), count: 1 });
  };
  for (const group of groups) {
    for (const category of group.categories) {
      for (const item of category.items) {
        for (const allergen of new Set(item.allergens.map(allergenKey))) {
          if (allergen)
            count(words.allergens, allergen, () =>
              allergenLabel(
                locale,
                item.allergens.find((a) => allergenKey(a) === allergen)!,
              ),
            );
        }
        for (const diet of new Set(item.tags.map(dietOf))) if (diet) count(words.diets, diet, () => dietLabel(locale, diet));
      }
    }
  }
  const sorted = (map: FilterWords['allergens']) => new Map([...map].sort((a, b) => a[1].label.localeCompare(b[1].label, locale.tag)));
  return { allergens: sorted(words.allergens), diets: sorted(words.diets) };
}

export function renderFilters(words: FilterWords, locale: PageLocale): SafeHtml {
  const chips = (name: 'diet' | 'avoid', map: FilterWords['allergens']) =>
    html`<ul class="chips">${[...map].map(
      ([key, { label, count }]) =>
        html`<li><label class="chip"><input type="checkbox" name="${name}" value="${key}" id="${name}-${key}"><span>${label}${name === 'diet' ? ` (${count})` : ''}</span></label></li>`,
    )}</ul>`;
  const hasChoices = words.diets.size > 0 || words.allergens.size > 0;
  // Hidden until the script runs: without it, the form could not filter anything.
  return html`<form id="mf" class="filters" role="search" hidden data-off="${menuText(locale, 'filters')}" data-on="${menuText(locale, 'filtersOn')}" data-one="${menuText(
    locale,
    'matchesOne',
  )}" data-other="${menuText(locale, 'matchesOther')}">
<label for="mf-q" class="sr">${menuText(locale, 'searchLabel')}</label>
<input type="search" id="mf-q" name="q" placeholder="${menuText(locale, 'searchPlaceholder')}" autocomplete="off" enterkeyhint="search">
${
  hasChoices &&
  html`<details><summary>${menuText(locale, 'filters')}</summary>
${words.diets.size > 0 && html`<fieldset><legend>${menuText(locale, 'onlyShow')}</legend>${chips('diet', words.diets)}</fieldset>`}
${words.allergens.size > 0 && html`<fieldset><legend>${menuText(locale, 'hideWith')}</legend>${chips('avoid', words.allergens)}</fieldset>`}
<button type="reset">${menuText(locale, 'clearFilters')}</button>
</details>`
}
<p id="mf-found" class="found" role="status" hidden></p>
</form>`;
}
