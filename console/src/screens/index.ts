/** The built pages' screens, by path; a page without one shows where the API does its work. */
import type { FunctionComponent } from 'preact';
import type { Me } from '../api/client.js';
import { ApiKeys } from './ApiKeys.js';
import { Jobs } from './Jobs.js';
import { lazyScreen } from './lazy.js';
import { Links } from './Links.js';
import { Templates } from './Templates.js';

/** What a screen is given: who is signed in, and the rest of the path beneath its page (`/new` of `/links/new`, '' on the page itself). */
export interface ScreenProps {
  me: Me;
  subpath: string;
}

export const SCREENS: Readonly<Record<string, FunctionComponent<ScreenProps>>> = {
  '/jobs': Jobs,
  '/links': Links,
  '/keys': ApiKeys,
  // Only people making batches need the bulk screen's code.
  '/bulk': lazyScreen(() => import('./Bulk.js').then((m) => m.Bulk)),
  '/templates': Templates,
};
