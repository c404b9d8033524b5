/**
 * location links: the coordinates, a main button that opens them in the scanner's own maps app
 * (maps.ts chooses by platform), and links to the other maps (nothing loads from them).
 */
import type { LinkDataByType } from '../../shared/links/data/index.js';
import { html } from './html.js';
import type { PageContent } from './layout.js';
import { mapLink } from './maps.js';
import type { Scanner } from './types.js';
import type { PageLocale } from './locale.js';

/** 48.8584° N, 2.2945° E: at most 6 decimals (about 10 cm), no trailing zeros. */
function formatCoordinates(latitude: number, longitude: number): string {
  const part = (value: number, positive: string, negative: string) =>
    `${Number(Math.abs(value).toFixed(6))}° ${value < 0 ? negative : positive}`;
  return `${part(latitude, 'N', 'S')}, ${part(longitude, 'E', 'W')}`;
}

/** `name`: the link's own name, the page's heading (the data has no title of its own). */
export function renderLocationPage(name: string, { latitude, longitude }: LinkDataByType['location'], scanner: Scanner, _locale: PageLocale): PageContent {
  const point = `${latitude},${longitude}`;
  const query = encodeURIComponent(point);
  const main = mapLink({ latitude, longitude }, scanner.platform);
  const others = [
    { label: 'Apple Maps', href: mapLink({ latitude, longitude }, 'ios').href },
    { label: 'Google Maps', href: mapLink({ latitude, longitude }, 'other').href },
    { label: 'OpenStreetMap', href: `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=17/${latitude}/${longitude}` },
    ...(scanner.platform === 'android' ? [] : [{ label: 'Other maps app', href: `geo:${point}?q=${query}` }]),
  ].filter((link) => link.href !== main.href);
  return {
    title: name,
    content: html`<h1>${name}</h1>
<p class="card">${formatCoordinates(latitude, longitude)}</p>
<a class="button" href="${main.href}">${main.label}</a>
${others.map((link) => html`<a class="button secondary" href="${link.href}">${link.label}</a>`)}`,
  };
}
