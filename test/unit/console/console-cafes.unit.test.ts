/** The Cafes screens' pure parts: the create form's body, the routes beneath #/cafes, download names, the profile form ↔ its two requests. */
import { describe, expect, it } from 'vitest';
import { cafeRouteOf, cafeTabHref, createCafeBody, qrFileName, type Cafe } from '#console/src/cafes/cafe-list.js';
import { moved, movedTo, orderEntries, priceText } from '#console/src/cafes/menu.js';
import { themeBodyOf, themeFormOf, withTheme } from '#console/src/cafes/theme.js';
import {
  cafeBodyOf,
  copyHours,
  placeProfileErrors,
  profileFormData,
  profileFormOf,
  SUGGESTED_HOURS,
  WEEKDAYS,
  WEEKDAYS_AFTER_MONDAY,
} from '#console/src/cafes/profile.js';

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
    expect(cafeRouteOf(`/${id}`)).toEqual({ view: 'cafe', id, tab: 'menu' });
    expect(cafeRouteOf(`/${id.toUpperCase()}/`)).toEqual({ view: 'cafe', id, tab: 'menu' });
  });

  it("each of the editor's tabs has its own path", () => {
    for (const tab of ['menu', 'profile', 'look', 'import'] as const)
      expect(cafeRouteOf(`/${id}/${tab}`)).toEqual({ view: 'cafe', id, tab });
    expect(cafeTabHref(id, 'look')).toBe(`#/cafes/${id}/look`);
  });
  it('anything else is no page, never a request with a malformed id', () => {
    expect(cafeRouteOf('/nope')).toEqual({ view: 'none' });
    expect(cafeRouteOf(`/${id}/menu/extra`)).toEqual({ view: 'none' });
    expect(cafeRouteOf(`/${id}/hours`)).toEqual({ view: 'none' });
  });
});

describe('the QR download', () => {
  it('is named after the cafe, safe for any file system', () => {
    expect(qrFileName('Café Aroma', 512)).toBe('cafe-aroma-menu-512.png');
    expect(qrFileName('***', 512)).toBe('menu-512.png');
  });
});

const stored: Cafe = {
  id: '0b6f0f5e-8f3a-4c1e-9d2b-1a2b3c4d5e6f',
  name: 'Café Lisboa',
  description: null,
  timezone: 'Europe/Lisbon',
  language: 'pt-PT',
  operating_hours: [
    {
      day: 'friday',
      enabled: true,
      ranges: [
        { from: '08:00', to: '15:00' },
        { from: '19:00', to: '01:00' },
      ],
    },
    { day: 'sunday', enabled: false, ranges: [] },
  ],
  facilities: ['wifi', 'terrace'],
  social_links: [{ platform: 'instagram', url: 'https://instagram.com/cafe.lisboa' }],
  title: null,
  subtitle: 'Since 1921',
  address: null,
  phone: '+351 21 000 0000',
  email: null,
  website: null,
  logo: 'http://localhost:3001/files/f1',
  cover: null,
  themeImage: 'classic',
  primaryColor: null,
  secondaryColor: null,
  showDietarySection: true,
  link: {
    id: '1b6f0f5e-8f3a-4c1e-9d2b-1a2b3c4d5e6f',
    dynamic_link_id: 'Ab12Cd34',
    full_dynamic_url: 'http://localhost:3001/Ab12Cd34',
    qr_options: {},
  },
  created_at: '2026-11-26T10:00:00.000Z',
  updated_at: '2026-11-26T10:00:00.000Z',
};

