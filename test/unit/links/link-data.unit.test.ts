import { describe, it, expect } from 'vitest';
import { z } from 'zod';
import { zodIssuesToFieldErrors, type FieldError } from '#domain/errors.js';
import { nestsAtMost } from '#domain/links/data/html-depth.js';
import {
  LINK_TYPES,
  LANDING_HTML_MAX_BYTES,
  LANDING_HTML_MAX_DEPTH,
  fileRefs,
  isCountryCode,
  isCurrencyCode,
  isHttpUrl,
  isIanaTimezone,
  isLinkType,
  isPhoneNumber,
  isSmallJsonValue,
  linkDataSchemas,
  parseDateTimeInZone,
  parseIsoDateTimeParts,
  smartUrlRuleSchema,
  zonedLocalToUtc,
  type LinkType,
} from '#domain/links/data/index.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Data = any;

const fid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const URL_A = 'https://example.com/a?x=1#top';
const URL_B = 'http://example.org/b';

const FULL: Record<LinkType, Data> = {
  website: { url: 'https://example.com/path?q=1#frag' },
  email: { email: 'jane.doe+qr@example.com', subject: 'Hello', body: 'Hi there,\nsee you soon.' },
  sms: { phone: '+1 (555) 010-0199', message: 'Text me back' },
  vcard: {
    firstName: 'Jane',
    lastName: 'Doe',
    email: 'jane@example.com',
    contact: 'Sales',
    phone: '+1 555 0100 ext. 12',
    fax: '+1 555 0101',
    website: 'example.com',
    company: 'ACME',
    department: 'R&D',
    street: '1 Main St',
    state: 'CA',
    city: 'Springfield',
    zip: '90210',
    country: 'USA',
  },
  wifi: { ssid: 'Cafe WiFi', encryption: 'WPA', password: 'correct horse', hidden: false },
  location: { latitude: 52.52, longitude: 13.405 },
  event: {
    description: 'Annual meetup',
    location: 'Town hall',
    startDateTime: '2026-03-08T01:30',
    endDateTime: '2026-03-08T03:30',
    timezone: 'America/New_York',
    organizerName: 'ACME',
    registrationUrl: 'https://example.com/register',
    eventTitle: 't'.repeat(100),
    image: { fileId: fid(1) },
  },
  image: { files: [{ fileId: fid(1) }, { fileId: fid(2) }] },
  pdf: { files: [{ fileId: fid(3) }] },
  gallery: { files: Array.from({ length: 20 }, (_, i) => ({ fileId: fid(10 + i) })) },
  landing: { landingHTML: '<!doctype html><h1>Hi</h1>' },
  product: {
    productName: 'Coffee',
    productDescription: 'Fresh beans',
    currency: 'eur',
    subTotal: 100,
    tax: 19,
    totalNet: 109,
    discount: { type: 'percent', value: 100 },
    images: { files: [{ fileId: fid(4) }, { fileId: fid(5) }] },
  },
  'multi-links': {
    title: 'My links',
    description: 'Everything in one place',
    logo: { fileId: fid(6), nested: [1, 'a', null, true, { deep: 2.5 }] },
    isRound: true,
    design: { backgroundColor: '#ffffff', linkBackgroundColor: 'rgb(0 0 0 / 50%)', textColor: 'rebeccapurple' },
    links: [
      { type: 'custom', value: URL_A, title: 'Blog', icon: 'https://example.com/icon.png' },
      { type: 'social', value: 'https://instagram.com/acme', icon: 'instagram', title: 'Instagram' },
    ],
  },
  'multi-pdf': {
    pageTitle: 'p'.repeat(100),
    pdfs: [
      { label: 'Menu', fileId: fid(7) },
      { label: 'Wine list', fileId: fid(8) },
      { label: 'Allergens', fileId: fid(9) },
    ],
  },
  'smart-url': {
    defaultUrl: 'https://example.com/',
    rules: [
      { conditionType: 'location', operator: 'is', url: URL_A, countries: ['us', 'DE', 'Gb', 'XK'] },
      { conditionType: 'device', operator: 'is_not', url: URL_B, devices: ['ios', 'android'] },
      { conditionType: 'time', operator: 'between', url: URL_A, timezone: 'Europe/Berlin', timeFrom: '22:00', timeTo: '06:00' },
      { conditionType: 'date', operator: 'after', url: URL_A, timezone: 'UTC', dateFrom: '2026-01-01' },
      { conditionType: 'date', operator: 'before', url: URL_A, timezone: 'Asia/Kolkata', dateTo: '2026-12-31' },
      { conditionType: 'date', operator: 'between', url: URL_A, timezone: 'UTC', dateFrom: '2026-06-01', dateTo: '2026-06-01' },
      { conditionType: 'date', operator: 'not_between', url: URL_A, timezone: 'UTC', dateFrom: '2024-02-29', dateTo: '2026-08-31' },
      { conditionType: 'location', operator: 'is_not', url: URL_B, countries: ['fr'] },
      { conditionType: 'time', operator: 'not_between', url: URL_B, timezone: 'America/New_York', timeFrom: '00:00', timeTo: '23:59' },
      { conditionType: 'device', operator: 'is', url: URL_B, devices: ['windows', 'macos', 'linux', 'mobile', 'desktop'] },
    ],
  },
  menu: { name: 'Lunch' },
};

const MINIMAL: Record<LinkType, Data> = {
  website: { url: 'http://localhost:8080/' },
  email: { email: 'a@example.com' },
  sms: { phone: '112' },
  vcard: { firstName: 'J', lastName: 'D', email: 'j@example.com' },
  wifi: { ssid: 'Home', encryption: 'nopass' },
  location: { latitude: 0, longitude: 0 },
  event: { description: 'd', location: 'l', startDateTime: '2026-05-01T10:00:00Z', timezone: 'UTC' },
  image: { files: [{ fileId: fid(1) }] },
  pdf: { files: [{ fileId: fid(1) }] },
  gallery: { files: [{ fileId: fid(1) }] },
  landing: { landingHTML: '<p>x</p>' },
  product: { productName: 'P', productDescription: 'D', currency: 'USD', subTotal: 0, tax: 0, totalNet: 0 },
  'multi-links': { title: 'T', design: { backgroundColor: 'white', linkBackgroundColor: '#000', textColor: '#123' } },
  'multi-pdf': { pageTitle: 'Docs', pdfs: [{ label: 'One', fileId: fid(1) }] },
  'smart-url': { defaultUrl: 'https://example.com/' },
  menu: {},
};

function parse(type: LinkType, data: unknown) {
  return linkDataSchemas[type].safeParse(data);
}

function errorsOf(type: LinkType, data: unknown): FieldError[] {
  const result = parse(type, data);
  return result.success ? [] : zodIssuesToFieldErrors(result.error.issues, 'data').listed;
}

/** The full example of `type`, changed by `mutate`. */
function full(type: LinkType, mutate: (d: Data) => void): Data {
  const d = structuredClone(FULL[type]);
  mutate(d);
  return d;
}

function minimal(type: LinkType, mutate: (d: Data) => void): Data {
  const d = structuredClone(MINIMAL[type]);
  mutate(d);
  return d;
}

const rule = (i: number, mutate: (r: Data) => void) => (d: Data) => mutate(d.rules[i]);

describe('LINK_TYPES', () => {
  it('lists the 16 types in the API contract’s order, each with a schema', () => {
    expect(LINK_TYPES).toEqual([
      'website',
      'email',
      'sms',
      'vcard',
      'wifi',
      'location',
      'event',
      'image',
      'pdf',
      'gallery',
      'landing',
      'product',
      'multi-links',
      'multi-pdf',
      'smart-url',
      'menu',
    ]);
    expect(Object.keys(linkDataSchemas).sort()).toEqual([...LINK_TYPES].sort());
    expect(isLinkType('smart-url')).toBe(true);
    expect(isLinkType('Website')).toBe(false);
    expect(isLinkType(1)).toBe(false);
  });

  it.each(LINK_TYPES)('%s schema can be described as JSON Schema (for OpenAPI)', (type) => {
    expect(() => z.toJSONSchema(linkDataSchemas[type], { io: 'input' })).not.toThrow();
  });
});

