/**
 * The links screen's view (search, filters, sort, page) and the URL that holds it, so a view can be
 * bookmarked and the back button walks the views. Only what differs from the default is written.
 */
import type { paths } from '../api/schema.js';
import { LINK_TYPES } from '#domain/links/data/types.js';

type ListQuery = NonNullable<paths['/api/v1/links']['get']['parameters']['query']>;
export type Link = paths['/api/v1/links']['get']['responses'][200]['content']['application/json']['data'][number];
export type LinkStatus = Link['status'];
export type Sort = NonNullable<ListQuery['sort_by']>;

export const SORTS: Record<Sort, string> = {
  most_recent: 'Newest first',
  name: 'Name',
  last_modified: 'Last changed',
  most_visited: 'Most scanned',
};
export const PAGE_SIZES = [20, 50, 100] as const;
export { LINK_TYPES };

export const STATUS_LABELS: Record<LinkStatus, string> = {
  active: 'Active',
  paused: 'Paused',
  scheduled: 'Scheduled',
  expired: 'Expired',
  limit_reached: 'Limit reached',
};

export interface LinkView {
  search: string;
  type: string | null;
  status: LinkStatus | null;
  folder: string | null;
  sort: Sort;
  page: number;
  size: number;
}

export const DEFAULT_VIEW: LinkView = {
  search: '',
  type: null,
  status: null,
  folder: null,
  sort: 'most_recent',
  page: 1,
  size: PAGE_SIZES[0],
};

const oneOf = <T extends string>(value: string | null, allowed: readonly T[]): T | null =>
  value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : null;

/** The view a query string (`search=x&page=2`) describes; anything unknown or malformed falls back to the default. */
export function viewFromQuery(query: string): LinkView {
  const params = new URLSearchParams(query);
  const whole = (name: string, fallback: number) => {
    const n = Number(params.get(name));
    return Number.isInteger(n) && n >= 1 ? n : fallback;
  };
  const size = whole('size', DEFAULT_VIEW.size);
  return {
    search: params.get('search')?.trim() ?? '',
    type: oneOf(params.get('type'), LINK_TYPES),
    status: oneOf(params.get('status'), Object.keys(STATUS_LABELS) as LinkStatus[]),
    folder: params.get('folder') || null,
    sort: oneOf(params.get('sort'), Object.keys(SORTS) as Sort[]) ?? DEFAULT_VIEW.sort,
    page: whole('page', 1),
    size: (PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_VIEW.size,
  };
}

export function queryFromView(view: LinkView): string {
  const params = new URLSearchParams();
  if (view.search) params.set('search', view.search);
  if (view.type) params.set('type', view.type);
  if (view.status) params.set('status', view.status);
  if (view.folder) params.set('folder', view.folder);
  if (view.sort !== DEFAULT_VIEW.sort) params.set('sort', view.sort);
  if (view.size !== DEFAULT_VIEW.size) params.set('size', String(view.size));
  if (view.page !== 1) params.set('page', String(view.page));
  return params.toString();
}

/** The console route (hash) of a view. */
export function routeOfView(view: LinkView): string {
  const query = queryFromView(view);
  return query ? `/links?${query}` : '/links';
}

/** A change of view from a control: any change but the page's own goes back to page 1. */
export function changeView(view: LinkView, change: Partial<LinkView>): LinkView {
  return { ...view, page: 1, ...change };
}

/** The list endpoint's query for a view. */
export function listQuery(view: LinkView): ListQuery {
  return {
    page: view.page,
    size: view.size,
    sort_by: view.sort,
    // Name, slug or destination: what the search box says it finds (the contract's `search` is the name only).
    ...(view.search ? { q: view.search } : {}),
    ...(view.type ? { qr_type: view.type } : {}),
    ...(view.status ? { status: view.status } : {}),
    ...(view.folder ? { folder: view.folder } : {}),
  };
}

/** The row actions a link offers, given its status: a paused link resumes, any other pauses. */
export function pauseAction(status: LinkStatus): 'pause' | 'resume' {
  return status === 'paused' ? 'resume' : 'pause';
}

/** The editor's pages beneath Links: `/new` (a query may name the type) and `/<slug>/edit`; null for any other path. */
export type EditorRoute = { mode: 'new' } | { mode: 'edit'; slug: string };

export function editorRouteOf(subpath: string): EditorRoute | null {
  if (subpath === '/new') return { mode: 'new' };
  const edit = /^\/([^/]+)\/edit$/.exec(subpath);
  if (!edit) return null;
  try {
    return { mode: 'edit', slug: decodeURIComponent(edit[1]!) };
  } catch {
    return null;
  }
}
