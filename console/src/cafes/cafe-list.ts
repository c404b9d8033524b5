/**
 * The Cafes screen's mapping: the create form as the API's body, where a path under #/cafes leads,
 * and what a downloaded QR file is called. Components stay thin; this is what the unit tests read.
 */
import type { paths } from '../api/schema.js';
import { downloadName } from '../qr/download-name.js';

export type Cafe = paths['/api/v1/cafes']['get']['responses'][200]['content']['application/json']['data'][number];
type CreateCafeBody = paths['/api/v1/cafes']['post']['requestBody']['content']['application/json'];

/** The longest name the API takes (a link's name, which the cafe's becomes). */
export const CAFE_NAME_MAX = 255;

/** The create form as POST /cafes' body, or what to fix first, keyed by the body path it concerns. */
export function createCafeBody(name: string): { body: CreateCafeBody } | { errors: Record<string, string> } {
  const trimmed = name.trim();
  if (!trimmed) return { errors: { name: 'Give the cafe a name: guests see it on the menu page.' } };
  if (trimmed.length > CAFE_NAME_MAX) return { errors: { name: `At most ${CAFE_NAME_MAX} characters.` } };
  return { body: { name: trimmed } };
}

/** The cafe editor's tabs, in their order on screen; each is a path of its own (`#/cafes/<id>/look`). */
export const CAFE_TABS = ['menu', 'profile', 'look', 'import'] as const;
export type CafeTab = (typeof CAFE_TABS)[number];

/** What a path beneath #/cafes shows: the list (''), one cafe's editor at a tab (the menu when none is named), or nothing there. */
export type CafeRoute = { view: 'list' } | { view: 'cafe'; id: string; tab: CafeTab } | { view: 'none' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function cafeRouteOf(subpath: string): CafeRoute {
  const path = subpath.split('?')[0]!;
  if (path === '' || path === '/') return { view: 'list' };
  const [, id, tab = 'menu'] = /^\/([^/]+)(?:\/([^/]+))?\/?$/.exec(path) ?? [];
  if (!id || !UUID.test(id) || !(CAFE_TABS as readonly string[]).includes(tab)) return { view: 'none' };
  return { view: 'cafe', id: id.toLowerCase(), tab: tab as CafeTab };
}

/** The address of a cafe's tab. */
export const cafeTabHref = (id: string, tab: CafeTab) => `#/cafes/${id}/${tab}`;

/** The QR download's file name (`cafe-aroma-menu-512.png`), named as the designer's downloads are. */
export const qrFileName = (cafeName: string, size: number) => downloadName(`${cafeName} menu`, size, 'png');
