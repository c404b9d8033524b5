/**
 * How a page reports a tap on one of its actions: a `ping` attribute on the action's link, which
 * the browser sends itself (a POST after the navigation starts), so the action never waits for it,
 * needs no script and no CSP change (pings are fetches under `connect-src 'self'`). A button that
 * is not a link (wifi's Copy password) names its address in `data-tap`, and its script sends a
 * beacon there. Nothing for a page made without tap addresses.
 */
import type { PageAction } from '#domain/page-actions/actions.js';
import { html, type SafeHtml } from './html.js';
import type { PageUrls } from './types.js';

/** ` ping="/_/tap/<slug>/<action>"`, to put inside an `<a>` tag. */
export function pingOf(urls: Pick<PageUrls, 'tap'>, action: PageAction): SafeHtml | '' {
  return urls.tap ? html` ping="${urls.tap(action)}"` : '';
}

/** ` data-tap="…"`, for a control whose script reports the tap with `navigator.sendBeacon`. */
export function beaconOf(urls: Pick<PageUrls, 'tap'>, action: PageAction): SafeHtml | '' {
  return urls.tap ? html` data-tap="${urls.tap(action)}"` : '';
}