describe('URL fields are stored in their WHATWG serialisation', () => {
  it.each<[string, string, string]>([
    [
      'a Unicode path, query and fragment',
      'https://example.com/日本語?q=😀#über',
      'https://example.com/%E6%97%A5%E6%9C%AC%E8%AA%9E?q=%F0%9F%98%80#%C3%BCber',
    ],
    ['an IDN host (punycode, lower case)', 'https://Bücher.Example/x', 'https://xn--bcher-kva.example/x'],
    ['an empty path', 'https://example.com', 'https://example.com/'],
    ['a default port', 'http://example.com:80/a', 'http://example.com/a'],
    ['Latin-1 letters too (not header-safe as UTF-8)', 'https://example.com/café', 'https://example.com/caf%C3%A9'],
    ['an already encoded URL is unchanged', 'https://example.com/caf%C3%A9?x=%20', 'https://example.com/caf%C3%A9?x=%20'],
  ])('%s', (_what, sent, stored) => {
    for (const [type, data, read] of [
      ['website', { url: sent }, (d: Data) => d.url],
      [
        'smart-url',
        { defaultUrl: sent, rules: [{ conditionType: 'device', operator: 'is', devices: ['ios'], url: sent }] },
        (d: Data) => [d.defaultUrl, d.rules[0].url],
      ],
      ['event', minimal('event', (d) => (d.registrationUrl = sent)), (d: Data) => d.registrationUrl],
      [
        'multi-links',
        minimal('multi-links', (d) => (d.links = [{ type: 'custom', value: sent, title: 'A' }])),
        (d: Data) => d.links[0].value,
      ],
    ] as Array<[LinkType, Data, (d: Data) => unknown]>) {
      const result = parse(type, data);
      expect(result.error?.issues).toBeUndefined();
      const got = read(result.data as Data);
      expect(got).toEqual(Array.isArray(got) ? [stored, stored] : stored);
      // Stable: the stored form parses to itself.
      expect(parse(type, result.data).data).toStrictEqual(result.data);
    }
  });
});

describe('valid data is stored exactly as sent', () => {
  it.each(LINK_TYPES)('full %s example (every optional member) parses to itself', (type) => {
    const input = structuredClone(FULL[type]);
    const result = parse(type, input);
    expect(result.error?.issues).toBeUndefined();
    expect(result.data).toStrictEqual(FULL[type]);
    expect(input).toStrictEqual(FULL[type]);
  });

  it.each(LINK_TYPES)('minimal %s example parses to itself', (type) => {
    const result = parse(type, structuredClone(MINIMAL[type]));
    expect(result.error?.issues).toBeUndefined();
    expect(result.data).toStrictEqual(MINIMAL[type]);
  });

  it.each<[string, LinkType, Data]>([
    ['case of currency kept', 'product', minimal('product', (d) => (d.currency = 'uSd'))],
    [
      'case of country codes kept',
      'smart-url',
      full(
        'smart-url',
        rule(0, (r) => (r.countries = ['us', 'gB', 'De'])),
      ),
    ],
    ['leading/trailing spaces in strings kept', 'vcard', minimal('vcard', (d) => (d.firstName = '  Jane '))],
    ['optional strings may be empty', 'email', minimal('email', (d) => Object.assign(d, { subject: '', body: '' }))],
    ['wifi WEP', 'wifi', minimal('wifi', (d) => (d.encryption = 'WEP'))],
    ['bounds: latitude/longitude at the edge', 'location', { latitude: -90, longitude: 180 }],
    ['bounds: latitude/longitude at the other edge', 'location', { latitude: 90, longitude: -180 }],
    ['amount discount above 100', 'product', minimal('product', (d) => (d.discount = { type: 'amount', value: 250.5 }))],
    ['zero discount', 'product', minimal('product', (d) => (d.discount = { type: 'percent', value: 0 }))],
    ['product images may be empty', 'product', minimal('product', (d) => (d.images = { files: [] }))],
    ['end equal to start', 'event', minimal('event', (d) => (d.endDateTime = d.startDateTime))],
    ['end with another offset, same instant', 'event', minimal('event', (d) => (d.endDateTime = '2026-05-01T12:00:00+02:00'))],
    [
      'dates with seconds, fractions and offsets',
      'event',
      minimal('event', (d) =>
        Object.assign(d, { startDateTime: '2026-05-01T10:00:00.123456+05:30', endDateTime: '2026-05-01T10:00:00.5-00:00' }),
      ),
    ],
    ['time zone alias', 'event', minimal('event', (d) => (d.timezone = 'Asia/Calcutta'))],
    ['time zone name in another case', 'event', minimal('event', (d) => (d.timezone = 'europe/berlin'))],
    ['landing HTML of exactly 512 KiB', 'landing', { landingHTML: 'x'.repeat(LANDING_HTML_MAX_BYTES) }],
    [
      'landing HTML nesting elements exactly 100 deep',
      'landing',
      { landingHTML: `${'<div>'.repeat(LANDING_HTML_MAX_DEPTH)}x${'</div>'.repeat(LANDING_HTML_MAX_DEPTH)}` },
    ],
    ['logo null', 'multi-links', minimal('multi-links', (d) => (d.logo = null))],
    ['logo string', 'multi-links', minimal('multi-links', (d) => (d.logo = 'https://example.com/logo.png'))],
    ['logo number', 'multi-links', minimal('multi-links', (d) => (d.logo = 3))],
    ['empty links', 'multi-links', minimal('multi-links', (d) => (d.links = []))],
    [
      '50 links',
      'multi-links',
      minimal('multi-links', (d) => (d.links = Array.from({ length: 50 }, () => ({ type: 'social', value: URL_A, icon: 'x' })))),
    ],
    [
      'custom link without icon, social without title',
      'multi-links',
      minimal(
        'multi-links',
        (d) =>
          (d.links = [
            { type: 'custom', value: URL_A, title: 'A' },
            { type: 'social', value: URL_A, icon: 'x' },
          ]),
      ),
    ],
    [
      '10 pdfs',
      'multi-pdf',
      minimal('multi-pdf', (d) => (d.pdfs = Array.from({ length: 10 }, (_, i) => ({ label: `L${i}`, fileId: fid(i) })))),
    ],
    ['empty rules', 'smart-url', { defaultUrl: URL_A, rules: [] }],
    ['upper-case UUID', 'image', { files: [{ fileId: fid(1).toUpperCase() }] }],
    ['100 image files', 'image', { files: Array.from({ length: 100 }, (_, i) => ({ fileId: fid(i) })) }],
    [
      'vcard free-text members',
      'vcard',
      minimal('vcard', (d) => Object.assign(d, { phone: 'call the front desk', website: 'www.example.com' })),
    ],
  ])('accepts %s', (_name, type, data) => {
    const result = parse(type, data);
    expect(result.error?.issues).toBeUndefined();
    expect(result.data).toStrictEqual(data);
  });
});

/** [description, type, data, path, message]: exactly one error is expected. */
type Case = [string, LinkType, Data, string, string];

const REQ = 'Required';

const REQUIRED_MEMBERS: Array<[LinkType, string]> = [
  ['website', 'url'],
  ['email', 'email'],
  ['sms', 'phone'],
  ['vcard', 'firstName'],
  ['vcard', 'lastName'],
  ['vcard', 'email'],
  ['wifi', 'ssid'],
  ['wifi', 'encryption'],
  ['location', 'latitude'],
  ['location', 'longitude'],
  ['event', 'description'],
  ['event', 'location'],
  ['event', 'startDateTime'],
  ['event', 'timezone'],
  ['image', 'files'],
  ['pdf', 'files'],
  ['gallery', 'files'],
  ['landing', 'landingHTML'],
  ['product', 'productName'],
  ['product', 'productDescription'],
  ['product', 'currency'],
  ['product', 'subTotal'],
  ['product', 'tax'],
  ['product', 'totalNet'],
  ['multi-links', 'title'],
  ['multi-links', 'design'],
  ['multi-pdf', 'pageTitle'],
  ['multi-pdf', 'pdfs'],
  ['smart-url', 'defaultUrl'],
];

describe('missing required members', () => {
  it.each(REQUIRED_MEMBERS)('%s without %s', (type, member) => {
    const data = full(type, (d) => delete d[member]);
    expect(errorsOf(type, data)).toEqual([{ path: `data.${member}`, message: REQ }]);
  });

  it.each(REQUIRED_MEMBERS.filter(([type, member]) => typeof FULL[type][member] === 'string'))('%s with a blank %s', (type, member) => {
    expect(
      errorsOf(
        type,
        full(type, (d) => (d[member] = ' \t\n')),
      ),
    ).toEqual([{ path: `data.${member}`, message: expect.any(String) }]);
    expect(
      errorsOf(
        type,
        full(type, (d) => (d[member] = '')),
      ),
    ).toEqual([{ path: `data.${member}`, message: expect.any(String) }]);
  });

  it.each<Case>([
    ['design.textColor', 'multi-links', full('multi-links', (d) => delete d.design.textColor), 'data.design.textColor', REQ],
    [
      'design.backgroundColor',
      'multi-links',
      full('multi-links', (d) => delete d.design.backgroundColor),
      'data.design.backgroundColor',
      REQ,
    ],
    [
      'design.linkBackgroundColor',
      'multi-links',
      full('multi-links', (d) => delete d.design.linkBackgroundColor),
      'data.design.linkBackgroundColor',
      REQ,
    ],
    ['links[].type', 'multi-links', full('multi-links', (d) => delete d.links[1].type), 'data.links[1].type', REQ],
    ['links[].value', 'multi-links', full('multi-links', (d) => delete d.links[0].value), 'data.links[0].value', REQ],
    ['title of a custom link', 'multi-links', full('multi-links', (d) => delete d.links[0].title), 'data.links[0].title', REQ],
    ['blank title of a custom link', 'multi-links', full('multi-links', (d) => (d.links[0].title = '  ')), 'data.links[0].title', REQ],
    ['icon of a social link', 'multi-links', full('multi-links', (d) => delete d.links[1].icon), 'data.links[1].icon', REQ],
    ['discount.type', 'product', full('product', (d) => delete d.discount.type), 'data.discount.type', REQ],
    ['discount.value', 'product', full('product', (d) => delete d.discount.value), 'data.discount.value', REQ],
    ['images.files', 'product', full('product', (d) => delete d.images.files), 'data.images.files', REQ],
    ['files[].fileId', 'gallery', full('gallery', (d) => delete d.files[3].fileId), 'data.files[3].fileId', REQ],
    ['event image.fileId', 'event', full('event', (d) => delete d.image.fileId), 'data.image.fileId', REQ],
    ['pdfs[].label', 'multi-pdf', full('multi-pdf', (d) => delete d.pdfs[1].label), 'data.pdfs[1].label', REQ],
    ['pdfs[].fileId', 'multi-pdf', full('multi-pdf', (d) => delete d.pdfs[2].fileId), 'data.pdfs[2].fileId', REQ],
  ])('nested: %s', (_name, type, data, path, message) => {
    expect(errorsOf(type, data)).toEqual([{ path, message }]);
  });
});

