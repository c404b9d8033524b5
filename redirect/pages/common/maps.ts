/**
 * Map links that open on the scanner's own device, by platform:
 * - iOS: Apple Maps web links (`https://maps.apple.com/?ll=…&q=…`, Apple's "Map Links" reference),
 *   which iOS opens in the Maps app; Safari does not open `geo:`.
 * - Android: `geo:` URIs (Android's "Common intents": `geo:lat,lng?q=lat,lng(label)` and
 *   `geo:0,0?q=<address>`), which open the user's chosen maps app. Apple Maps is not offered there.
 * - Anything else (desktop): Google Maps' web search URL (`/maps/search/?api=1&query=…`, Google's
 *   "Maps URLs" reference), which also hands off to the app on phones.
 */
import type { Visitor } from '#domain/scans/types.js';
import type { PageLocale } from './locale.js';
import { locationText } from '../location/location-messages.js';

export type ScannerPlatform = 'ios' | 'android' | 'other';

/** The platform a map or calendar link should suit, from ua-parser's OS name. */
export function platformOf(osName: Visitor['osName']): ScannerPlatform {
  if (osName === 'iOS' || osName === 'iPadOS') return 'ios';
  if (osName === 'Android' || osName === 'HarmonyOS') return 'android';
  return 'other';
}

/** A point (its pin titled `label` where the app takes a title) or an address to search for. */
export type Place = { latitude: number; longitude: number; label?: string } | { address: string };

/** The apps a place can open in: `device` is Android's own choice of maps app (`geo:`). */
export type MapApp = 'apple' | 'google' | 'device';

/** The app that suits the scanner's phone. */
export function mapAppFor(platform: ScannerPlatform): MapApp {
  return platform === 'ios' ? 'apple' : platform === 'android' ? 'device' : 'google';
}

/** The link that opens `place` in `app`. */
export function mapHref(place: Place, app: MapApp): string {
  if ('address' in place) {
    const q = encodeURIComponent(place.address);
    if (app === 'apple') return `https://maps.apple.com/?q=${q}`;
    if (app === 'device') return `geo:0,0?q=${q}`;
    return `https://www.google.com/maps/search/?api=1&query=${q}`;
  }
  const point = `${place.latitude},${place.longitude}`;
  if (app === 'apple') return `https://maps.apple.com/?ll=${point}&q=${encodeURIComponent(place.label ?? point)}`;
  if (app === 'device') return `geo:${point}?q=${point}${place.label ? `(${encodeURIComponent(place.label)})` : ''}`;
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(point)}`;
}

/** What the main button of an app says: "Open in Apple Maps". */
export function openInLabel(app: MapApp, locale: PageLocale): string {
  return locationText(locale, app === 'apple' ? 'openInAppleMaps' : app === 'device' ? 'openInMapsApp' : 'openInGoogleMaps');
}
