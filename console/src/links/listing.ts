/**
 * What the links list shows of each link, asked for with GET /links?fields= so a page carries
 * neither stored designs' logos nor a landing page's HTML: the members a row's summary and
 * thumbnail read, nothing else.
 */
import type { Link } from './view.js';

/** The QR options a thumbnail draws with; the logo (`image`) is left out: too small to see at 40 px. */
const THUMBNAIL_OPTIONS = ['dotsOptions', 'cornersSquareOptions', 'cornersDotOptions', 'backgroundOptions', 'shape', 'qrOptions'];
/** The data members the summaries below read, across the types. */
const SUMMARY_MEMBERS = [
  'url',
  'email',
  'phone',
  'firstName',
  'lastName',
  'company',
  'ssid',
  'latitude',
  'longitude',
  'eventTitle',
  'files',
  'productName',
  'title',
  'pageTitle',
  'pdfs',
  'defaultUrl',
  'rules',
  'name',
];

export const LIST_FIELDS = [
  'full_dynamic_url',
  'name',
  'type',
  'status',
  'folder_id',
  'human_scan_count',
  'updated_at',
  ...SUMMARY_MEMBERS.map((m) => `meta_data.${m}`),
  ...THUMBNAIL_OPTIONS.map((m) => `qr_options.${m}`),
].join(',');

export type ListedLink = Pick<
  Link,
  | 'id'
  | 'dynamic_link_id'
  | 'full_dynamic_url'
  | 'name'
  | 'type'
  | 'status'
  | 'folder_id'
  | 'human_scan_count'
  | 'updated_at'
  | 'meta_data'
  | 'qr_options'
>;

/** Where a link leads, in a few words: a web address (with its site's origin, for the favicon) or a type and its gist. */
export type Destination = { web: true; text: string; origin: string } | { web: false; text: string };

const TYPE_NAMES: Record<string, string> = {
  website: 'Website',
  email: 'Email',
  sms: 'SMS',
  vcard: 'vCard',
  wifi: 'Wi-Fi',
  location: 'Location',
  event: 'Event',
  image: 'Image',
  pdf: 'PDF',
  gallery: 'Gallery',
  landing: 'Landing page',
  product: 'Product',
  'multi-links': 'Link list',
  'multi-pdf': 'PDFs',
  'smart-url': 'Smart URL',
  menu: 'Menu',
};

const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
const count = (v: unknown, one: string) => {
  const n = Array.isArray(v) ? v.length : 0;
  return n === 0 ? '' : `${n} ${one}${n === 1 ? '' : 's'}`;
};

/** A URL as host and path, without scheme, `www.` or a lone trailing slash; null when it is not an http(s) URL. */
export function webAddress(url: string): { text: string; origin: string } | null {
  if (!URL.canParse(url)) return null;
  const u = new URL(url);
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return null;
  const path = `${u.pathname}${u.search}`.replace(/^\/$/, '');
  return { text: `${u.host.replace(/^www\./, '')}${path}`, origin: u.origin };
}

export function destinationOf(link: Pick<ListedLink, 'type' | 'meta_data'>): Destination {
  const d = link.meta_data;
  const kind = TYPE_NAMES[link.type] ?? link.type;
  if (link.type === 'website') {
    const web = webAddress(str(d.url));
    if (web) return { web: true, ...web };
  }
  const gist = (() => {
    switch (link.type) {
      case 'website':
        return str(d.url);
      case 'email':
        return str(d.email);
      case 'sms':
        return str(d.phone);
      case 'vcard':
        return [str(d.firstName), str(d.lastName)].filter(Boolean).join(' ') || str(d.company);
      case 'wifi':
        return str(d.ssid);
      case 'location':
        return typeof d.latitude === 'number' && typeof d.longitude === 'number'
          ? `${d.latitude.toFixed(4)}, ${d.longitude.toFixed(4)}`
          : '';
      case 'event':
        return str(d.eventTitle);
      case 'image':
      case 'pdf':
        return count(d.files, 'file');
      case 'gallery':
        return count(d.files, 'photo');
      case 'product':
        return str(d.productName);
      case 'multi-links':
        return str(d.title);
      case 'multi-pdf':
        return str(d.pageTitle) || count(d.pdfs, 'PDF');
      case 'smart-url': {
        const web = webAddress(str(d.defaultUrl));
        return [web?.text ?? str(d.defaultUrl), count(d.rules, 'rule')].filter(Boolean).join(' · ');
      }
      case 'menu':
        return str(d.name);
      default:
        return '';
    }
  })();
  return { web: false, text: gist ? `${kind} · ${gist}` : kind };
}

/** What a short URL shows before its slug: its host and path, without the scheme (`qr.example.com/`). */
export function shortHost(url: string, slug: string): string {
  const bare = url.replace(/^https?:\/\//, '');
  return bare.endsWith(slug) ? bare.slice(0, bare.length - slug.length) : `${bare} `;
}