describe('wrong types', () => {
  it.each<Case>([
    ['number for a URL string', 'website', { url: 123 }, 'data.url', 'Must be a string'],
    ['number for a string', 'vcard', full('vcard', (d) => (d.city = 5)), 'data.city', 'Must be a string'],
    ['null for an optional string', 'email', full('email', (d) => (d.subject = null)), 'data.subject', 'Must be a string'],
    ['string for a number', 'location', full('location', (d) => (d.latitude = '52.5')), 'data.latitude', 'Must be a number'],
    ['string for a price', 'product', full('product', (d) => (d.subTotal = '100')), 'data.subTotal', 'Must be a number'],
    ['NaN for a number', 'product', full('product', (d) => (d.tax = NaN)), 'data.tax', 'Must be a number'],
    ['Infinity for a number', 'location', full('location', (d) => (d.longitude = Infinity)), 'data.longitude', 'Must be a number'],
    ['string for a boolean', 'wifi', full('wifi', (d) => (d.hidden = 'true')), 'data.hidden', 'Must be true or false'],
    ['string for isRound', 'multi-links', full('multi-links', (d) => (d.isRound = 1)), 'data.isRound', 'Must be true or false'],
    ['array for an object (event image)', 'event', full('event', (d) => (d.image = [])), 'data.image', 'Must be an object'],
    ['array for an object (design)', 'multi-links', full('multi-links', (d) => (d.design = ['#fff'])), 'data.design', 'Must be an object'],
    ['array for an object (discount)', 'product', full('product', (d) => (d.discount = [])), 'data.discount', 'Must be an object'],
    ['string for an object (images)', 'product', full('product', (d) => (d.images = 'x')), 'data.images', 'Must be an object'],
    ['object for an array (files)', 'image', { files: { fileId: fid(1) } }, 'data.files', 'Must be an array'],
    ['string for an array (rules)', 'smart-url', full('smart-url', (d) => (d.rules = 'x')), 'data.rules', 'Must be an array'],
    ['string for a rule', 'smart-url', full('smart-url', (d) => (d.rules[4] = 'x')), 'data.rules[4]', 'Must be an object'],
    ['number for a link', 'multi-links', full('multi-links', (d) => (d.links[0] = 1)), 'data.links[0]', 'Must be an object'],
    [
      'string for countries',
      'smart-url',
      full(
        'smart-url',
        rule(0, (r) => (r.countries = 'US')),
      ),
      'data.rules[0].countries',
      'Must be an array',
    ],
    ['number for a file id', 'pdf', { files: [{ fileId: 1 }] }, 'data.files[0].fileId', 'Must be a string'],
    ['array for the data', 'website', [], 'data', 'Must be an object'],
    ['null for the data', 'menu', null, 'data', 'Must be an object'],
    ['string for the data', 'menu', 'Lunch', 'data', 'Must be an object'],
  ])('%s', (_name, type, data, path, message) => {
    expect(errorsOf(type, data)).toEqual([{ path, message }]);
  });
});

describe('unknown members are errors at their own path', () => {
  it.each<[string, LinkType, Data, string]>([
    ['top level', 'website', { url: URL_A, target: '_blank' }, 'data.target'],
    ['top level (menu)', 'menu', { name: 'x', items: [] }, 'data.items'],
    ['in a file reference', 'image', full('image', (d) => (d.files[1].name = 'a.png')), 'data.files[1].name'],
    ['in the event image', 'event', full('event', (d) => (d.image.url = URL_A)), 'data.image.url'],
    ['in product images', 'product', full('product', (d) => (d.images.main = 0)), 'data.images.main'],
    ['in the discount', 'product', full('product', (d) => (d.discount.currency = 'EUR')), 'data.discount.currency'],
    ['in the design', 'multi-links', full('multi-links', (d) => (d.design.fontColor = '#000')), 'data.design.fontColor'],
    ['in a link', 'multi-links', full('multi-links', (d) => (d.links[1].order = 1)), 'data.links[1].order'],
    ['in a pdf', 'multi-pdf', full('multi-pdf', (d) => (d.pdfs[0].size = 1)), 'data.pdfs[0].size'],
    [
      'in a rule',
      'smart-url',
      full(
        'smart-url',
        rule(3, (r) => (r.priority = 1)),
      ),
      'data.rules[3].priority',
    ],
    [
      'devices on a time rule',
      'smart-url',
      full(
        'smart-url',
        rule(2, (r) => (r.devices = ['ios'])),
      ),
      'data.rules[2].devices',
    ],
    [
      'countries on a device rule',
      'smart-url',
      full(
        'smart-url',
        rule(1, (r) => (r.countries = ['US'])),
      ),
      'data.rules[1].countries',
    ],
    [
      'timezone on a location rule',
      'smart-url',
      full(
        'smart-url',
        rule(0, (r) => (r.timezone = 'UTC')),
      ),
      'data.rules[0].timezone',
    ],
    [
      'timeFrom on a date rule',
      'smart-url',
      full(
        'smart-url',
        rule(3, (r) => (r.timeFrom = '10:00')),
      ),
      'data.rules[3].timeFrom',
    ],
    [
      'dateFrom on a time rule',
      'smart-url',
      full(
        'smart-url',
        rule(2, (r) => (r.dateFrom = '2026-01-01')),
      ),
      'data.rules[2].dateFrom',
    ],
    [
      'dateTo on an "after" date rule',
      'smart-url',
      full(
        'smart-url',
        rule(3, (r) => (r.dateTo = '2026-02-01')),
      ),
      'data.rules[3].dateTo',
    ],
    [
      'dateFrom on a "before" date rule',
      'smart-url',
      full(
        'smart-url',
        rule(4, (r) => (r.dateFrom = '2026-02-01')),
      ),
      'data.rules[4].dateFrom',
    ],
    [
      'a foreign member is not validated, only refused',
      'smart-url',
      full(
        'smart-url',
        rule(2, (r) => (r.devices = ['toaster'])),
      ),
      'data.rules[2].devices',
    ],
  ])('%s', (_name, type, data, path) => {
    expect(errorsOf(type, data)).toEqual([{ path, message: 'Unknown field' }]);
  });
});

const LONG_URL = `https://example.com/${'a'.repeat(2048 - 'https://example.com/'.length)}`;

