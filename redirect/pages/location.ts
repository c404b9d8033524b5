/** location links: the coordinates and links that open them in a maps app or site (nothing loads from them). */
import type { LinkDataByType } from '../../shared/links/data/index.js';
import { html } from './html.js';
import { htmlPage } from './layout.js';
import type { Page } from './types.js';

/** 48.8584° N, 2.2945° E: at most 6 decimals (about 10 cm), no trailing zeros. */
function formatCoordinates(latitude: number, longitude: number): string {
  const part = (value: number, positive: string, negative: string) =>
    `${Number(Math.abs(value).toFixed(6))}° ${value < 0 ? negative : positive}`;
  return `${part(latitude, 'N', 'S')}, ${part(longitude, 'E', 'W')}`;
}

export function renderLocationPage({ latitude, longitude }: LinkDataByType['location']): Page {
  const point = `${latitude},${longitude}`;
  const query = encodeURIComponent(point);
  return htmlPage({
    title: 'Location',
    content: html`<h1>Location</h1>
<p class="card">${formatCoordinates(latitude, longitude)}</p>
<a class="button" href="geo:${point}?q=${query}">Open in maps app</a>
<a class="button secondary" href="https://www.openstreetmap.org/?mlat=${latitude}&amp;mlon=${longitude}#map=17/${latitude}/${longitude}">OpenStreetMap</a>
<a class="button secondary" href="https://www.google.com/maps/search/?api=1&amp;query=${query}">Google Maps</a>
<a class="button secondary" href="https://maps.apple.com/?ll=${point}&amp;q=${query}">Apple Maps</a>`,
  });
}
