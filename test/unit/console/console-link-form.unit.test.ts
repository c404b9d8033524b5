/**
 * The link form's mapping (console/src/links/link-form.ts) checked against the server's own body
 * schema: what each of the 16 forms sends is what POST /links accepts, stored data survives
 * link → form → body unchanged, and empty optional fields are left out rather than sent as "".
 */
import { describe, expect, it } from 'vitest';
import {
  dataOf,
  draftOf,
  formPaths,
  linkBodyOf,
  moved,
  newItem,
  TYPE_FORMS,
  type Draft,
  type ListSpec,
  type StoredLink,
} from '#console/src/links/link-form.js';
import { linkConfigurationsOf, settingsFromLink } from '#console/src/links/settings.js';
import { uploadFailure } from '#console/src/links/upload.js';
import { LINK_TYPES, type LinkType } from '#domain/links/data/types.js';
import { linkBodySchema } from '#api/routes/links/schemas.js';

const FILE_A = '0190a000-0000-7000-8000-00000000000a';
const FILE_B = '0190a000-0000-7000-8000-00000000000b';
const ZONE = 'Europe/Lisbon';

/** What a person types into each new form (leaf values by key, list entries' values in order) and the `data` it must send. */
const TYPED: Record<
  LinkType,
  { values?: Record<string, string | boolean>; lists?: Record<string, Array<Record<string, string>>>; data: Record<string, unknown> }
> = {
  website: { values: { url: 'https://example.com/menu' }, data: { url: 'https://example.com/menu' } },
  email: { values: { email: 'hi@example.com', subject: '', body: 'Hello' }, data: { email: 'hi@example.com', body: 'Hello' } },
  sms: { values: { phone: '+351 912 345 678' }, data: { phone: '+351 912 345 678' } },
  vcard: {
    values: { firstName: 'Ana', lastName: 'Silva', email: 'ana@example.com', company: 'Cafe Aroma', city: '' },
    data: { firstName: 'Ana', lastName: 'Silva', email: 'ana@example.com', company: 'Cafe Aroma' },
  },
  wifi: { values: { ssid: 'Cafe guests', password: 'espresso' }, data: { ssid: 'Cafe guests', encryption: 'WPA', password: 'espresso' } },
  location: { values: { latitude: '38.7223', longitude: '-9.1393' }, data: { latitude: 38.7223, longitude: -9.1393 } },
  event: {
    values: {
      description: 'Tasting',
      location: 'Lisbon',
      startDateTime: '2030-05-01T18:00',
      endDateTime: '2030-05-01T20:30',
      'image.fileId': FILE_A,
    },
    data: {
      description: 'Tasting',
      location: 'Lisbon',
      startDateTime: '2030-05-01T18:00',
      endDateTime: '2030-05-01T20:30',
      timezone: ZONE,
      image: { fileId: FILE_A },
    },
  },
  image: { lists: { files: [{ fileId: FILE_A }] }, data: { files: [{ fileId: FILE_A }] } },
  pdf: { lists: { files: [{ fileId: FILE_B }] }, data: { files: [{ fileId: FILE_B }] } },
  gallery: { lists: { files: [{ fileId: FILE_A }, { fileId: FILE_B }] }, data: { files: [{ fileId: FILE_A }, { fileId: FILE_B }] } },
  landing: { values: { landingHTML: '<h1>Welcome</h1>' }, data: { landingHTML: '<h1>Welcome</h1>' } },
  product: {
    values: {
      productName: 'Beans',
      productDescription: 'Single origin',
      currency: 'EUR',
      subTotal: '10',
      tax: '2.3',
      totalNet: '12.3',
      'discount.type': 'percent',
      'discount.value': '5',
    },
    lists: { 'images.files': [{ fileId: FILE_A }] },
    data: {
      productName: 'Beans',
      productDescription: 'Single origin',
      currency: 'EUR',
      subTotal: 10,
      tax: 2.3,
      totalNet: 12.3,
      discount: { type: 'percent', value: 5 },
      images: { files: [{ fileId: FILE_A }] },
    },
  },
  'multi-links': {
    values: { title: 'Cafe Aroma', 'design.linkBackgroundColor': '#aa3300', isRound: true },
    lists: {
      links: [
        { type: 'custom', value: 'https://example.com/', title: 'Our site' },
        { type: 'social', value: 'https://instagram.com/aroma', icon: 'instagram' },
      ],
    },
    data: {
      title: 'Cafe Aroma',
      design: { backgroundColor: '#ffffff', linkBackgroundColor: '#aa3300', textColor: '#ffffff' },
      isRound: true,
      links: [
        { type: 'custom', value: 'https://example.com/', title: 'Our site' },
        { type: 'social', value: 'https://instagram.com/aroma', icon: 'instagram' },
      ],
    },
  },
  'multi-pdf': {
    values: { pageTitle: 'Menus' },
    lists: { pdfs: [{ label: 'Lunch', fileId: FILE_B }] },
    data: { pageTitle: 'Menus', pdfs: [{ label: 'Lunch', fileId: FILE_B }] },
  },
  'smart-url': { values: { defaultUrl: 'https://example.com/' }, data: { defaultUrl: 'https://example.com/' } },
  menu: { values: { name: '' }, data: {} },
};