describe('string lengths', () => {
  it('accepts a URL of exactly 2048 characters', () => {
    expect(LONG_URL).toHaveLength(2048);
    expect(errorsOf('website', { url: LONG_URL })).toEqual([]);
  });

  it.each<Case>([
    [
      'eventTitle 101',
      'event',
      full('event', (d) => (d.eventTitle = 'x'.repeat(101))),
      'data.eventTitle',
      'Must be at most 100 characters',
    ],
    [
      'pageTitle 101',
      'multi-pdf',
      full('multi-pdf', (d) => (d.pageTitle = 'x'.repeat(101))),
      'data.pageTitle',
      'Must be at most 100 characters',
    ],
    ['event timezone 65', 'event', full('event', (d) => (d.timezone = 'A'.repeat(65))), 'data.timezone', 'Must be at most 64 characters'],
    [
      'rule timezone 65',
      'smart-url',
      full(
        'smart-url',
        rule(2, (r) => (r.timezone = `Europe/${'x'.repeat(58)}`)),
      ),
      'data.rules[2].timezone',
      'Must be at most 64 characters',
    ],
    ['URL 2049', 'website', { url: `${LONG_URL}b` }, 'data.url', 'Must be at most 2048 characters'],
    ['email 255', 'email', { email: `${'a'.repeat(243)}@example.com` }, 'data.email', 'Must be at most 254 characters'],
    ['subject 256', 'email', full('email', (d) => (d.subject = 's'.repeat(256))), 'data.subject', 'Must be at most 255 characters'],
    ['email body 5001', 'email', full('email', (d) => (d.body = 'b'.repeat(5001))), 'data.body', 'Must be at most 5000 characters'],
    ['sms message 5001', 'sms', full('sms', (d) => (d.message = 'm'.repeat(5001))), 'data.message', 'Must be at most 5000 characters'],
    [
      'vcard firstName 256',
      'vcard',
      full('vcard', (d) => (d.firstName = 'f'.repeat(256))),
      'data.firstName',
      'Must be at most 255 characters',
    ],
    ['vcard zip 256', 'vcard', full('vcard', (d) => (d.zip = '1'.repeat(256))), 'data.zip', 'Must be at most 255 characters'],
    ['wifi ssid 256', 'wifi', full('wifi', (d) => (d.ssid = 's'.repeat(256))), 'data.ssid', 'Must be at most 255 characters'],
    ['wifi password 256', 'wifi', full('wifi', (d) => (d.password = 'p'.repeat(256))), 'data.password', 'Must be at most 255 characters'],
    [
      'event description 5001',
      'event',
      full('event', (d) => (d.description = 'd'.repeat(5001))),
      'data.description',
      'Must be at most 5000 characters',
    ],
    [
      'event location 256',
      'event',
      full('event', (d) => (d.location = 'l'.repeat(256))),
      'data.location',
      'Must be at most 255 characters',
    ],
    [
      'organizerName 256',
      'event',
      full('event', (d) => (d.organizerName = 'o'.repeat(256))),
      'data.organizerName',
      'Must be at most 255 characters',
    ],
    [
      'productName 256',
      'product',
      full('product', (d) => (d.productName = 'p'.repeat(256))),
      'data.productName',
      'Must be at most 255 characters',
    ],
    [
      'productDescription 5001',
      'product',
      full('product', (d) => (d.productDescription = 'p'.repeat(5001))),
      'data.productDescription',
      'Must be at most 5000 characters',
    ],
    [
      'multi-links title 256',
      'multi-links',
      full('multi-links', (d) => (d.title = 't'.repeat(256))),
      'data.title',
      'Must be at most 255 characters',
    ],
    [
      'multi-links description 5001',
      'multi-links',
      full('multi-links', (d) => (d.description = 'd'.repeat(5001))),
      'data.description',
      'Must be at most 5000 characters',
    ],
    [
      'link title 256',
      'multi-links',
      full('multi-links', (d) => (d.links[0].title = 't'.repeat(256))),
      'data.links[0].title',
      'Must be at most 255 characters',
    ],
    [
      'link icon 2049',
      'multi-links',
      full('multi-links', (d) => (d.links[1].icon = 'i'.repeat(2049))),
      'data.links[1].icon',
      'Must be at most 2048 characters',
    ],
    [
      'pdf label 256',
      'multi-pdf',
      full('multi-pdf', (d) => (d.pdfs[2].label = 'l'.repeat(256))),
      'data.pdfs[2].label',
      'Must be at most 255 characters',
    ],
    ['menu name 256', 'menu', { name: 'n'.repeat(256) }, 'data.name', 'Must be at most 255 characters'],
    [
      'landing HTML over 512 KiB',
      'landing',
      { landingHTML: 'x'.repeat(LANDING_HTML_MAX_BYTES + 1) },
      'data.landingHTML',
      'Must be at most 512 KiB',
    ],
    [
      'landing HTML nesting elements 101 deep',
      'landing',
      { landingHTML: `<p>x</p>${'<div>'.repeat(LANDING_HTML_MAX_DEPTH + 1)}x` },
      'data.landingHTML',
      'Must not nest elements more than 100 deep',
    ],
    [
      'landing HTML over 512 KiB in UTF-8 bytes',
      'landing',
      { landingHTML: 'é'.repeat(LANDING_HTML_MAX_BYTES / 2 + 1) },
      'data.landingHTML',
      'Must be at most 512 KiB',
    ],
    [
      'logo over 256 KiB',
      'multi-links',
      full('multi-links', (d) => (d.logo = { data: 'x'.repeat(256 * 1024) })),
      'data.logo',
      'Must be at most 256 KiB as JSON',
    ],
  ])('%s', (_name, type, data, path, message) => {
    expect(errorsOf(type, data)).toEqual([{ path, message }]);
  });
});

const fileList = (n: number) => Array.from({ length: n }, (_, i) => ({ fileId: fid(i) }));

describe('array sizes', () => {
  it.each<Case>([
    ['image files 0', 'image', { files: [] }, 'data.files', 'Must have at least 1 item'],
    ['image files 101', 'image', { files: fileList(101) }, 'data.files', 'Must have at most 100 items'],
    ['pdf files 0', 'pdf', { files: [] }, 'data.files', 'Must have at least 1 item'],
    ['gallery 0', 'gallery', { files: [] }, 'data.files', 'Must have at least 1 item'],
    ['gallery 21', 'gallery', { files: fileList(21) }, 'data.files', 'Must have at most 20 items'],
    ['multi-pdf 0', 'multi-pdf', full('multi-pdf', (d) => (d.pdfs = [])), 'data.pdfs', 'Must have at least 1 item'],
    [
      'multi-pdf 11',
      'multi-pdf',
      full('multi-pdf', (d) => (d.pdfs = Array.from({ length: 11 }, (_, i) => ({ label: `L${i}`, fileId: fid(i) })))),
      'data.pdfs',
      'Must have at most 10 items',
    ],
    [
      'rules 11',
      'smart-url',
      full('smart-url', (d) => d.rules.push(structuredClone(d.rules[0]))),
      'data.rules',
      'Must have at most 10 items',
    ],
    [
      'links 51',
      'multi-links',
      full('multi-links', (d) => (d.links = Array.from({ length: 51 }, () => ({ type: 'social', value: URL_A, icon: 'x' })))),
      'data.links',
      'Must have at most 50 items',
    ],
    [
      'product images 101',
      'product',
      full('product', (d) => (d.images.files = fileList(101))),
      'data.images.files',
      'Must have at most 100 items',
    ],
    [
      'countries empty',
      'smart-url',
      full(
        'smart-url',
        rule(0, (r) => (r.countries = [])),
      ),
      'data.rules[0].countries',
      'Must have at least 1 item',
    ],
    [
      'devices empty',
      'smart-url',
      full(
        'smart-url',
        rule(1, (r) => (r.devices = [])),
      ),
      'data.rules[1].devices',
      'Must have at least 1 item',
    ],
    [
      'countries repeated (any case)',
      'smart-url',
      full(
        'smart-url',
        rule(0, (r) => (r.countries = ['US', 'de', 'us'])),
      ),
      'data.rules[0].countries[2]',
      'Duplicate value',
    ],
    [
      'devices repeated',
      'smart-url',
      full(
        'smart-url',
        rule(1, (r) => (r.devices = ['ios', 'ios'])),
      ),
      'data.rules[1].devices[1]',
      'Duplicate value',
    ],
  ])('%s', (_name, type, data, path, message) => {
    expect(errorsOf(type, data)).toEqual([{ path, message }]);
  });
});

