/**
 * location links: the place's name and address when the owner gave them, its coordinates, one
 * main button that opens it in the scanner's own maps app (maps.ts chooses by platform), and
 * links to the other maps that work there (nothing loads from them). The map pin is titled with
 * the place's name, else the link's name; coordinates only when there is neither.
 */
import type { LinkDataByType } from '#domain/links/data/index.js';
import { html } from '../common/html.js';
import type { PageContent } from '../common/layout.js';
import { numberFormat, type PageLocale } from '../common/locale.js';
import { locationText } from './location-messages.js';
import { pingOf } from '../common/taps.js';
import { mapAppFor, mapHref, openInLabel, type MapApp } from '../common/maps.js';
import type { PageUrls, Scanner } from '../common/types.js';

/** 48.8584° N, 2.2945° E: at most 6 decimals (about 10 cm), no trailing zeros, the locale's decimal sign. */
function formatCoordinates(latitude: number, longitude: number, locale: PageLocale): string {
  const number = numberFormat(locale, { maximumFractionDigits: 6 });
  const part = (value: number, positive: string, negative: string) =>
    `${number.format(Math.abs(value))}° ${value < 0 ? negative : positive}`;
  return `${part(latitude, 'N', 'S')}, ${part(longitude, 'E', 'W')}`;
}

/** The other maps each platform can open: never Apple Maps on Android, never `geo:` on iOS (Safari does not open it). */
const OTHER_MAPS: Record<MapApp, ReadonlyArray<MapApp | 'osm'>> = {
  apple: ['google', 'osm'],
  device: ['google', 'osm'],
  google: ['apple', 'osm', 'device'],
};

const APP_NAMES = { apple: 'appleMaps', google: 'googleMaps', osm: 'openStreetMap', device: 'otherMapsApp' } as const;

/** `linkName`: the link's own name, the heading when the place has no name of its own. */
export function renderLocationPage(
  linkName: string,
  data: LinkDataByType['location'],
  urls: Pick<PageUrls, 'tap'>,
  scanner: Scanner,
  locale: PageLocale,
): PageContent {
  const { latitude, longitude } = data;
  const placeName = data.name?.trim() || linkName.trim() || undefined;
  const address = data.address?.trim() ? data.address : undefined;
  const coordinates = formatCoordinates(latitude, longitude, locale);
  const place = { latitude, longitude, ...(placeName ? { label: placeName } : {}) };
  const main = mapAppFor(scanner.platform);
  const hrefOf = (app: MapApp | 'osm') =>
    app === 'osm'
      ? `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=17/${latitude}/${longitude}`
      : mapHref(place, app);
  return {
    title: placeName ?? coordinates,
    content: html`<h1>${placeName ?? coordinates}</h1>
${(placeName || address) && html`<div class="card">${address && html`<p class="text">${address}</p>`}${placeName && html`<p class="muted"><span class="visually-hidden">${locationText(locale, 'coordinates')}: </span>${coordinates}</p>`}</div>`}
<a class="button" href="${hrefOf(main)}"${pingOf(urls, 'directions')}>${openInLabel(main, locale)}</a>
<nav aria-label="${locationText(locale, 'alsoOpenIn')}">${OTHER_MAPS[main].map(
      (app) =>
        html`<a class="button secondary" href="${hrefOf(app)}"${pingOf(urls, 'directions')}>${locationText(locale, APP_NAMES[app])}</a>`,
    )}</nav>`,
    styles: '.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}',
  };
}