describe('the profile form', () => {
  it('shows every weekday in order, stored days as stored, the others closed with a usual range ready', () => {
    const form = profileFormOf(stored, 'Europe/Berlin');
    expect(form.hours.map((d) => d.day)).toEqual(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']);
    expect(form.hours[4]).toEqual({
      day: 'friday',
      enabled: true,
      ranges: [
        { from: '08:00', to: '15:00' },
        { from: '19:00', to: '01:00' },
      ],
    });
    expect(form.hours[0]).toEqual({ day: 'monday', enabled: false, ranges: [{ from: '09:00', to: '17:00' }] });
    expect(form.hours[6]!.enabled).toBe(false);
    expect(form).toMatchObject({
      name: 'Café Lisboa',
      description: '',
      subtitle: 'Since 1921',
      phone: '+351 21 000 0000',
      website: '',
      facilities: 'wifi\nterrace',
    });
  });

  it('round-trips: a stored cafe sent back unchanged is the same week, facilities and links', () => {
    const body = cafeBodyOf(profileFormOf(stored, 'Europe/Berlin'));
    expect(body.timezone).toBe('Europe/Lisbon');
    expect(body.operating_hours).toHaveLength(7);
    expect(body.operating_hours![4]).toEqual(stored.operating_hours[0]);
    expect(body.facilities).toEqual(['wifi', 'terrace']);
    expect(body.social_links).toEqual(stored.social_links);
    expect(body.language).toBe('pt-PT');
    // "The guest's browser language" is no language: null.
    expect(cafeBodyOf({ ...profileFormOf(stored, 'Europe/Berlin'), language: '' }).language).toBeNull();
  });

  it('reads facilities one per line, blank lines dropped, and trims social links', () => {
    const form = {
      ...profileFormOf(stored, 'Europe/Berlin'),
      facilities: ' wifi \n\n dogs welcome\n',
      social: [{ platform: ' facebook ', url: ' https://fb.com/x ' }],
    };
    expect(cafeBodyOf(form)).toMatchObject({
      facilities: ['wifi', 'dogs welcome'],
      social_links: [{ platform: 'facebook', url: 'https://fb.com/x' }],
    });
  });

  it('sends every text field (empty clears it), a chosen image, or else its delete flag', () => {
    const logo = new File([new Uint8Array([137, 80, 78, 71])], 'logo.png', { type: 'image/png' });
    const data = profileFormData({ ...profileFormOf(stored, 'Europe/Berlin'), phone: '  ', logo, deleteLogo: true, deleteCover: true });
    expect(data.get('name')).toBe('Café Lisboa');
    expect(data.get('phone')).toBe('');
    expect(data.get('subtitle')).toBe('Since 1921');
    expect((data.get('logo') as File).name).toBe('logo.png');
    expect(data.has('delete_logo')).toBe(false);
    expect(data.get('delete_cover')).toBe('true');
    expect(data.has('cover')).toBe(false);
  });

  it("places the API's errors at their fields: a facility's line at the box, a delete flag at its image", () => {
    expect(
      placeProfileErrors({
        'facilities.3': 'Must be at most 100 characters',
        'operating_hours.4.ranges.1.to': 'Must differ from from',
        delete_cover: 'Send a new cover or delete_cover, not both',
      }),
    ).toEqual({
      facilities: 'Must be at most 100 characters',
      'operating_hours.4.ranges.1.to': 'Must differ from from',
      cover: 'Send a new cover or delete_cover, not both',
    });
  });

  it("offers a cafe that never set its hours a usual week, open every day, in the browser's zone instead of UTC", () => {
    const fresh: Cafe = { ...stored, operating_hours: [], timezone: 'UTC' };
    const form = profileFormOf(fresh, 'Europe/Lisbon');
    expect(form.timezone).toBe('Europe/Lisbon');
    expect(form.hours.map((d) => [d.day, d.enabled, d.ranges])).toEqual(WEEKDAYS.map((day) => [day, true, [SUGGESTED_HOURS[day]]]));
    expect(form.hours[0]!.ranges).toEqual([{ from: '08:00', to: '18:00' }]);
    expect(form.hours[6]!.ranges).toEqual([{ from: '09:00', to: '18:00' }]);
    // A zone chosen already is kept; hours once saved (even all closed) are never replaced.
    expect(profileFormOf({ ...fresh, timezone: 'Asia/Tokyo' }, 'Europe/Lisbon').timezone).toBe('Asia/Tokyo');
    const closed = profileFormOf({ ...fresh, operating_hours: [{ day: 'monday', enabled: false, ranges: [] }] }, 'Europe/Lisbon');
    expect(closed.timezone).toBe('UTC');
    expect(closed.hours.every((d) => !d.enabled)).toBe(true);
  });

  it("copies Monday's hours to Tuesday–Friday, or to every day, leaving the weekend as it was", () => {
    const form = profileFormOf(stored, 'Europe/Lisbon');
    const week = form.hours.map((d) =>
      d.day === 'monday'
        ? {
            day: d.day,
            enabled: true,
            ranges: [
              { from: '07:30', to: '12:00' },
              { from: '14:00', to: '19:00' },
            ],
          }
        : d,
    );
    const copied = copyHours(week, 'monday', WEEKDAYS_AFTER_MONDAY);
    expect(copied.slice(0, 5).map((d) => [d.enabled, d.ranges])).toEqual(Array(5).fill([true, week[0]!.ranges]));
    expect(copied.slice(5)).toEqual(week.slice(5));
    // Copies, not shared: changing Tuesday later leaves Monday alone.
    expect(copied[1]!.ranges).not.toBe(copied[0]!.ranges);
    expect(copyHours(week, 'monday', WEEKDAYS).every((d) => d.enabled && d.ranges.length === 2)).toBe(true);
  });
});

describe('the menu', () => {
  const list = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];
  it('moves an entry one place, and not past either end', () => {
    expect(moved(list, 2, -1)).toEqual([{ id: 'a' }, { id: 'c' }, { id: 'b' }]);
    expect(moved(list, 0, 1)).toEqual([{ id: 'b' }, { id: 'a' }, { id: 'c' }]);
    expect(moved(list, 0, -1)).toBeNull();
    expect(moved(list, 2, 1)).toBeNull();
    expect(list.map((e) => e.id)).toEqual(['a', 'b', 'c']);
  });

  it('a drag takes an entry out and puts it at the drop place', () => {
    expect(movedTo(list, 0, 2)).toEqual([{ id: 'b' }, { id: 'c' }, { id: 'a' }]);
    expect(movedTo(list, 2, 0)).toEqual([{ id: 'c' }, { id: 'a' }, { id: 'b' }]);
    expect(movedTo(list, 1, 1)).toBeNull();
    expect(movedTo(list, 0, 3)).toBeNull();
  });

  it('reorders by position', () => {
    expect(orderEntries([{ id: 'c' }, { id: 'a' }])).toEqual([
      { id: 'c', order: 0 },
      { id: 'a', order: 1 },
    ]);
  });

  it('writes prices as the guest page does', () => {
    expect(priceText(12.5, 'EUR')).toBe('€12.50');
    expect(priceText(2.125, 'KWD')).toBe('KWD\u00a02.125');
    expect(priceText(3, 'XYZ1')).toBe('XYZ1 3');
  });
});

describe('the look of the menu page', () => {
  const look = { themeImage: 'classic' as const, primaryColor: null, secondaryColor: '#abc', showDietarySection: true };
  it("shows the theme's colours when the cafe has none of its own, and short hex in the long form", () => {
    expect(themeFormOf(look)).toEqual({
      themeImage: 'classic',
      ownPrimary: false,
      primary: '#8a4b2a',
      ownSecondary: true,
      secondary: '#aabbcc',
      showDietarySection: true,
    });
  });
  it("choosing another theme shows its colours, keeping the cafe's own", () => {
    const form = withTheme(themeFormOf(look), 'modern');
    expect(form).toMatchObject({ themeImage: 'modern', primary: '#2563eb', secondary: '#aabbcc' });
  });
  it("sends null for a colour left to the theme (the API's way back to it)", () => {
    expect(themeBodyOf({ ...themeFormOf(look), showDietarySection: false })).toEqual({
      themeImage: 'classic',
      primaryColor: null,
      secondaryColor: '#aabbcc',
      showDietarySection: false,
    });
  });
});