describe('enums', () => {
  it.each<Case>([
    ['wifi encryption WPA3', 'wifi', full('wifi', (d) => (d.encryption = 'WPA3')), 'data.encryption', 'Must be one of: WPA, WEP, nopass'],
    [
      'wifi encryption in another case',
      'wifi',
      full('wifi', (d) => (d.encryption = 'wpa')),
      'data.encryption',
      'Must be one of: WPA, WEP, nopass',
    ],
    [
      'discount type bogo',
      'product',
      full('product', (d) => (d.discount.type = 'bogo')),
      'data.discount.type',
      'Must be one of: amount, percent',
    ],
    [
      'link type email',
      'multi-links',
      full('multi-links', (d) => (d.links[0].type = 'email')),
      'data.links[0].type',
      'Must be one of: custom, social',
    ],
    [
      'conditionType weather',
      'smart-url',
      full(
        'smart-url',
        rule(5, (r) => (r.conditionType = 'weather')),
      ),
      'data.rules[5].conditionType',
      'Must be one of: location, time, date, device',
    ],
    [
      'conditionType missing',
      'smart-url',
      full(
        'smart-url',
        rule(5, (r) => delete r.conditionType),
      ),
      'data.rules[5].conditionType',
      REQ,
    ],
    [
      'operator after on a time rule',
      'smart-url',
      full(
        'smart-url',
        rule(2, (r) => (r.operator = 'after')),
      ),
      'data.rules[2].operator',
      'Must be one of: between, not_between',
    ],
    [
      'operator is on a time rule',
      'smart-url',
      full(
        'smart-url',
        rule(8, (r) => (r.operator = 'is')),
      ),
      'data.rules[8].operator',
      'Must be one of: between, not_between',
    ],
    [
      'operator between on a location rule',
      'smart-url',
      full(
        'smart-url',
        rule(0, (r) => (r.operator = 'between')),
      ),
      'data.rules[0].operator',
      'Must be one of: is, is_not',
    ],
    [
      'operator before on a device rule',
      'smart-url',
      full(
        'smart-url',
        rule(1, (r) => (r.operator = 'before')),
      ),
      'data.rules[1].operator',
      'Must be one of: is, is_not',
    ],
    [
      'operator is on a date rule',
      'smart-url',
      full(
        'smart-url',
        rule(3, (r) => (r.operator = 'is')),
      ),
      'data.rules[3].operator',
      'Must be one of: after, before, between, not_between',
    ],
    [
      'operator missing on a date rule',
      'smart-url',
      full(
        'smart-url',
        rule(3, (r) => delete r.operator),
      ),
      'data.rules[3].operator',
      REQ,
    ],
    [
      'operator missing on a device rule',
      'smart-url',
      full(
        'smart-url',
        rule(1, (r) => delete r.operator),
      ),
      'data.rules[1].operator',
      REQ,
    ],
    [
      'devices toaster',
      'smart-url',
      full(
        'smart-url',
        rule(1, (r) => (r.devices = ['toaster'])),
      ),
      'data.rules[1].devices[0]',
      'Must be one of: ios, android, windows, macos, linux, mobile, desktop',
    ],
    [
      'devices in another case',
      'smart-url',
      full(
        'smart-url',
        rule(9, (r) => (r.devices = ['desktop', 'iOS'])),
      ),
      'data.rules[9].devices[1]',
      'Must be one of: ios, android, windows, macos, linux, mobile, desktop',
    ],
  ])('%s', (_name, type, data, path, message) => {
    expect(errorsOf(type, data)).toEqual([{ path, message }]);
  });
});

describe('numeric bounds', () => {
  it.each<Case>([
    ['subTotal -1', 'product', full('product', (d) => (d.subTotal = -1)), 'data.subTotal', 'Must be >= 0'],
    ['tax -0.01', 'product', full('product', (d) => (d.tax = -0.01)), 'data.tax', 'Must be >= 0'],
    ['totalNet -5', 'product', full('product', (d) => (d.totalNet = -5)), 'data.totalNet', 'Must be >= 0'],
    [
      'amount discount -1',
      'product',
      full('product', (d) => (d.discount = { type: 'amount', value: -1 })),
      'data.discount.value',
      'Must be >= 0',
    ],
    ['percent discount -1', 'product', full('product', (d) => (d.discount.value = -1)), 'data.discount.value', 'Must be >= 0'],
    ['percent discount 100.01', 'product', full('product', (d) => (d.discount.value = 100.01)), 'data.discount.value', 'Must be <= 100'],
    ['discount value as string', 'product', full('product', (d) => (d.discount.value = '10')), 'data.discount.value', 'Must be a number'],
    ['latitude 90.0001', 'location', { latitude: 90.0001, longitude: 0 }, 'data.latitude', 'Must be <= 90'],
    ['latitude -91', 'location', { latitude: -91, longitude: 0 }, 'data.latitude', 'Must be >= -90'],
    ['longitude 181', 'location', { latitude: 0, longitude: 181 }, 'data.longitude', 'Must be <= 180'],
    ['longitude -180.5', 'location', { latitude: 0, longitude: -180.5 }, 'data.longitude', 'Must be >= -180'],
  ])('%s', (_name, type, data, path, message) => {
    expect(errorsOf(type, data)).toEqual([{ path, message }]);
  });
});

const BAD_URL = 'Must be a valid URL';

describe('formats', () => {
  it.each([
    'javascript:alert(1)',
    'data:text/html,<b>hi</b>',
    'ftp://example.com/file',
    'mailto:jane@example.com',
    '/relative/path',
    'example.com',
    '//example.com/x',
    'https://',
    'http:example.com',
    'https:/example.com',
    ' https://example.com',
    'https://example.com ',
    'https://exa mple.com',
    'https://example.com/\tx',
    'https://user:pass@example.com',
    'https://bank.example@evil.example',
    '',
  ])('refuses URL %j everywhere a URL is taken', (url) => {
    expect(errorsOf('website', { url })).toEqual([{ path: 'data.url', message: BAD_URL }]);
    expect(
      errorsOf(
        'smart-url',
        full('smart-url', (d) => (d.defaultUrl = url)),
      ),
    ).toEqual([{ path: 'data.defaultUrl', message: BAD_URL }]);
    expect(
      errorsOf(
        'smart-url',
        full(
          'smart-url',
          rule(6, (r) => (r.url = url)),
        ),
      ),
    ).toEqual([{ path: 'data.rules[6].url', message: BAD_URL }]);
    expect(
      errorsOf(
        'event',
        full('event', (d) => (d.registrationUrl = url)),
      ),
    ).toEqual([{ path: 'data.registrationUrl', message: BAD_URL }]);
    expect(
      errorsOf(
        'multi-links',
        full('multi-links', (d) => (d.links[1].value = url)),
      ),
    ).toEqual([{ path: 'data.links[1].value', message: BAD_URL }]);
  });

  it.each([
    'http://localhost:8080/x',
    'HTTPS://EXAMPLE.COM',
    'https://[::1]/',
    'https://bücher.de/ä?q=ü',
    'https://127.0.0.1',
    'https://example.com:8443/a/b?c=d&e#f',
  ])('accepts URL %j', (url) => {
    expect(isHttpUrl(url)).toBe(true);
    expect(errorsOf('website', { url })).toEqual([]);
  });

  it.each(['not-an-email', 'a@b', 'a@@example.com', '@example.com', 'jane@', 'jane doe@example.com'])('refuses email %j', (email) => {
    expect(errorsOf('email', { email })).toEqual([{ path: 'data.email', message: 'Must be a valid email' }]);
    expect(
      errorsOf(
        'vcard',
        full('vcard', (d) => (d.email = email)),
      ),
    ).toEqual([{ path: 'data.email', message: 'Must be a valid email' }]);
  });

  it.each(['12', '1-2', 'abc-def-ghi', '+1 555 CALL', '1'.repeat(33), '+-() .', '555#123', ''])('refuses phone %j', (phone) => {
    expect(isPhoneNumber(phone)).toBe(false);
    expect(errorsOf('sms', { phone })).toEqual([{ path: 'data.phone', message: 'Must be a valid phone number' }]);
  });

  it.each(['112', '+49 (30) 123-456.78', '1'.repeat(32), '+1 555 0100'])('accepts phone %j', (phone) => {
    expect(isPhoneNumber(phone)).toBe(true);
  });

  it.each(['XXX', 'XTS', 'US', 'EURO', 'ABC', 'US$', '€', '', 'e u'])('refuses currency %j', (currency) => {
    expect(
      errorsOf(
        'product',
        full('product', (d) => (d.currency = currency)),
      ),
    ).toEqual([{ path: 'data.currency', message: 'Must be a currency code (ISO 4217, e.g. USD)' }]);
  });

  it('takes currency codes in any case', () => {
    for (const c of ['USD', 'usd', 'Eur', 'jpy', 'CHF', 'INR']) expect(isCurrencyCode(c)).toBe(true);
  });

  it.each(['notacolor', 'rgb(1, 2)', '#ggg', 'currentcolor', ''])('refuses color %j at its own path', (color) => {
    expect(
      errorsOf(
        'multi-links',
        full('multi-links', (d) => (d.design.textColor = color)),
      ),
    ).toEqual([{ path: 'data.design.textColor', message: 'Must be a CSS color or hex' }]);
    expect(
      errorsOf(
        'multi-links',
        full('multi-links', (d) => (d.design.linkBackgroundColor = color)),
      ),
    ).toEqual([{ path: 'data.design.linkBackgroundColor', message: 'Must be a CSS color or hex' }]);
  });

  it.each<[string, LinkType, Data, string]>([
    ['image', 'image', { files: [{ fileId: fid(1) }, { fileId: 'abc' }] }, 'data.files[1].fileId'],
    ['gallery', 'gallery', { files: [{ fileId: `${fid(1)}0` }] }, 'data.files[0].fileId'],
    ['event image', 'event', full('event', (d) => (d.image.fileId = '')), 'data.image.fileId'],
    ['product image', 'product', full('product', (d) => (d.images.files[1].fileId = 'file-2')), 'data.images.files[1].fileId'],
    ['multi-pdf', 'multi-pdf', full('multi-pdf', (d) => (d.pdfs[2].fileId = '../etc/passwd')), 'data.pdfs[2].fileId'],
  ])('refuses a fileId that is not a UUID (%s)', (_name, type, data, path) => {
    expect(errorsOf(type, data)).toEqual([{ path, message: 'Must be a file id (UUID)' }]);
  });

  it('refuses a logo that is not a JSON value or nested too deep, each with its own cause', () => {
    let deep: Data = 1;
    for (let i = 0; i < 40; i++) deep = [deep];
    const cases: Array<[unknown, string]> = [
      [deep, 'Must be nested at most 32 levels deep'],
      [new Date(), 'Must be a JSON value'],
      [() => 1, 'Must be a JSON value'],
      [NaN, 'Must be a JSON value (numbers must be finite)'],
    ];
    for (const [logo, message] of cases) {
      expect(
        errorsOf(
          'multi-links',
          full('multi-links', (d) => (d.logo = logo)),
        ),
      ).toEqual([{ path: 'data.logo', message }]);
    }
    expect(isSmallJsonValue({ a: [1, { b: null }] })).toBe(true);
    expect(isSmallJsonValue(undefined)).toBe(false);
  });
});

