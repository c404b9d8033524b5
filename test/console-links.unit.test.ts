/** The links screen's pure parts: the view kept in the URL, the list query it asks, status badges, scopes. */
import { describe, expect, it } from 'vitest';
import type { Me } from '../console/src/api/client.js';
import {
  changeView,
  DEFAULT_VIEW,
  listQuery,
  pauseAction,
  queryFromView,
  routeOfView,
  scopeBlock,
  STATUS_LABELS,
  viewFromQuery,
} from '../console/src/links/view.js';
import { LINK_STATUSES } from '../domain/links/status.js';

describe('links view in the URL', () => {
  it('the default view is the bare route', () => {
    expect(viewFromQuery('')).toEqual(DEFAULT_VIEW);
    expect(routeOfView(DEFAULT_VIEW)).toBe('/links');
  });

  it('a view survives the round trip through its query', () => {
    const view = {
      search: 'café & co',
      type: 'menu',
      status: 'limit_reached' as const,
      folder: '5b1c…',
      sort: 'most_visited' as const,
      page: 3,
      size: 50,
    };
    const query = queryFromView(view);
    expect(query).toBe('search=caf%C3%A9+%26+co&type=menu&status=limit_reached&folder=5b1c%E2%80%A6&sort=most_visited&size=50&page=3');
    expect(viewFromQuery(query)).toEqual(view);
  });

  it('unknown or malformed values fall back to the default instead of reaching the API', () => {
    expect(viewFromQuery('type=nope&status=gone&sort=random&page=-2&size=7')).toEqual(DEFAULT_VIEW);
    expect(viewFromQuery('page=1.5&size=abc').page).toBe(1);
    expect(viewFromQuery('search=%20%20x%20').search).toBe('x');
  });

  it('changing a filter returns to page 1; the page itself is kept when it is the change', () => {
    const onPage4 = { ...DEFAULT_VIEW, page: 4 };
    expect(changeView(onPage4, { type: 'website' })).toEqual({ ...DEFAULT_VIEW, type: 'website', page: 1 });
    expect(changeView(onPage4, { page: 5 }).page).toBe(5);
  });

  it('asks the list endpoint for exactly the view', () => {
    expect(listQuery(DEFAULT_VIEW)).toEqual({ page: 1, size: 20, sort_by: 'most_recent' });
    expect(listQuery({ ...DEFAULT_VIEW, search: 'x', type: 'pdf', status: 'paused', folder: 'f' })).toEqual({
      page: 1,
      size: 20,
      sort_by: 'most_recent',
      q: 'x',
      qr_type: 'pdf',
      status: 'paused',
      folder: 'f',
    });
  });
});

describe('status badges and actions', () => {
  it('every status the API can answer has a badge', () => {
    expect(Object.keys(STATUS_LABELS).sort()).toEqual([...LINK_STATUSES].sort());
    expect(STATUS_LABELS.limit_reached).toBe('Limit reached');
  });

  it('a paused link offers resume; every other status offers pause', () => {
    expect(LINK_STATUSES.map(pauseAction)).toEqual(['pause', 'resume', 'pause', 'pause', 'pause']);
  });

  it('a key without the scope is told which one it lacks', () => {
    const me = (scopes: string[]) => ({ key: { scopes } }) as unknown as Me;
    expect(scopeBlock(me(['all']), 'links.delete')).toBeNull();
    expect(scopeBlock(me(['links.read', 'links.pause']), 'links.pause')).toBeNull();
    expect(scopeBlock(me(['links.read']), 'links.delete')).toBe('This key lacks the links.delete scope.');
  });
});