function typed(type: LinkType): Draft {
  const draft = draftOf(type, null, ZONE);
  const { values = {}, lists = {} } = TYPED[type];
  Object.assign(draft.values, values);
  for (const [key, entries] of Object.entries(lists)) {
    const list = TYPE_FORMS[type].fields.find((f): f is ListSpec => f.kind === 'list' && f.key === key)!;
    draft.lists[key] = entries.map((entry) => {
      const item = newItem(list, ZONE);
      Object.assign(item.values, entry);
      return item;
    });
  }
  return draft;
}

/** Stored data as the API keeps it, with members no field shows: each must come back unchanged. */
const STORED: Partial<Record<LinkType, Record<string, unknown>>> = {
  wifi: { ssid: 'Office', encryption: 'nopass', hidden: false },
  event: {
    description: 'Launch',
    location: 'Porto',
    startDateTime: '2030-05-01T18:00:00Z',
    timezone: 'Asia/Kolkata',
    organizerName: 'Ana',
    registrationUrl: 'https://example.com/register',
    eventTitle: 'Launch night',
  },
  'multi-links': {
    title: 'Links',
    description: '',
    logo: { fileId: FILE_A, shape: ['round'] },
    design: { backgroundColor: 'white', linkBackgroundColor: '#000', textColor: 'rgb(255, 255, 255)' },
    links: [],
  },
  'smart-url': {
    defaultUrl: 'https://example.com/',
    rules: [
      { conditionType: 'device', operator: 'is', url: 'https://apps.apple.com/x', devices: ['ios'] },
      { conditionType: 'location', operator: 'is_not', url: 'https://example.pt/', countries: ['PT'] },
    ],
  },
  product: { productName: 'Cup', productDescription: 'Mug', currency: 'usd', subTotal: 0, tax: 0, totalNet: 0, images: { files: [] } },
  'multi-pdf': {
    pageTitle: 'Docs',
    pdfs: [
      { label: 'A', fileId: FILE_A },
      { label: 'B', fileId: FILE_B },
    ],
  },
};

describe('each type: what the form sends is what the server accepts', () => {
  it.each(LINK_TYPES)('%s', (type) => {
    const body = linkBodyOf(type, 'My link', typed(type));
    expect(body).toEqual({ name: 'My link', type, data: TYPED[type].data });
    const parsed = linkBodySchema.safeParse(body);
    expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
    // Stored as sent: the server keeps exactly this data.
    expect(parsed.data?.data).toEqual(TYPED[type].data);
  });
});

describe('link → form → body keeps the data as it was', () => {
  it.each(LINK_TYPES)('%s', (type) => {
    const stored = STORED[type] ?? TYPED[type].data;
    expect(linkBodySchema.safeParse({ name: 'x', type, data: stored }).success).toBe(true);
    expect(dataOf(type, draftOf(type, stored, ZONE))).toEqual(stored);
  });

  it('members no field shows, in the data and in list entries, go back as they were', () => {
    const stored = { url: 'https://example.com/', legacy: { kept: true } };
    expect(dataOf('website', draftOf('website', stored))).toEqual(stored);
    const pdfs = { pageTitle: 'Docs', pdfs: [{ label: 'A', fileId: FILE_A, note: 'from import' }] };
    const draft = draftOf('multi-pdf', pdfs);
    draft.lists.pdfs![0]!.values.label = 'Renamed';
    expect(dataOf('multi-pdf', draft)).toEqual({ pageTitle: 'Docs', pdfs: [{ label: 'Renamed', fileId: FILE_A, note: 'from import' }] });
  });

  it('smart-url rules are sent back untouched when only the default changes', () => {
    const draft = draftOf('smart-url', STORED['smart-url']);
    draft.values.defaultUrl = 'https://example.org/';
    expect(dataOf('smart-url', draft)).toEqual({ ...STORED['smart-url'], defaultUrl: 'https://example.org/' });
  });
});

