/**
 * The menu page's pure parts: "open now" from weekly hours in a time zone (across midnight, a
 * week's end, 24:00, other zones), prices, and the rendered page (escaping, the script's hash in
 * the CSP, the schema.org block, colors kept readable, the clock key).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cafeClock, type DayHours } from '#domain/cafes/opening-hours.js';
import type { PublishedItem, PublishedMenu } from '#domain/cafes/published-menu.js';
import { formatPrice, pageLocale } from '#redirect/pages/common/locale.js';
import { renderMenuPage } from '#redirect/pages/menu/menu-page.js';
import { menuClock, openStateText } from '#redirect/pages/menu/hours.js';
import { JSON_LD_ITEMS_MAX } from '#redirect/pages/menu/json-ld.js';

// 2026-11-23 is a Monday; Lisbon is on UTC in November, New York on UTC-5, Tokyo on UTC+9.
const MONDAY = (hhmm: string) => new Date(`2026-11-23T${hhmm}:00Z`);
const hours = (...days: Array<[DayHours['day'], ...Array<[string, string]>]>): DayHours[] =>
  days.map(([day, ...ranges]) => ({ day, enabled: true, ranges: ranges.map(([from, to]) => ({ from, to })) }));
// en-GB: English words with 24-hour times.
const said = (h: DayHours[], at: Date, zone = 'Europe/Lisbon') => {
  const { state } = cafeClock(h, zone, at);
  return state && openStateText(pageLocale('en-GB', undefined), state);
};

describe('open now', () => {
  const weekdays = hours(['monday', ['09:00', '17:00']], ['wednesday', ['09:00', '12:00'], ['14:00', '18:00']]);

  it('is open inside a range and says when it closes', () => {
    expect(said(weekdays, MONDAY('10:00'))).toBe('Open now · closes at 17:00');
    expect(said(weekdays, MONDAY('09:00'))).toBe('Open now · closes at 17:00');
  });

  it('says when it opens: later today, tomorrow, or on a named day', () => {
    expect(said(weekdays, MONDAY('08:59'))).toBe('Closed · opens at 09:00');
    expect(said(weekdays, MONDAY('17:00'))).toBe('Closed · opens Wednesday at 09:00');
    expect(said(hours(['tuesday', ['07:30', '10:00']]), MONDAY('20:00'))).toBe('Closed · opens tomorrow at 07:30');
    expect(said(weekdays, new Date('2026-11-25T12:30:00Z'))).toBe('Closed · opens at 14:00');
  });

  it('counts a range past midnight as the next morning’s too', () => {
    const bar = hours(['sunday', ['18:00', '02:00']]);
    // Monday 01:30 is inside Sunday's 18:00-02:00.
    expect(said(bar, MONDAY('01:30'))).toBe('Open now · closes at 02:00');
    expect(said(bar, MONDAY('02:00'))).toBe('Closed · opens Sunday at 18:00');
    // Sunday 23:00 (the day before our Monday).
    expect(said(bar, new Date('2026-11-22T23:00:00Z'))).toBe('Open now · closes at 02:00');
  });

  it('joins a day ending at 24:00 with the next one starting at 00:00', () => {
    const late = hours(['monday', ['08:00', '24:00']], ['tuesday', ['00:00', '03:00']]);
    expect(said(late, MONDAY('23:00'))).toBe('Open now · closes at 03:00');
  });

  it('wraps around the end of the week', () => {
    expect(said(hours(['monday', ['09:00', '10:00']]), new Date('2026-11-22T23:00:00Z'))).toBe('Closed · opens tomorrow at 09:00');
    expect(said(hours(['monday', ['09:00', '10:00']]), MONDAY('11:00'))).toBe('Closed · opens Monday at 09:00');
  });

  it('reads the hours in the cafe’s own time zone', () => {
    const nine2five = hours(['monday', ['09:00', '17:00']]);
    const at = MONDAY('15:00'); // 10:00 in New York, 00:00 Tuesday in Tokyo
    expect(said(nine2five, at, 'America/New_York')).toBe('Open now · closes at 17:00');
    expect(said(nine2five, at, 'Asia/Tokyo')).toBe('Closed · opens Monday at 09:00');
    expect(cafeClock(nine2five, 'Asia/Tokyo', at).today).toBe('tuesday');
    expect(said(nine2five, at, 'UTC')).toBe('Open now · closes at 17:00');
  });

  it('is "Open now" without a closing time around the clock, and says nothing without hours', () => {
    const always = (['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const).map((day) => ({
      day,
      enabled: true,
      ranges: [{ from: '00:00', to: '24:00' }],
    }));
    expect(said(always, MONDAY('03:00'))).toBe('Open now');
    expect(said([], MONDAY('03:00'))).toBeNull();
    expect(said([{ day: 'monday', enabled: false, ranges: [{ from: '09:00', to: '17:00' }] }], MONDAY('10:00'))).toBeNull();
    expect(
      said(
        [{ day: 'monday', enabled: false, ranges: [{ from: '09:00', to: '17:00' }] }, ...hours(['friday', ['09:00', '10:00']])],
        MONDAY('10:00'),
      ),
    ).toBe('Closed · opens Friday at 09:00');
  });
});

describe('prices', () => {
  it('use each currency’s symbol and minor units', () => {
    const en = pageLocale('en', undefined);
    expect(formatPrice(en, 12.5, 'EUR')).toBe('€12.50');
    expect(formatPrice(en, 1200, 'JPY')).toBe('¥1,200');
    expect(formatPrice(en, 2.125, 'BHD')).toBe('BHD\u00a02.125');
    expect(formatPrice(en, 0, 'USD')).toBe('$0.00');
  });
});

const XSS = `<img src=x onerror=alert(1)>"'</script><!--`;

function item(name: string, extra: Partial<PublishedItem> = {}): PublishedItem {
  return {
    id: name,
    name,
    description: null,
    price: '1.000',
    currency: 'EUR',
    isFeatured: false,
    isNew: false,
    isRecommended: false,
    spiceLevel: 'none',
    ingredients: [],
    allergens: [],
    tags: [],
    image: null,
    ...extra,
  };
}

function menu(extra: Partial<PublishedMenu> = {}): PublishedMenu {
  return {
    cafeId: 'c1',
    version: '1',
    name: 'Cafe',
    description: null,
    title: null,
    subtitle: null,
    timezone: 'UTC',
    operatingHours: [],
    facilities: [],
    socialLinks: [],
    address: null,
    phone: null,
    email: null,
    website: null,
    logo: null,
    cover: null,
    imageVariants: {},
    theme: 'classic',
    primaryColor: null,
    secondaryColor: null,
    showDietarySection: true,
    groups: [
      {
        id: 'g1',
        name: 'Food',
        image: null,
        categories: [{ id: 'k1', name: 'Mains', description: null, image: null, items: [item('Soup', { tags: ['Vegan'] })] }],
      },
    ],
    ...extra,
  };
}

const render = (m: PublishedMenu, now = MONDAY('12:00')) =>
  renderMenuPage(m, { now, urls: { file: (id) => `/files/${id}` }, baseUrl: 'https://q.example' });

describe('the rendered page', () => {
  it('allows exactly its own script by hash, and nothing else runs', () => {
    const page = render(menu());
    const scripts = [...page.body.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(scripts).toHaveLength(1);
    const hash = createHash('sha256').update(scripts[0]!).digest('base64');
    expect(page.headers!['Content-Security-Policy']).toContain(`script-src 'sha256-${hash}'`);
    expect(page.headers!['Content-Security-Policy']).toContain("default-src 'none'");
  });

  it('escapes every text field, in the page and in the schema.org block', () => {
    const hostile = menu({
      name: XSS,
      title: XSS,
      subtitle: XSS,
      description: XSS,
      address: XSS,
      phone: XSS,
      email: XSS,
      facilities: [XSS],
      socialLinks: [{ platform: XSS, url: `https://x.example/${XSS}` }],
      operatingHours: hours(['monday', ['09:00', '17:00']]),
      groups: [
        {
          id: 'g',
          name: XSS,
          image: null,
          categories: [
            {
              id: 'k',
              name: XSS,
              description: XSS,
              image: null,
              items: [item(XSS, { description: XSS, ingredients: [XSS], allergens: [XSS], tags: [XSS] })],
            },
          ],
        },
      ],
    });
    const body = render(hostile).body;
    expect(body).not.toContain('<img src=x');
    expect(body).not.toContain('<!--');
    // One closing tag per script element: no text ends one early.
    expect(body.match(/<\/script>/g)).toHaveLength(2);
    const jsonLd = JSON.parse(body.match(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/)![1]!);
    expect(jsonLd.name).toBe(XSS);
    expect(jsonLd.hasMenuSection[0].hasMenuSection[0].hasMenuItem[0].name).toBe(XSS);
  });

  it('describes at most JSON_LD_ITEMS_MAX items to search engines, and every item to guests', () => {
    const many = Array.from({ length: JSON_LD_ITEMS_MAX + 10 }, (_, i) => item(`Dish ${i}`));
    const page = render(
      menu({
        groups: [
          { id: 'g', name: 'All', image: null, categories: [{ id: 'k', name: 'All', description: null, image: null, items: many }] },
        ],
      }),
    );
    const jsonLd = JSON.parse(page.body.match(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/)![1]!);
    expect(jsonLd.hasMenuSection[0].hasMenuSection[0].hasMenuItem).toHaveLength(JSON_LD_ITEMS_MAX);
    expect(page.body.match(/<li class="item"/g)).toHaveLength(JSON_LD_ITEMS_MAX + 10);
  });

  it('shows no more items than its budget allows, and says how many it left out', () => {
    const long = 'x'.repeat(1000);
    const items = Array.from({ length: 100 }, (_, i) =>
      item(`Dish ${i}`, { description: long, ingredients: Array.from({ length: 50 }, () => 'y'.repeat(100)) }),
    );
    const m = menu({
      groups: [{ id: 'g', name: 'All', image: null, categories: [{ id: 'k', name: 'All', description: null, image: null, items }] }],
    });
    const page = renderMenuPage(m, { now: MONDAY('12:00'), urls: { file: (id) => `/files/${id}` }, maxItemBytes: 200_000 });
    const shown = page.body.match(/<li class="item"/g)!.length;
    expect(shown).toBeGreaterThan(5);
    expect(shown).toBeLessThan(100);
    expect(page.body).toContain(`${100 - shown} more dishes are not shown`);
    expect(page.body.length).toBeLessThan(400_000);
    expect(render(m).body).not.toContain('not shown');
  });

  it('keeps an owner’s pale primary color off text, where it would be unreadable', () => {
    expect(render(menu({ primaryColor: '#ffee00' })).body).toMatch(/--accent:#2b2118;/);
    expect(render(menu({ primaryColor: '#0b3d91' })).body).toMatch(/--accent:#0b3d91;/);
    // A color that is not a hex color is ignored.
    expect(render(menu({ primaryColor: 'red;}body{display:none' })).body).not.toContain('red;}body');
  });

  it('says the menu is being prepared when nothing is visible, and leaves out empty categories', () => {
    const empty = render(
      menu({
        groups: [
          { id: 'g', name: 'Food', image: null, categories: [{ id: 'k', name: 'Empty', description: null, image: null, items: [] }] },
        ],
      }),
    );
    expect(empty.body).toContain('The menu is being prepared');
    expect(empty.body).not.toContain('>Empty<');
  });

  it('has a clock key that changes when the state or the day does, and only then', () => {
    const m = menu({ operatingHours: hours(['monday', ['09:00', '17:00']]) });
    expect(menuClock(m, MONDAY('10:00')).key).toBe(menuClock(m, MONDAY('16:59')).key);
    expect(menuClock(m, MONDAY('10:00')).key).not.toBe(menuClock(m, MONDAY('17:00')).key);
    expect(menuClock(menu(), MONDAY('23:59')).key).not.toBe(menuClock(menu(), new Date('2026-11-24T00:00:00Z')).key);
  });
});

describe('taps on the menu’s actions', () => {
  const withActions = menu({
    phone: '+351 21 000 0000',
    address: 'Rua Augusta 1, Lisboa',
    website: 'https://cafe.example',
    groups: [
      {
        id: 'g1',
        name: 'Food',
        image: null,
        categories: [{ id: 'k1', name: 'Mains', description: null, image: null, items: [item('Soup', { image: 'f1' })] }],
      },
    ],
  });
  const pings = (body: string) => [...body.matchAll(/ ping="([^"]*)"/g)].map((m) => m[1]!);

  it('a guest’s page reports each tap on call, directions, website and a dish', () => {
    const page = renderMenuPage(withActions, {
      now: MONDAY('12:00'),
      urls: { file: (id) => `/files/${id}`, tap: (action) => `/_/tap/cafe/${action}` },
    });
    expect(new Set(pings(page.body))).toEqual(
      new Set(['/_/tap/cafe/call', '/_/tap/cafe/directions', '/_/tap/cafe/website', '/_/tap/cafe/open_dish']),
    );
  });

  it('a page made without tap addresses (the console’s preview) reports none', () => {
    expect(pings(render(withActions).body)).toEqual([]);
  });
});
