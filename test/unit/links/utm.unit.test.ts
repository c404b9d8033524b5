import { describe, expect, it } from 'vitest';
import { campaignOf, MERGED_LOCATION_MAX, withVisitorQuery } from '#domain/links/utm.js';
import { withUtm } from '#domain/links/utm-url.js';
import { withSendableDestinations } from '#domain/links/resolve/destinations.js';
import type { Utm } from '#domain/links/utm-fields.js';
import { resolvedLink } from '../../support/link-examples.js';

const stored = (type: 'website' | 'smart-url', data: Record<string, unknown>, utm: Utm | null) => ({ ...resolvedLink(type, data), utm });

describe('withUtm', () => {
  it('is the destination itself without UTM', () => {
    expect(withUtm('https://example.com/a?x=1', null)).toBe('https://example.com/a?x=1');
    expect(withUtm('https://example.com/a?x=1', {})).toBe('https://example.com/a?x=1');
  });

  it('appends the parameters in a fixed order, encoded, before the fragment', () => {
    expect(withUtm('https://example.com/a#top', { campaign: 'spring sale', source: 'flyer&co' })).toBe(
      'https://example.com/a?utm_source=flyer%26co&utm_campaign=spring%20sale#top',
    );
    expect(withUtm('https://example.com/?', { medium: 'qr' })).toBe('https://example.com/?utm_medium=qr');
  });

  it("replaces the destination's own parameter of the same name, however spelled, and keeps the others byte for byte", () => {
    expect(withUtm('https://example.com/?a=%20b+c&utm_source=old&utm%5Fsource=older&utm_medium=web', { source: 'qr' })).toBe(
      'https://example.com/?a=%20b+c&utm_medium=web&utm_source=qr',
    );
  });
});

describe('withVisitorQuery', () => {
  const destination = 'https://example.com/p?lang=fr&utm_source=qr#f';

  it('adds the visitor parameters the destination does not name, never q', () => {
    expect(withVisitorQuery(destination, { lang: 'en', utm_source: 'mail', q: 'shelf', ref: 'a b', tag: ['x', 'y'] })).toBe(
      'https://example.com/p?lang=fr&utm_source=qr&ref=a%20b&tag=x&tag=y#f',
    );
  });

  it('opens a query where the destination has none, and answers alike when the destination comes again', () => {
    for (let i = 0; i < 2; i++) {
      expect(withVisitorQuery('https://example.com/p#f', { a: '1', b: 'x y' })).toBe('https://example.com/p?a=1&b=x%20y#f');
      expect(withVisitorQuery('https://example.com/p?&x=1&', { a: '1' })).toBe('https://example.com/p?x=1&a=1');
    }
  });

  it('is the destination itself for no query, or only q', () => {
    expect(withVisitorQuery(destination, {})).toBe(destination);
    expect(withVisitorQuery(destination, { q: '' })).toBe(destination);
  });

  it('leaves the visitor query out past the bound, and text no URL carries', () => {
    expect(withVisitorQuery('https://example.com/', { big: 'x'.repeat(MERGED_LOCATION_MAX) })).toBe('https://example.com/');
    const many = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`k${i}`, 'v']));
    expect(withVisitorQuery('https://example.com/', many)).toBe('https://example.com/');
    expect(withVisitorQuery('https://example.com/', { bad: '\ud800', ok: '1' })).toBe('https://example.com/?ok=1');
  });
});

describe('campaignOf', () => {
  it("is the link's own campaign, else the visitor's where the link merges", () => {
    expect(campaignOf({ utm: { campaign: 'spring' }, queryPolicy: 'merge' }, { utm_campaign: 'mail' })).toBe('spring');
    expect(campaignOf({ utm: { source: 'qr' }, queryPolicy: 'merge' }, { utm_campaign: [' mail ', 'x'] })).toBe('mail');
    expect(campaignOf({ utm: null, queryPolicy: 'drop' }, { utm_campaign: 'mail' })).toBeNull();
    expect(campaignOf({ utm: null, queryPolicy: 'merge' }, {})).toBeNull();
    expect(campaignOf({ utm: null, queryPolicy: 'merge' }, { utm_campaign: '  ' })).toBeNull();
    expect(campaignOf({ utm: null, queryPolicy: 'merge' }, { utm_campaign: 'a\u0000b' })).toBeNull();
  });

  it('is bounded to 200 code points, never half a pair', () => {
    const got = campaignOf({ utm: null, queryPolicy: 'merge' }, { utm_campaign: `${'a'.repeat(199)}😀😀` })!;
    expect(got).toBe(`${'a'.repeat(199)}😀`);
  });
});

describe('withSendableDestinations', () => {
  it('tags website and smart-url destinations once, and leaves a link without UTM as it was', () => {
    const site = withSendableDestinations(stored('website', { url: 'https://example.com/?utm_source=x' }, { source: 'qr', campaign: 'c' }));
    expect(site.data).toEqual({ url: 'https://example.com/?utm_source=qr&utm_campaign=c' });
    const rules = [{ conditionType: 'device', operator: 'is', devices: ['ios'], url: 'https://apps.example/x' }];
    const smart = withSendableDestinations(stored('smart-url', { defaultUrl: 'https://example.com/d', rules }, { medium: 'print' }));
    expect(smart.data).toMatchObject({
      defaultUrl: 'https://example.com/d?utm_medium=print',
      rules: [{ url: 'https://apps.example/x?utm_medium=print' }],
    });
    const plain = withSendableDestinations(stored('website', { url: 'https://example.com/' }, null));
    expect(plain.data).toEqual({ url: 'https://example.com/' });
  });
});
