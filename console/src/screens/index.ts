/** The built pages' screens, by path; a page without one shows where the API does its work. */
import type { FunctionComponent } from 'preact';
import { ApiKeys } from './ApiKeys.js';
import { Home } from './Home.js';
import { Jobs } from './Jobs.js';
import { Links } from './Links.js';
import { lazyComponent } from '../lazy.js';
import { pageOf } from '../nav.js';
import type { ScreenProps } from './screen-props.js';

export const SCREENS: Readonly<Record<string, FunctionComponent<ScreenProps>>> = {
  '/': Home,
  '/jobs': Jobs,
  '/links': Links,
  '/keys': ApiKeys,
  // Only people making batches need the bulk screen's code.
  '/bulk': lazyComponent(() => import('./Bulk.js').then((m) => m.Bulk), 'Bulk page'),
  // The designer and the QR renderer come with the Templates page, when it is opened.
  '/templates': lazyComponent(() => import('../qr/Templates.js').then((m) => m.Templates), 'Templates page'),
  '/utm-templates': lazyComponent(() => import('../links/UtmTemplates.js').then((m) => m.UtmTemplates), 'UTM templates page'),
  // uPlot comes with the dashboard only.
  '/analytics': lazyComponent(() => import('../analytics/Analytics.js').then((m) => m.Analytics), 'Analytics page'),
  '/cafes': lazyComponent(() => import('./Cafes.js').then((m) => m.Cafes), 'Cafes page'),
  '/domains': lazyComponent(() => import('../domains/Domains.js').then((m) => m.Domains), 'Domains page'),
  '/webhooks': lazyComponent(() => import('../webhooks/Webhooks.js').then((m) => m.Webhooks), 'Webhooks page'),
  '/members': lazyComponent(() => import('../people/Members.js').then((m) => m.Members), 'Members page'),
  '/activity': lazyComponent(() => import('../people/Activity.js').then((m) => m.Activity), 'Activity page'),
  // The QR encoder comes with the profile, for setting up two-factor sign-in.
  '/profile': lazyComponent(() => import('../people/Profile.js').then((m) => m.Profile), 'Profile page'),
};

/**
 * Starts fetching the code of the screen at `path` when it comes on demand: at boot, beside the key
 * check, so the screen does not wait for the check and then for its code. A failure here is
 * left for the screen itself to say.
 */
export function preloadScreen(path: string): void {
  const page = pageOf(path);
  const screen = page && SCREENS[page.path];
  if (screen && 'preload' in screen && typeof screen.preload === 'function') void screen.preload().catch(() => {});
}

/** The design system page (#/design): not in the navigation; its code comes only when opened. */
export const DesignSystemScreen = lazyComponent(() => import('./DesignSystem.js').then((m) => m.DesignSystem), 'Design system page');