describe('empty optional fields are left out', () => {
  it('clearing an optional field removes the member, not ""', () => {
    const draft = draftOf('event', STORED.event);
    draft.values.organizerName = '';
    draft.values.registrationUrl = '';
    const data = dataOf('event', draft);
    expect(data).not.toHaveProperty('organizerName');
    expect(data).not.toHaveProperty('registrationUrl');
    expect(Object.values(data)).not.toContain('');
  });

  it('no discount and no images leave those objects out; a removed discount goes with its type', () => {
    const draft = typed('product');
    draft.values['discount.type'] = '';
    draft.values['discount.value'] = '';
    draft.lists['images.files'] = [];
    expect(dataOf('product', draft)).toEqual({
      productName: 'Beans',
      productDescription: 'Single origin',
      currency: 'EUR',
      subTotal: 10,
      tax: 2.3,
      totalNet: 12.3,
    });
  });

  it('an unticked box is left out on a new link, and sent as false when the link had it', () => {
    expect(dataOf('wifi', typed('wifi'))).not.toHaveProperty('hidden');
    const draft = draftOf('wifi', { ssid: 'x', encryption: 'WPA', hidden: true });
    draft.values.hidden = false;
    expect(dataOf('wifi', draft).hidden).toBe(false);
  });

  it('a required field left empty is left out, so the API says "Required" at that field', () => {
    const draft = draftOf('website', null);
    const parsed = linkBodySchema.safeParse(linkBodyOf('website', 'x', draft));
    expect(parsed.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['data.url', 'Required']]);
  });

  it('a number that is not one is sent as typed, for the API to name', () => {
    const draft = typed('location');
    draft.values.latitude = '38,7';
    const parsed = linkBodySchema.safeParse(linkBodyOf('location', 'x', draft));
    expect(parsed.error?.issues.map((i) => i.path.join('.'))).toEqual(['data.latitude']);
  });
});

describe('new forms, lists and paths', () => {
  it('a new form starts with the browser zone, WPA, and the entries a list needs at least', () => {
    expect(draftOf('event', null, 'America/New_York').values.timezone).toBe('America/New_York');
    expect(draftOf('wifi', null).values.encryption).toBe('WPA');
    expect(draftOf('gallery', null).lists.files).toHaveLength(1);
    expect(draftOf('multi-links', null).lists.links).toHaveLength(0);
  });

  it('every type has a label, a one-line description and at least one field', () => {
    for (const type of LINK_TYPES) {
      expect(TYPE_FORMS[type].label).not.toBe('');
      expect(TYPE_FORMS[type].description).toMatch(/^[^\n]+\.$/);
      expect(TYPE_FORMS[type].fields.length).toBeGreaterThan(0);
    }
  });

  it('the paths a form shows include each list entry, so data.files.1.fileId lands at its field', () => {
    const paths = formPaths('gallery', typed('gallery'));
    expect([...paths]).toEqual(['name', 'data.files', 'data.files.0.fileId', 'data.files.1.fileId']);
    expect(formPaths('product', typed('product')).has('data.discount.value')).toBe(true);
  });

  it('moving an entry swaps it with its neighbour and stops at the ends', () => {
    expect(moved(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moved(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moved(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moved(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
  });
});

describe('an edit sends the link settings back', () => {
  const link = {
    folder_id: 'f1',
    full_dynamic_url: 'https://qr.example/spring-menu',
    url_active: true,
    custom_url: 'spring-menu',
    schedule_active: true,
    start_date: '2030-01-01T00:00:00.000Z',
    end_date: '2030-02-01T00:00:00.000Z',
    schedule_timezone: 'UTC',
    scan_limit_active: true,
    scan_limit: 100,
    human_scan_count: 3,
    limit_scan_count: 3,
    password_protected_active: true,
    password: '$2b$10$hash',
  } as StoredLink;

  it('every setting as the link has it (links/settings.ts), and never the password hash', () => {
    const settings = linkConfigurationsOf(settingsFromLink(link));
    if (!('value' in settings)) throw new Error('expected settings');
    expect(settings.value).toEqual({
      folder_id: 'f1',
      urlActive: true,
      customUrl: 'spring-menu',
      scheduleActive: true,
      startDate: '2030-01-01T00:00',
      endDate: '2030-02-01T00:00',
      scheduleTimezone: 'UTC',
      scanLimitActive: true,
      scanLimit: 100,
      passwordProtectedActive: true,
    });
    expect(linkBodySchema.safeParse(linkBodyOf('website', 'x', typed('website'), settings.value)).success).toBe(true);
  });

  it('no settings leave linkConfigurations out', () => {
    expect(linkBodyOf('website', 'x', typed('website'))).not.toHaveProperty('linkConfigurations');
    expect(linkBodyOf('website', 'x', typed('website'), undefined)).not.toHaveProperty('linkConfigurations');
  });
});

describe('a refused upload in words', () => {
  it("says the API's reason: the file field's message first, else the answer's message", () => {
    expect(
      uploadFailure(400, {
        message: 'Validation failed',
        errors: [{ path: 'file', message: 'Unsupported file type; allowed: PNG, JPEG, WebP, GIF, PDF, SVG' }],
      }),
    ).toBe('The file was refused: Unsupported file type; allowed: PNG, JPEG, WebP, GIF, PDF, SVG.');
    expect(uploadFailure(413, { message: 'File is too large' })).toBe('The file was refused: File is too large.');
    expect(uploadFailure(502, null)).toBe('The file was refused (the server answered 502).');
  });

  it('an upload that never reached the server, or a key no longer accepted, says so', () => {
    expect(uploadFailure(0, null)).toMatch(/did not reach the server/);
    expect(uploadFailure(401, { message: 'Unauthorized' })).toMatch(/key is no longer accepted/);
  });
});
