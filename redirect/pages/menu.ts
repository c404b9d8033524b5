/** menu links: a placeholder until the cafe feature serves the live menu. */
import type { LinkDataByType } from '../../shared/links/data/index.js';
import { html } from './html.js';
import { htmlPage } from './layout.js';
import type { Page } from './types.js';

export function renderMenuPage(data: LinkDataByType['menu']): Page {
  const title = data.name?.trim() ? data.name : 'Menu';
  return htmlPage({
    title,
    content: html`<h1>${title}</h1><p class="card">This menu is being prepared. Please check back soon.</p>`,
  });
}
