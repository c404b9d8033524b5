/** The links screen's pure parts: the view kept in the URL, the list query it asks, status badges, scopes, what a row says. */
import { describe, expect, it } from 'vitest';
import { aKey, aMe } from '../../support/console-me.js';
import {
  changeView,
  DEFAULT_VIEW,
  listQuery,
  pauseAction,
  queryFromView,
  routeOfView,
  STATUS_LABELS,
  viewFromQuery,
} from '#console/src/links/view.js';
import { LINK_STATUSES } from '#domain/links/status.js';
import { scopeBlock } from '#console/src/access.js';
import { destinationOf, LIST_FIELDS, shortHost } from '#console/src/links/listing.js';

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

  it('a key without the scope is told which one it lacks; a person, which role they have', () => {
    const me = (scopes: string[]) => aMe({ key: aKey(scopes), scopes });
    expect(scopeBlock(me(['all']), 'links.delete')).toBeNull();
    expect(scopeBlock(me(['links.read', 'links.pause']), 'links.pause')).toBeNull();
    expect(scopeBlock(me(['links.read']), 'links.delete')).toBe('This key lacks the links.delete scope.');
    const viewer = aMe({ key: null, scopes: ['links.read'], role: 'viewer' });
    expect(scopeBlock(viewer, 'links.delete')).toBe("Viewers can't archive links — ask an admin.");
  });
});

describe('what a row says of its link', () => {
  it('a website link is its host and path, with its origin for the favicon', () => {
    expect(destinationOf({ type: 'website', meta_data: { url: 'https://www.cafe-aroma.pt/menu?t=4' } })).toEqual({
      web: true,
      text: 'cafe-aroma.pt/menu?t=4',
      origin: 'https://www.cafe-aroma.pt',
    });
    expect(destinationOf({ type: 'website', meta_data: { url: 'https://example.com/' } })).toMatchObject({ text: 'example.com' });
  });

  it('other types are their kind and their gist', () => {
    const says = (type: string, meta_data: Record<string, unknown>) => destinationOf({ type, meta_data }).text;
    expect(says('vcard', { firstName: 'Ana', lastName: 'Souza', email: 'a@example.com' })).toBe('vCard · Ana Souza');
    expect(says('wifi', { ssid: 'CafeGuest', encryption: 'WPA' })).toBe('Wi-Fi · CafeGuest');
    expect(says('menu', { name: 'Lisbon cafe' })).toBe('Menu · Lisbon cafe');
    expect(says('gallery', { files: [{}, {}, {}] })).toBe('Gallery · 3 photos');
    expect(says('pdf', { files: [{}] })).toBe('PDF · 1 file');
    expect(says('smart-url', { defaultUrl: 'https://example.com/app', rules: [{}, {}] })).toBe('Smart URL · example.com/app · 2 rules');
    expect(says('location', { latitude: 38.7223, longitude: -9.1393 })).toBe('Location · 38.7223, -9.1393');
    expect(says('landing', {})).toBe('Landing page');
    // A website whose stored URL is not a web address says so as text, without a favicon.
    expect(destinationOf({ type: 'website', meta_data: { url: 'ftp://files.example.com' } })).toEqual({
      web: false,
      text: 'Website · ftp://files.example.com',
    });
  });

  it('a short URL shows its host apart from its slug', () => {
    expect(shortHost('https://qr.example.com/AbC1234', 'AbC1234')).toBe('qr.example.com/');
  });

  it('the list asks for every member its summaries and thumbnails read, and never a logo', () => {
    const fields = LIST_FIELDS.split(',');
    expect(fields).toEqual(expect.arrayContaining(['name', 'status', 'human_scan_count', 'meta_data.ssid', 'qr_options.dotsOptions']));
    expect(fields.some((f) => f === 'qr_options' || f === 'qr_options.image' || f === 'meta_data' || f.includes('landingHTML'))).toBe(
      false,
    );
  });
});