describe('event dates and time zones', () => {
  it.each([
    '1',
    '2026',
    '2026-03-08',
    '2026-03-08 10:00',
    '2026-03-08T10',
    '2026-03-08T10:00:00+0200',
    '2026-03-08T10:00:00+02',
    '2026-03-08T10:00:00 Z',
    '2026-02-30T10:00',
    '2026-13-01T10:00',
    '2026-03-08T24:00',
    '2026-03-08T10:60',
    '2026-03-08T10:00:60',
    '2026-03-08T10:00+24:00',
    'March 8, 2026 10:00',
    'Sun, 08 Mar 2026 10:00:00 GMT',
    '2026-03-08T10:00:00.Z',
  ])('refuses startDateTime and endDateTime %j', (value) => {
    const message = 'Must be an ISO 8601 date-time (YYYY-MM-DDTHH:MM)';
    expect(
      errorsOf(
        'event',
        full('event', (d) => (d.startDateTime = value)),
      ),
    ).toEqual([{ path: 'data.startDateTime', message }]);
    expect(
      errorsOf(
        'event',
        full('event', (d) => (d.endDateTime = value)),
      ),
    ).toEqual([{ path: 'data.endDateTime', message }]);
  });

  it.each<[string, string, string, string]>([
    ['local times', '2026-05-01T10:00', '2026-05-01T09:59', 'Europe/Berlin'],
    ['a day earlier', '2026-05-02T00:00', '2026-05-01T23:00', 'UTC'],
    ['offset end before a local start', '2026-05-01T10:00', '2026-05-01T07:59Z', 'Europe/Berlin'],
    ['local end before an offset start', '2026-05-01T10:00:00+05:30', '2026-05-01T00:29:59', 'UTC'],
    ['across the fall-back overlap', '2026-11-01T01:30', '2026-11-01T01:29', 'America/New_York'],
  ])('endDateTime before startDateTime is an error at endDateTime (%s)', (_name, start, end, timezone) => {
    const data = full('event', (d) => Object.assign(d, { startDateTime: start, endDateTime: end, timezone }));
    expect(errorsOf('event', data)).toEqual([{ path: 'data.endDateTime', message: 'Must not be before startDateTime' }]);
  });

  it('compares the ends as instants in the event time zone, not as text', () => {
    // 10:00 in Kolkata is 04:30Z, so 05:00Z is later even though "05:00" < "10:00".
    const data = full('event', (d) =>
      Object.assign(d, { startDateTime: '2026-05-01T10:00', endDateTime: '2026-05-01T05:00Z', timezone: 'Asia/Kolkata' }),
    );
    expect(errorsOf('event', data)).toEqual([]);
  });

  it('reports the end check together with other errors', () => {
    const data = full('event', (d) => Object.assign(d, { endDateTime: '2026-03-08T01:00', organizerName: 5 }));
    expect(
      errorsOf('event', data)
        .map((e) => e.path)
        .sort(),
    ).toEqual(['data.endDateTime', 'data.organizerName']);
  });

  it.each<[string, Partial<Record<'startDateTime' | 'endDateTime' | 'timezone', string>>, string[]]>([
    ['a start before 1900', { startDateTime: '1899-12-31T23:59Z' }, ['data.startDateTime']],
    [
      '1900-01-01 in Paris (local mean time, before 00:00Z)',
      { startDateTime: '1900-01-01T00:00', timezone: 'Europe/Paris' },
      ['data.startDateTime'],
    ],
    ['year 0001', { startDateTime: '0001-01-01T00:00', endDateTime: '0001-01-01T01:00' }, ['data.startDateTime', 'data.endDateTime']],
    ['an end past 9999 as an instant', { endDateTime: '9999-12-31T23:00', timezone: 'America/Los_Angeles' }, ['data.endDateTime']],
  ])('refuses an event outside 1900–9999 UTC at the field (%s)', (_name, fields, paths) => {
    const data = full('event', (d) => Object.assign(d, { endDateTime: undefined }, fields));
    if (data.endDateTime === undefined) delete data.endDateTime;
    const message = 'Must be between 1900-01-01T00:00Z and 9999-12-31T23:59Z';
    expect(errorsOf('event', data)).toEqual(paths.map((path) => ({ path, message })));
  });

  it.each([
    ['1969-07-20T20:17Z', '1969-07-20T22:00Z'],
    ['1900-01-01T00:00Z', undefined],
    ['9999-12-31T22:59Z', '9999-12-31T23:59:59.999Z'],
  ])('accepts an event at the edges of its range (%s)', (startDateTime, endDateTime) => {
    const data = full('event', (d) => Object.assign(d, { startDateTime, endDateTime, timezone: 'UTC' }));
    if (endDateTime === undefined) delete data.endDateTime;
    expect(errorsOf('event', data)).toEqual([]);
  });

  it('skips the end check when the time zone is unusable, reporting only the zone', () => {
    const data = full('event', (d) => (d.timezone = 'Mars/Base'));
    expect(errorsOf('event', data)).toEqual([{ path: 'data.timezone', message: 'Must be a valid IANA time zone' }]);
  });

  it.each(['Mars/Base', 'Europe/Atlantis', '+05:30', 'UTC+1', 'GMT+0530', 'Europe/Berlin ', '', 'Local'])(
    'refuses time zone %j',
    (timezone) => {
      const message = 'Must be a valid IANA time zone';
      expect(
        errorsOf(
          'event',
          full('event', (d) => (d.timezone = timezone)),
        ),
      ).toEqual([{ path: 'data.timezone', message }]);
      expect(
        errorsOf(
          'smart-url',
          full(
            'smart-url',
            rule(2, (r) => (r.timezone = timezone)),
          ),
        ),
      ).toEqual([{ path: 'data.rules[2].timezone', message }]);
      expect(
        errorsOf(
          'smart-url',
          full(
            'smart-url',
            rule(5, (r) => (r.timezone = timezone)),
          ),
        ),
      ).toEqual([{ path: 'data.rules[5].timezone', message }]);
    },
  );
});

