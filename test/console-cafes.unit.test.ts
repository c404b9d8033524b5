/** The Cafes screens' pure parts: the create form's body, the routes beneath #/cafes, download names. */
import { describe, expect, it } from 'vitest';
import { cafeRouteOf, createCafeBody, qrFileName } from '../console/src/cafes/cafe-list.js';

describe('creating a cafe', () => {
  it('sends the trimmed name', () => {
    expect(createCafeBody('  Café Aroma ')).toEqual({ body: { name: 'Café Aroma' } });
  });

  it('refuses a blank or too long name at the name field, before any request', () => {
    expect(createCafeBody('   ')).toEqual({ errors: { name: expect.stringContaining('Give the cafe a name') } });
    expect(createCafeBody('x'.repeat(256))).toEqual({ errors: { name: 'At most 255 characters.' } });
    expect(createCafeBody('x'.repeat(255))).toEqual({ body: { name: 'x'.repeat(255) } });
  });
});

describe('routes beneath #/cafes', () => {
  const id = '0b6f0f5e-8f3a-4c1e-9d2b-1a2b3c4d5e6f';
  it('the page itself is the list', () => {
    expect(cafeRouteOf('')).toEqual({ view: 'list' });
    expect(cafeRouteOf('?x=1')).toEqual({ view: 'list' });
  });
  it('a cafe id opens its editor, whatever the case of its hex', () => {
    expect(cafeRouteOf(`/${id}`)).toEqual({ view: 'cafe', id });
    expect(cafeRouteOf(`/${id.toUpperCase()}/`)).toEqual({ view: 'cafe', id });
  });
  it('anything else is no page, never a request with a malformed id', () => {
    expect(cafeRouteOf('/nope')).toEqual({ view: 'none' });
    expect(cafeRouteOf(`/${id}/menu/extra`)).toEqual({ view: 'none' });
  });
});

describe('the QR download', () => {
  it('is named after the cafe, safe for any file system', () => {
    expect(qrFileName('Café Aroma', 512)).toBe('cafe-aroma-menu-512.png');
    expect(qrFileName('***', 512)).toBe('menu-512.png');
  });
});
