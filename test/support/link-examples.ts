import type { LinkType } from '#domain/links/data/index.js';
import type { ResolvedLink, ResolvedLinkFile, StoredLink } from '#domain/links/resolve/resolved-link.js';

/** A valid `data` payload for each link type; file-bearing ones take the ids of uploaded files. */
export interface ExampleFiles {
  images: string[];
  pdfs: string[];
}

export function exampleData(type: string, f: ExampleFiles): Record<string, unknown> {
  switch (type) {
    case 'website':
      return { url: 'https://example.com/menu?table=4' };
    case 'email':
      return { email: 'hello@example.com', subject: 'Booking', body: 'A table for two, please.' };
    case 'sms':
      return { phone: '+1 (555) 010-2030', message: 'Hi!' };
    case 'vcard':
      return {
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.com',
        contact: 'Engine Room',
        phone: '+44 20 7946 0000',
        fax: '+44 20 7946 0001',
        website: 'https://ada.example.com',
        company: 'Analytical Engines',
        department: 'Research',
        street: '12 St James Square',
        state: 'Greater London',
        city: 'London',
        zip: 'SW1Y 4JH',
        country: 'United Kingdom',
      };
    case 'wifi':
      return { ssid: 'Cafe Guest', encryption: 'WPA', password: 'espresso42', hidden: false };
    case 'location':
      return { latitude: 48.8584, longitude: 2.2945 };
    case 'event':
      return {
        description: 'Live jazz night',
        location: 'Main hall',
        startDateTime: '2026-12-24T19:00:00',
        endDateTime: '2026-12-24T23:00:00',
        timezone: 'Europe/Paris',
        organizerName: 'Cafe Aroma',
        registrationUrl: 'https://example.com/register',
        eventTitle: 'Jazz at the Aroma',
        image: { fileId: f.images[0] },
      };
    case 'image':
      return { files: [{ fileId: f.images[0] }] };
    case 'pdf':
      return { files: [{ fileId: f.pdfs[0] }] };
    case 'gallery':
      return { files: [{ fileId: f.images[0] }, { fileId: f.images[1] }] };
    case 'landing':
      return { landingHTML: '<h1>Welcome</h1><p>Our <strong>menu</strong> changes daily.</p>' };
    case 'product':
      return {
        productName: 'House blend',
        productDescription: '250 g whole beans',
        currency: 'EUR',
        subTotal: 12.5,
        tax: 2.5,
        totalNet: 15,
        discount: { type: 'percent', value: 10 },
        images: { files: [{ fileId: f.images[0] }] },
      };
    case 'multi-links':
      return {
        title: 'Cafe Aroma',
        description: 'Find us everywhere',
        isRound: true,
        design: { backgroundColor: '#ffffff', linkBackgroundColor: '#222222', textColor: 'white' },
        links: [
          { type: 'custom', value: 'https://example.com/order', title: 'Order online' },
          { type: 'social', value: 'https://instagram.com/cafearoma', icon: 'instagram' },
        ],
      };
    case 'multi-pdf':
      return {
        pageTitle: 'Menus',
        pdfs: [
          { label: 'Lunch', fileId: f.pdfs[0] },
          { label: 'Dinner', fileId: f.pdfs[1] },
        ],
      };
    case 'smart-url':
      return {
        defaultUrl: 'https://example.com/',
        rules: [
          { conditionType: 'device', operator: 'is', devices: ['ios'], url: 'https://apps.apple.com/app/id1' },
          { conditionType: 'location', operator: 'is_not', countries: ['US', 'CA'], url: 'https://example.com/intl' },
          {
            conditionType: 'time',
            operator: 'between',
            timezone: 'Europe/Berlin',
            timeFrom: '08:00',
            timeTo: '11:30',
            url: 'https://example.com/breakfast',
          },
          {
            conditionType: 'date',
            operator: 'between',
            timezone: 'UTC',
            dateFrom: '2026-12-01',
            dateTo: '2026-12-31',
            url: 'https://example.com/xmas',
          },
        ],
      };
    case 'menu':
      return { name: 'Dinner menu' };
    default:
      throw new Error(`no example for ${type}`);
  }
}

/**
 * A link as the redirect resolves it: active, unprotected, with `data` of `type`. `data` is taken
 * as that type's unchecked, as the resolver takes a stored link's, so a test can also hand a page
 * data the api would refuse.
 */
export function resolvedLink(
  type: LinkType,
  data: Record<string, unknown>,
  files: ResolvedLinkFile[] = [],
  accountId = '1d6e1f2a-3b4c-4d5e-8f90-a1b2c3d4e5f6',
): ResolvedLink {
  const link: StoredLink = {
    id: '0d6e1f2a-3b4c-4d5e-8f90-a1b2c3d4e5f6',
    accountId,
    slug: 'abc1234',
    host: null,
    name: 'Internal name',
    type,
    data,
    pageStyle: null,
    menu: null,
    menuVersion: null,
    paused: false,
    scheduleActive: false,
    startDate: null,
    endDate: null,
    scheduleTimezone: null,
    scanLimitActive: false,
    scanLimit: null,
    passwordHash: null,
    files,
    updatedAt: 0,
    unmarkedCodes: false,
    placements: {},
    utm: null,
    queryPolicy: 'drop',
    brokenDestination: false,
  };
  return link as ResolvedLink;
}