describe('smart-url rules', () => {
  it.each<[string, number, (r: Data) => void, string, string]>([
    ['any rule without url', 7, (r) => delete r.url, 'url', REQ],
    ['location without countries', 0, (r) => delete r.countries, 'countries', REQ],
    ['device without devices', 1, (r) => delete r.devices, 'devices', REQ],
    ['time without timezone', 2, (r) => delete r.timezone, 'timezone', REQ],
    ['time without timeFrom', 2, (r) => delete r.timeFrom, 'timeFrom', REQ],
    ['time without timeTo', 8, (r) => delete r.timeTo, 'timeTo', REQ],
    ['date without timezone', 3, (r) => delete r.timezone, 'timezone', REQ],
    ['date after without dateFrom', 3, (r) => delete r.dateFrom, 'dateFrom', REQ],
    ['date before without dateTo', 4, (r) => delete r.dateTo, 'dateTo', REQ],
    ['date between without dateFrom', 5, (r) => delete r.dateFrom, 'dateFrom', REQ],
    ['date between without dateTo', 5, (r) => delete r.dateTo, 'dateTo', REQ],
    ['date not_between without dateFrom', 6, (r) => delete r.dateFrom, 'dateFrom', REQ],
    ['date not_between without dateTo', 6, (r) => delete r.dateTo, 'dateTo', REQ],
    [
      'date between with dateTo < dateFrom',
      5,
      (r) => Object.assign(r, { dateFrom: '2026-06-02', dateTo: '2026-06-01' }),
      'dateTo',
      'Must not be before dateFrom',
    ],
    [
      'date not_between with dateTo < dateFrom',
      6,
      (r) => Object.assign(r, { dateFrom: '2027-01-01', dateTo: '2026-12-31' }),
      'dateTo',
      'Must not be before dateFrom',
    ],
    ['timeFrom 24:00', 2, (r) => (r.timeFrom = '24:00'), 'timeFrom', 'Must be a time (HH:MM, 24-hour)'],
    ['timeFrom 9:00', 2, (r) => (r.timeFrom = '9:00'), 'timeFrom', 'Must be a time (HH:MM, 24-hour)'],
    ['timeTo 09:60', 2, (r) => (r.timeTo = '09:60'), 'timeTo', 'Must be a time (HH:MM, 24-hour)'],
    ['timeTo with seconds', 8, (r) => (r.timeTo = '10:00:00'), 'timeTo', 'Must be a time (HH:MM, 24-hour)'],
    ['timeFrom as a number', 8, (r) => (r.timeFrom = 900), 'timeFrom', 'Must be a string'],
    ['dateFrom 2026-02-30', 3, (r) => (r.dateFrom = '2026-02-30'), 'dateFrom', 'Must be a date (YYYY-MM-DD)'],
    ['dateFrom 2025-02-29', 5, (r) => (r.dateFrom = '2025-02-29'), 'dateFrom', 'Must be a date (YYYY-MM-DD)'],
    ['dateTo 2026-13-01', 4, (r) => (r.dateTo = '2026-13-01'), 'dateTo', 'Must be a date (YYYY-MM-DD)'],
    ['dateTo 2026/12/31', 4, (r) => (r.dateTo = '2026/12/31'), 'dateTo', 'Must be a date (YYYY-MM-DD)'],
    ['dateFrom with a time', 3, (r) => (r.dateFrom = '2026-01-01T00:00'), 'dateFrom', 'Must be a date (YYYY-MM-DD)'],
    ['dateTo 2026-1-5', 6, (r) => (r.dateTo = '2026-1-5'), 'dateTo', 'Must be a date (YYYY-MM-DD)'],
  ])('%s', (_name, index, mutate, member, message) => {
    expect(errorsOf('smart-url', full('smart-url', rule(index, mutate)))).toEqual([{ path: `data.rules[${index}].${member}`, message }]);
  });

  it('a "before" rule switched to "after" needs dateFrom and may not keep dateTo', () => {
    expect(
      errorsOf(
        'smart-url',
        full(
          'smart-url',
          rule(4, (r) => (r.operator = 'after')),
        ),
      ),
    ).toEqual([
      { path: 'data.rules[4].dateFrom', message: REQ },
      { path: 'data.rules[4].dateTo', message: 'Unknown field' },
    ]);
  });

  it('a time zone of 64 characters is checked as a name, 65 only for length', () => {
    const tz64 = `Europe/${'x'.repeat(57)}`;
    expect(tz64).toHaveLength(64);
    expect(
      errorsOf(
        'event',
        full('event', (d) => (d.timezone = tz64)),
      ),
    ).toEqual([{ path: 'data.timezone', message: 'Must be a valid IANA time zone' }]);
    expect(
      errorsOf(
        'event',
        full('event', (d) => (d.timezone = `${tz64}x`)),
      ),
    ).toEqual([{ path: 'data.timezone', message: 'Must be at most 64 characters' }]);
  });

  it.each(['XX', 'ZZ', 'AA', 'QO', 'EU', 'UN', 'UK', 'SU', 'USA', 'U', '1A', 'U$', ''])('refuses country %j', (code) => {
    expect(
      errorsOf(
        'smart-url',
        full(
          'smart-url',
          rule(0, (r) => (r.countries = ['US', code])),
        ),
      ),
    ).toEqual([{ path: 'data.rules[0].countries[1]', message: 'Must be a country code (ISO 3166-1 alpha-2, e.g. US)' }]);
  });

  it('reports every bad rule, each at its own index', () => {
    const data = full('smart-url', (d) => {
      d.rules[2].timeFrom = '25:00';
      d.rules[7].conditionType = 'weather';
      d.rules[9].devices = ['toaster'];
    });
    expect(errorsOf('smart-url', data)).toEqual([
      { path: 'data.rules[2].timeFrom', message: 'Must be a time (HH:MM, 24-hour)' },
      { path: 'data.rules[7].conditionType', message: 'Must be one of: location, time, date, device' },
      { path: 'data.rules[9].devices[0]', message: 'Must be one of: ios, android, windows, macos, linux, mobile, desktop' },
    ]);
  });

  it('reports all problems of one rule together', () => {
    const bad = { conditionType: 'time', operator: 'after', url: 'ftp://x', timezone: 'Mars/Base', timeFrom: '10:00', devices: ['ios'] };
    const result = smartUrlRuleSchema.safeParse(bad);
    expect(zodIssuesToFieldErrors(result.error!.issues).listed).toEqual([
      { path: 'operator', message: 'Must be one of: between, not_between' },
      { path: 'url', message: BAD_URL },
      { path: 'timezone', message: 'Must be a valid IANA time zone' },
      { path: 'timeTo', message: REQ },
      { path: 'devices', message: 'Unknown field' },
    ]);
  });

  it('smartUrlRuleSchema parses each full example rule to itself', () => {
    for (const r of FULL['smart-url'].rules) expect(smartUrlRuleSchema.parse(structuredClone(r))).toStrictEqual(r);
  });
});

// The officially assigned ISO 3166-1 alpha-2 codes (249).
const ISO_3166_1 = `AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR
BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET
FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ
IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML
MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS
PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL
TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW`.split(/\s+/);

describe('isCountryCode', () => {
  it('accepts exactly the ISO 3166-1 alpha-2 codes plus XK, in any case', () => {
    expect(ISO_3166_1).toHaveLength(249);
    const accepted: string[] = [];
    for (let a = 65; a <= 90; a++) {
      for (let b = 65; b <= 90; b++) {
        const code = String.fromCharCode(a, b);
        if (isCountryCode(code)) accepted.push(code);
      }
    }
    expect(accepted).toEqual([...ISO_3166_1, 'XK'].sort());
    expect(isCountryCode('us')).toBe(true);
    expect(isCountryCode('gB')).toBe(true);
  });
});

describe('isIanaTimezone', () => {
  it.each([
    'UTC',
    'Etc/UTC',
    'America/New_York',
    'Europe/Berlin',
    'Asia/Kolkata',
    'Asia/Calcutta',
    'Europe/Kyiv',
    'US/Eastern',
    'Etc/GMT+5',
    'America/Port-au-Prince',
    'utc',
    'america/new_york',
  ])('accepts %j', (tz) => {
    expect(isIanaTimezone(tz)).toBe(true);
    expect(isIanaTimezone(tz)).toBe(true); // cached answer
  });

  it.each([
    'Mars/Base',
    '',
    '+05:30',
    '-08:00',
    'UTC+1',
    'America/',
    '/Europe/Berlin',
    'Europe//Berlin',
    'Europe/Berlin ',
    'x'.repeat(65),
    'EST+5',
  ])('refuses %j', (tz) => {
    expect(isIanaTimezone(tz)).toBe(false);
  });

  it('accepts every zone Intl lists', () => {
    for (const tz of Intl.supportedValuesOf('timeZone')) expect(isIanaTimezone(tz)).toBe(true);
  });
});

describe('zonedLocalToUtc', () => {
  const at = (y: number, mo: number, d: number, h: number, mi: number, s = 0, ms = 0) => ({
    year: y,
    month: mo,
    day: d,
    hour: h,
    minute: mi,
    second: s,
    ms,
  });

  it.each<[string, ReturnType<typeof at>, string, string]>([
    ['New York winter (EST)', at(2026, 1, 15, 10, 0), 'America/New_York', '2026-01-15T15:00:00.000Z'],
    ['New York summer (EDT)', at(2026, 7, 15, 10, 0), 'America/New_York', '2026-07-15T14:00:00.000Z'],
    ['New York just before spring-forward', at(2026, 3, 8, 1, 59, 59, 999), 'America/New_York', '2026-03-08T06:59:59.999Z'],
    ['New York in the spring-forward gap moves forward', at(2026, 3, 8, 2, 30), 'America/New_York', '2026-03-08T07:30:00.000Z'],
    ['New York right after spring-forward', at(2026, 3, 8, 3, 0), 'America/New_York', '2026-03-08T07:00:00.000Z'],
    ['New York fall-back overlap takes the earlier (EDT)', at(2026, 11, 1, 1, 30), 'America/New_York', '2026-11-01T05:30:00.000Z'],
    ['New York after fall-back', at(2026, 11, 1, 2, 0), 'America/New_York', '2026-11-01T07:00:00.000Z'],
    ['Berlin winter (CET)', at(2026, 1, 15, 12, 0), 'Europe/Berlin', '2026-01-15T11:00:00.000Z'],
    ['Berlin summer (CEST)', at(2026, 7, 15, 12, 0), 'Europe/Berlin', '2026-07-15T10:00:00.000Z'],
    ['Berlin in the spring-forward gap', at(2026, 3, 29, 2, 30), 'Europe/Berlin', '2026-03-29T01:30:00.000Z'],
    ['Berlin fall-back overlap takes the earlier (CEST)', at(2026, 10, 25, 2, 30), 'Europe/Berlin', '2026-10-25T00:30:00.000Z'],
    ['Berlin after fall-back', at(2026, 10, 25, 3, 0), 'Europe/Berlin', '2026-10-25T02:00:00.000Z'],
    ['Kolkata +05:30', at(2026, 1, 15, 10, 0), 'Asia/Kolkata', '2026-01-15T04:30:00.000Z'],
    ['Kolkata midnight is the previous UTC day', at(2026, 6, 1, 0, 0), 'Asia/Kolkata', '2026-05-31T18:30:00.000Z'],
    ['UTC', at(2026, 2, 28, 23, 59, 59, 1), 'UTC', '2026-02-28T23:59:59.001Z'],
    ['a skipped calendar day (Samoa 2011-12-30)', at(2011, 12, 30, 12, 0), 'Pacific/Apia', '2011-12-30T22:00:00.000Z'],
    ['a two-digit year is not 19xx', at(50, 6, 1, 0, 0), 'UTC', '0050-06-01T00:00:00.000Z'],
  ])('%s', (_name, local, tz, expected) => {
    expect(zonedLocalToUtc(local, tz).toISOString()).toBe(expected);
  });

  it('throws for an unknown zone', () => {
    expect(() => zonedLocalToUtc(at(2026, 1, 1, 0, 0), 'Mars/Base')).toThrow(RangeError);
  });
});

