/**
 * Map links that open on the scanner's own device, by platform:
 * - iOS: Apple Maps web links (`https://maps.apple.com/?ll=…&q=…`, Apple's "Map Links" reference),
 *   which iOS opens in the Maps app; Safari does not open `geo:`.
 * - Android: `geo:` URIs (Android's "Common intents": `geo:lat,lng?q=lat,lng(label)` and
 *   `geo:0,0?q=<address>`), which open the user's chosen maps app.
 * - Anything else (desktop): Google Maps' web search URL (`/maps/search/?api=1&query=…`, Google's
 *   "Maps URLs" reference), which also hands off to the app on phones.
 */
import type { Visitor } from '../../shared/scans/types.js';

export type ScannerPlatform = 'ios' | 'android' | 'other';

/** The platform a map or calendar link should suit, from ua-parser's OS name. */
export function platformOf(osName: Visitor['osName']): ScannerPlatform {
  if (osName === 'iOS' || osName === 'iPadOS') return 'ios';
  if (osName === 'Android' || osName === 'HarmonyOS') return 'android';
  return 'other';
}

export type Place = { latitude: number; longitude: number; label?: string } | { address: string };

export interface MapLink {
  href: string;
  /** What the button says: the app it opens. */
  label: string;
}

/** The map link for the scanner's platform. */
export function mapLink(place: Place, platform: ScannerPlatform): MapLink {
  if ('address' in place) {
    const q = encodeURIComponent(place.address);
    if (platform === 'ios') return { href: `https://maps.apple.com/?q=${q}`, label: 'Open in Apple Maps' };
    if (platform === 'android') return { href: `geo:0,0?q=${q}`, label: 'Open in maps app' };
    return { href: `https://www.google.com/maps/search/?api=1&query=${q}`, label: 'Open in Google Maps' };
  }
  const point = `${place.latitude},${place.longitude}`;
  if (platform === 'ios') return { href: `https://maps.apple.com/?ll=${point}&q=${encodeURIComponent(place.label ?? point)}`, label: 'Open in Apple Maps' };
  if (platform === 'android') {
    const label = place.label ? `(${encodeURIComponent(place.label)})` : '';
    return { href: `geo:${point}?q=${point}${label}`, label: 'Open in maps app' };
  }
  return { href: `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(point)}`, label: 'Open in Google Maps' };
}
