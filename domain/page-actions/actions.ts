/**
 * The actions a hosted page offers and reports a tap of: a fixed list, so a beacon names one of a
 * few words and nothing a visitor types reaches the database. Each link type's page offers some of
 * them; a tap of an action its page does not offer is not counted.
 */
import type { LinkType } from '../links/data/types.js';

export const PAGE_ACTIONS = ['call', 'directions', 'website', 'save_contact', 'join_wifi', 'open_dish', 'register', 'download'] as const;
export type PageAction = (typeof PAGE_ACTIONS)[number];

/** What the funnel calls each action: the end of "1,204 scans → 310 …". */
export const PAGE_ACTION_NAMES: Readonly<Record<PageAction, string>> = {
  call: 'called',
  directions: 'asked for directions',
  website: 'opened the website',
  save_contact: 'saved the contact',
  join_wifi: 'copied the wifi password',
  open_dish: 'opened a dish',
  register: 'opened the registration',
  download: 'opened a file',
};

/** The actions each page offers (redirect/pages); types without a page of actions offer none. */
const ACTIONS_BY_TYPE: Partial<Record<LinkType, readonly PageAction[]>> = {
  vcard: ['call', 'directions', 'website', 'save_contact'],
  wifi: ['join_wifi'],
  location: ['directions'],
  event: ['register', 'directions'],
  pdf: ['download'],
  'multi-pdf': ['download'],
  product: ['website'],
  'multi-links': ['website'],
  menu: ['call', 'directions', 'website', 'open_dish'],
};

export function actionsOf(type: string): readonly PageAction[] {
  return ACTIONS_BY_TYPE[type as LinkType] ?? [];
}

export function isPageAction(value: string): value is PageAction {
  return (PAGE_ACTIONS as readonly string[]).includes(value);
}

/** Where a page reports a tap: under the reserved root segment `_`, which no slug may take (domain/links/slug-rules.ts). */
export function tapPath(slug: string, action: PageAction): string {
  return `/_/tap/${encodeURIComponent(slug)}/${action}`;
}