describe('parseDateTimeInZone', () => {
  it.each<[string, string, string]>([
    ['2026-05-01T10:00:00Z', 'Asia/Kolkata', '2026-05-01T10:00:00.000Z'],
    ['2026-05-01T10:00+05:30', 'America/New_York', '2026-05-01T04:30:00.000Z'],
    ['2026-05-01T10:00:00-07:00', 'UTC', '2026-05-01T17:00:00.000Z'],
    ['2026-05-01T10:00:00-00:00', 'Europe/Berlin', '2026-05-01T10:00:00.000Z'],
    ['2026-05-01T10:00:00.5Z', 'UTC', '2026-05-01T10:00:00.500Z'],
    ['2026-05-01T10:00:00.123456789Z', 'UTC', '2026-05-01T10:00:00.123Z'],
    ['2026-05-01T10:00', 'Asia/Kolkata', '2026-05-01T04:30:00.000Z'],
    ['2026-05-01T10:00:30', 'Europe/Berlin', '2026-05-01T08:00:30.000Z'],
    ['2026-03-08T02:30', 'America/New_York', '2026-03-08T07:30:00.000Z'],
    ['2026-11-01T01:30', 'America/New_York', '2026-11-01T05:30:00.000Z'],
    ['2026-03-29T02:30', 'Europe/Berlin', '2026-03-29T01:30:00.000Z'],
    ['2026-05-01', 'Asia/Kolkata', '2026-04-30T18:30:00.000Z'],
    ['2026-03-08', 'America/New_York', '2026-03-08T05:00:00.000Z'],
    ['2024-02-29', 'UTC', '2024-02-29T00:00:00.000Z'],
    ['2026-05-01T10:00Z', 'Mars/Base', '2026-05-01T10:00:00.000Z'],
  ])('%s in %s', (value, tz, expected) => {
    expect(parseDateTimeInZone(value, tz)?.toISOString()).toBe(expected);
  });

  it.each<[string, string]>([
    ['1', 'UTC'],
    ['2026', 'UTC'],
    ['2026-05-01 10:00', 'UTC'],
    ['2026-02-29', 'UTC'],
    ['2023-02-29T00:00', 'UTC'],
    ['1900-02-29', 'UTC'],
    ['2026-05-01T24:00', 'UTC'],
    ['2026-05-01T10:00+0530', 'UTC'],
    ['May 1, 2026', 'UTC'],
    ['2026-05-01T10:00', 'Mars/Base'],
    ['2026-05-01', 'Mars/Base'],
  ])('refuses %j in %s', (value, tz) => {
    expect(parseDateTimeInZone(value, tz)).toBeNull();
  });

  it('parseIsoDateTimeParts reports offset and whether a time was given', () => {
    expect(parseIsoDateTimeParts('2000-02-29')).toEqual({
      local: { year: 2000, month: 2, day: 29, hour: 0, minute: 0, second: 0, ms: 0 },
      offsetMinutes: null,
      hasTime: false,
    });
    expect(parseIsoDateTimeParts('2026-05-01T10:20:30.4-03:30')).toEqual({
      local: { year: 2026, month: 5, day: 1, hour: 10, minute: 20, second: 30, ms: 400 },
      offsetMinutes: -210,
      hasTime: true,
    });
  });
});

describe('fileRefs', () => {
  it.each<[LinkType, Array<{ path: Array<string | number>; fileId: string; kind: 'image' | 'pdf' }>]>([
    [
      'image',
      [
        { path: ['files', 0, 'fileId'], fileId: fid(1), kind: 'image' },
        { path: ['files', 1, 'fileId'], fileId: fid(2), kind: 'image' },
      ],
    ],
    ['pdf', [{ path: ['files', 0, 'fileId'], fileId: fid(3), kind: 'pdf' }]],
    ['gallery', Array.from({ length: 20 }, (_, i) => ({ path: ['files', i, 'fileId'], fileId: fid(10 + i), kind: 'image' as const }))],
    ['event', [{ path: ['image', 'fileId'], fileId: fid(1), kind: 'image' }]],
    [
      'product',
      [
        { path: ['images', 'files', 0, 'fileId'], fileId: fid(4), kind: 'image' },
        { path: ['images', 'files', 1, 'fileId'], fileId: fid(5), kind: 'image' },
      ],
    ],
    [
      'multi-pdf',
      [
        { path: ['pdfs', 0, 'fileId'], fileId: fid(7), kind: 'pdf' },
        { path: ['pdfs', 1, 'fileId'], fileId: fid(8), kind: 'pdf' },
        { path: ['pdfs', 2, 'fileId'], fileId: fid(9), kind: 'pdf' },
      ],
    ],
  ])('lists the files of a full %s example', (type, expected) => {
    expect(fileRefs(type, FULL[type])).toEqual(expected);
  });

  it('paths name the member in data that the error formatter prints', () => {
    const [ref] = fileRefs('product', FULL.product).slice(1);
    expect(ref!.path).toEqual(['images', 'files', 1, 'fileId']);
  });

  it.each(LINK_TYPES.filter((t) => !['image', 'pdf', 'gallery', 'event', 'product', 'multi-pdf'].includes(t)))(
    '%s names no files (a logo object is not a file reference)',
    (type) => {
      expect(fileRefs(type, FULL[type])).toEqual([]);
    },
  );

  it('is empty for minimal examples without files', () => {
    expect(fileRefs('event', MINIMAL.event)).toEqual([]);
    expect(fileRefs('product', MINIMAL.product)).toEqual([]);
  });

  it.each([
    null,
    undefined,
    'x',
    5,
    [],
    { files: 'x' },
    { files: [null, 1, { fileId: 2 }] },
    { image: [] },
    { images: { files: {} } },
    { pdfs: [{}] },
  ])('never throws on junk (%j)', (junk) => {
    for (const type of LINK_TYPES) expect(fileRefs(type, junk)).toEqual([]);
  });
});

describe('how deep landing HTML nests, as an HTML parser reads it', () => {
  it.each<[string, string, number]>([
    ['closed elements side by side', '<div>a</div><div><p>b</p></div>', 2],
    ['void elements hold nothing', `<p>${'<br><img src="x">'.repeat(50)}</p>`, 1],
    ['an <li> closes the open one, a block an open <p>', `<ul>${'<li>a'.repeat(50)}</ul>${'<p>x'.repeat(50)}<div>y</div>`, 2],
    ['a row closes the open row and cell', `<table>${'<tr><td>a<td>b'.repeat(50)}</table>`, 3],
    ['a close tag closes everything opened after its element', '<div><span><b>x</div>'.repeat(20), 3],
    ['self-closing tags close inside svg only', `<svg>${'<path d="M0 0"/>'.repeat(50)}</svg>`, 1],
    ['script and comment content is text', `<script>${'<div>'.repeat(50)}</script><!--${'<div>'.repeat(50)}-->`, 1],
    ['an attribute value with a quote does not hide the tag end', `${'<div title="it\'s">'.repeat(3)}`, 3],
  ])('%s: %i deep', (_name, html, depth) => {
    expect(nestsAtMost(html, depth)).toBe(true);
    expect(nestsAtMost(html, depth - 1)).toBe(false);
  });

  it('reads hostile HTML of 512 KiB', () => {
    expect(nestsAtMost('<div>'.repeat(100_000), LANDING_HTML_MAX_DEPTH)).toBe(false);
    for (const html of [
      "<a'".repeat(170_000),
      '<script>x</script>'.repeat(29_000),
      `<!--${'<div>'.repeat(100_000)}`,
      `<div${'<'.repeat(500_000)}`,
    ]) {
      expect(nestsAtMost(html, LANDING_HTML_MAX_DEPTH)).toBe(true);
    }
  });
});
