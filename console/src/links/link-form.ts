/**
 * The link form's mapping between what a person types and the API's link body, one entry per
 * type. A form is a list of fields, each keyed by its path inside `data` (`url`,
 * `design.textColor`, `pdfs.2.label`), so the same key names the input, the value sent and the
 * API's 400 (`data.<key>`). The server's rules (domain/links/data/schemas.ts) decide what is valid;
 * this module only says how each member is typed and sent:
 *
 * - An empty input leaves its member out (never `""`): an empty optional field means "not set",
 *   and an empty required one comes back as "Required" at that field.
 * - Numbers are sent as numbers; text that is not one is sent as typed, so the API names the field.
 * - Editing starts from the link's stored `data`: members no field shows (smart-url `rules`,
 *   multi-links `logo`, anything unknown) go back exactly as they were, and so do list entries'.
 */
import type { paths } from '../api/schema.js';
import type { LinkType } from '#domain/links/data/types.js';
import type { LinkConfigurations } from './settings.js';
import { browserTimeZone } from './zones.js';

type Json = Record<string, unknown>;
export type LinkBody = paths['/api/v1/links']['post']['requestBody']['content']['application/json'];
export type StoredLink = paths['/api/v1/links/{id}']['get']['responses'][200]['content']['application/json']['data'];

export type LeafKind =
  | 'text'
  | 'longtext'
  | 'html'
  | 'email'
  | 'url'
  | 'tel'
  | 'number'
  | 'datetime'
  | 'timezone'
  | 'select'
  | 'checkbox'
  | 'color'
  | 'image'
  | 'pdf';

export interface LeafSpec {
  kind: LeafKind;
  /** The member's path in `data` (or in a list entry), dot-separated. */
  key: string;
  label: string;
  required?: boolean;
  hint?: string;
  /** A select's choices (value, words); '' as a value means "none" and leaves the member out. */
  options?: ReadonlyArray<readonly [string, string]>;
  /** What a new form starts with. */
  initial?: string | boolean;
  maxLength?: number;
  step?: string;
}

export interface ListSpec {
  kind: 'list';
  key: string;
  label: string;
  /** What one entry is called ("Image 2", "PDF 1"). */
  itemLabel: string;
  min: number;
  max: number;
  /** An entry's fields, keyed inside the entry. */
  fields: readonly LeafSpec[];
  /** Whether the list may be left out when it is empty. */
  optional?: boolean;
}

export type FieldSpec = LeafSpec | ListSpec;

export interface TypeForm {
  label: string;
  /** One plain line on the type chooser. */
  description: string;
  fields: readonly FieldSpec[];
}

export type LeafValue = string | boolean;

export interface DraftItem {
  /** Stable across reorders, for the list's keys and focus. */
  id: number;
  values: Record<string, LeafValue>;
  /** The stored entry this one came from: its members no field shows are sent back. */
  original: Json;
}

/** The form's state: each leaf field's value by key, each list's entries, and the data it started from. */
export interface Draft {
  values: Record<string, LeafValue>;
  lists: Record<string, DraftItem[]>;
  original: Json;
}

const SHORT = 255;
const LONG = 5000;
const text = (key: string, label: string, extra: Partial<LeafSpec> = {}): LeafSpec => ({
  kind: 'text',
  key,
  label,
  maxLength: SHORT,
  ...extra,
});
const fileList = (
  kind: 'image' | 'pdf',
  key: string,
  label: string,
  itemLabel: string,
  min: number,
  max: number,
  optional = false,
): ListSpec => ({
  kind: 'list',
  key,
  label,
  itemLabel,
  min,
  max,
  optional,
  fields: [{ kind, key: 'fileId', label: itemLabel, required: true }],
});

const VCARD_OPTIONAL: ReadonlyArray<[string, string]> = [
  ['phone', 'Phone'],
  ['contact', 'Mobile or other contact'],
  ['fax', 'Fax'],
  ['website', 'Website'],
  ['company', 'Company'],
  ['department', 'Department'],
  ['street', 'Street'],
  ['city', 'City'],
  ['zip', 'Postal code'],
  ['state', 'State or region'],
  ['country', 'Country'],
];

export const TYPE_FORMS: Readonly<Record<LinkType, TypeForm>> = {
  website: {
    label: 'Website',
    description: 'Opens a web page.',
    fields: [{ kind: 'url', key: 'url', label: 'Web address', required: true, hint: 'Starts with https:// or http://' }],
  },
  email: {
    label: 'Email',
    description: 'Starts an email to you, subject and text filled in.',
    fields: [
      { kind: 'email', key: 'email', label: 'Email address', required: true },
      text('subject', 'Subject'),
      { kind: 'longtext', key: 'body', label: 'Message', maxLength: LONG },
    ],
  },
  sms: {
    label: 'SMS',
    description: 'Starts a text message to a phone number.',
    fields: [
      {
        kind: 'tel',
        key: 'phone',
        label: 'Phone number',
        required: true,
        hint: 'Digits, spaces and + - ( ) . only, e.g. +351 912 345 678',
      },
      { kind: 'longtext', key: 'message', label: 'Message', maxLength: LONG },
    ],
  },
  vcard: {
    label: 'Contact card',
    description: 'Saves your contact details to the phone.',
    fields: [
      text('firstName', 'First name', { required: true }),
      text('lastName', 'Last name', { required: true }),
      { kind: 'email', key: 'email', label: 'Email address', required: true },
      text('jobTitle', 'Job title'),
      ...VCARD_OPTIONAL.map(([key, label]) => text(key, label)),
      { kind: 'image', key: 'photo.fileId', label: 'Photo' },
      {
        kind: 'list',
        key: 'socialLinks',
        label: 'Social profiles',
        itemLabel: 'Profile',
        min: 0,
        max: 10,
        optional: true,
        fields: [{ kind: 'url', key: 'url', label: 'Profile address', required: true, hint: 'e.g. https://www.linkedin.com/in/your-name' }],
      },
    ],
  },
  wifi: {
    label: 'Wi-Fi',
    description: 'Joins a Wi-Fi network without typing the password.',
    fields: [
      text('ssid', 'Network name (SSID)', { required: true }),
      {
        kind: 'select',
        key: 'encryption',
        label: 'Security',
        required: true,
        initial: 'WPA',
        options: [
          ['WPA', 'WPA or WPA2'],
          ['WEP', 'WEP'],
          ['nopass', 'None (open network)'],
        ],
      },
      text('password', 'Password'),
      { kind: 'checkbox', key: 'hidden', label: 'The network is hidden' },
    ],
  },
  location: {
    label: 'Location',
    description: 'Shows a place on a map.',
    fields: [
      { kind: 'number', key: 'latitude', label: 'Latitude', required: true, step: 'any', hint: 'From -90 to 90, e.g. 38.7223' },
      { kind: 'number', key: 'longitude', label: 'Longitude', required: true, step: 'any', hint: 'From -180 to 180, e.g. -9.1393' },
      text('name', 'Place name', { hint: "The page's heading and the map pin's title; the link's name when empty." }),
      { kind: 'longtext', key: 'address', label: 'Address', maxLength: 500 },
    ],
  },
  event: {
    label: 'Event',
    description: 'Adds an event to the calendar.',
    fields: [
      text('eventTitle', 'Title', { maxLength: 100 }),
      { kind: 'longtext', key: 'description', label: 'Description', required: true, maxLength: LONG },
      text('location', 'Where', { required: true }),
      { kind: 'datetime', key: 'startDateTime', label: 'Starts', required: true },
      { kind: 'datetime', key: 'endDateTime', label: 'Ends' },
      { kind: 'timezone', key: 'timezone', label: 'Time zone', required: true, hint: 'The start and end are times in this zone.' },
      text('organizerName', 'Organizer'),
      { kind: 'url', key: 'registrationUrl', label: 'Registration page' },
      { kind: 'image', key: 'image.fileId', label: 'Image' },
    ],
  },
  image: { label: 'Image', description: 'Shows one or more images.', fields: [fileList('image', 'files', 'Images', 'Image', 1, 100)] },
  pdf: { label: 'PDF', description: 'Opens a PDF document.', fields: [fileList('pdf', 'files', 'PDF files', 'PDF', 1, 100)] },
  gallery: {
    label: 'Gallery',
    description: 'A page of up to 20 images to swipe through.',
    fields: [fileList('image', 'files', 'Images', 'Image', 1, 20)],
  },
  landing: {
    label: 'Landing page',
    description: 'A page of your own, written in HTML.',
    fields: [
      {
        kind: 'html',
        key: 'landingHTML',
        label: 'Page HTML',
        required: true,
        hint: 'Scripts and unsafe markup are removed when the page is shown.',
      },
    ],
  },
  product: {
    label: 'Product',
    description: 'A product page with its price and pictures.',
    fields: [
      text('productName', 'Product name', { required: true }),
      { kind: 'longtext', key: 'productDescription', label: 'Description', required: true, maxLength: LONG },
      text('currency', 'Currency', { required: true, hint: 'A three-letter code, e.g. EUR or USD', maxLength: 3 }),
      { kind: 'number', key: 'subTotal', label: 'Subtotal', required: true, step: 'any' },
      { kind: 'number', key: 'tax', label: 'Tax', required: true, step: 'any' },
      { kind: 'number', key: 'totalNet', label: 'Total', required: true, step: 'any' },
      {
        kind: 'select',
        key: 'discount.type',
        label: 'Discount',
        options: [
          ['', 'No discount'],
          ['amount', 'An amount off'],
          ['percent', 'A percentage off'],
        ],
      },
      { kind: 'number', key: 'discount.value', label: 'Discount value', step: 'any' },
      fileList('image', 'images.files', 'Product images', 'Product image', 0, 100, true),
      { kind: 'url', key: 'buyUrl', label: 'Shop page', hint: 'Where the Buy button leads.' },
    ],
  },
  'multi-links': {
    label: 'Multi-links',
    description: 'One page listing several links, like a profile.',
    fields: [
      text('title', 'Title', { required: true }),
      { kind: 'longtext', key: 'description', label: 'Description', maxLength: LONG },
      { kind: 'color', key: 'design.backgroundColor', label: 'Page background', required: true, initial: '#ffffff' },
      { kind: 'color', key: 'design.linkBackgroundColor', label: 'Button colour', required: true, initial: '#1f4fd1' },
      { kind: 'color', key: 'design.textColor', label: 'Button text colour', required: true, initial: '#ffffff' },
      { kind: 'checkbox', key: 'isRound', label: 'Round buttons' },
      {
        kind: 'list',
        key: 'links',
        label: 'Links',
        itemLabel: 'Link',
        min: 0,
        max: 50,
        optional: true,
        fields: [
          {
            kind: 'select',
            key: 'type',
            label: 'Kind',
            required: true,
            initial: 'custom',
            options: [
              ['custom', 'A link with a title'],
              ['social', 'A social profile with an icon'],
            ],
          },
          { kind: 'url', key: 'value', label: 'Web address', required: true },
          text('title', 'Title', { hint: 'Needed for a link with a title.' }),
          text('icon', 'Icon', { hint: 'Needed for a social profile: a name such as instagram, or an image URL.', maxLength: 2048 }),
        ],
      },
    ],
  },
  'multi-pdf': {
    label: 'Multi-PDF',
    description: 'One page listing up to 10 PDF documents.',
    fields: [
      text('pageTitle', 'Page title', { required: true, maxLength: 100 }),
      {
        kind: 'list',
        key: 'pdfs',
        label: 'PDF documents',
        itemLabel: 'PDF',
        min: 1,
        max: 10,
        fields: [text('label', 'Label', { required: true }), { kind: 'pdf', key: 'fileId', label: 'File', required: true }],
      },
    ],
  },
  'smart-url': {
    label: 'Smart URL',
    description: 'Sends each scan to a different page by country, device or time.',
    fields: [
      { kind: 'url', key: 'defaultUrl', label: 'Default web address', required: true, hint: 'Where a scan goes when no rule matches.' },
    ],
  },
  menu: { label: 'Menu', description: 'A cafe or restaurant menu page.', fields: [text('name', 'Menu name')] },
};

const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function readPath(data: Json, key: string): unknown {
  let at: unknown = data;
  for (const part of key.split('.')) at = isRecord(at) ? at[part] : undefined;
  return at;
}

function writePath(data: Json, key: string, value: unknown): void {
  const parts = key.split('.');
  let at = data;
  for (const part of parts.slice(0, -1)) {
    if (!isRecord(at[part])) at[part] = {};
    at = at[part] as Json;
  }
  at[parts.at(-1)!] = value;
}

/** Removes the member, and any object on its path that it leaves empty. */
function removePath(data: Json, key: string): void {
  const parts = key.split('.');
  const parent = parts.length > 1 ? readPath(data, parts.slice(0, -1).join('.')) : data;
  if (!isRecord(parent)) return;
  delete parent[parts.at(-1)!];
  if (parts.length > 1 && Object.keys(parent).length === 0) removePath(data, parts.slice(0, -1).join('.'));
}

function leafValueOf(spec: LeafSpec, stored: unknown, timeZone: string): LeafValue {
  if (spec.kind === 'checkbox') return stored === true;
  if (typeof stored === 'string' || typeof stored === 'number') return String(stored);
  if (spec.kind === 'timezone') return timeZone;
  return typeof spec.initial === 'string' ? spec.initial : '';
}

let nextItemId = 1;

function itemOf(list: ListSpec, stored: unknown, timeZone: string): DraftItem {
  const original = isRecord(stored) ? stored : {};
  const values: Record<string, LeafValue> = {};
  for (const field of list.fields) values[field.key] = leafValueOf(field, readPath(original, field.key), timeZone);
  return { id: nextItemId++, values, original };
}

/** A new entry for a list (a file entry starts empty, to be uploaded into). */
export const newItem = (list: ListSpec, timeZone = browserTimeZone()) => itemOf(list, undefined, timeZone);

/**
 * The form for a type, filled from a link's stored data (edit) or with each field's start value
 * (new; a list starts with as many empty entries as it needs at least).
 */
export function draftOf(type: LinkType, data: Json | null = null, timeZone = browserTimeZone()): Draft {
  const draft: Draft = { values: {}, lists: {}, original: data ? structuredClone(data) : {} };
  for (const field of TYPE_FORMS[type].fields) {
    if (field.kind === 'list') {
      const stored = data ? readPath(data, field.key) : undefined;
      draft.lists[field.key] = Array.isArray(stored)
        ? stored.map((entry) => itemOf(field, entry, timeZone))
        : Array.from({ length: data ? 0 : field.min }, () => newItem(field, timeZone));
    } else {
      draft.values[field.key] = leafValueOf(field, data ? readPath(data, field.key) : undefined, timeZone);
    }
  }
  return draft;
}

/**
 * What a leaf sends: undefined leaves it out. A member the link already had goes back as it was
 * when left as it was (an unticked `false`, an empty `""` stored earlier).
 */
function sentValue(spec: LeafSpec, value: LeafValue | undefined, stored: unknown): unknown {
  if (spec.kind === 'checkbox') return value === true || stored !== undefined ? value === true : undefined;
  if (value === '' && stored === '') return '';
  if (typeof value !== 'string' || value === '') return undefined;
  if (spec.kind === 'number') {
    const n = Number(value.trim());
    return value.trim() !== '' && Number.isFinite(n) ? n : value;
  }
  return value;
}

function applyLeaves(target: Json, fields: readonly LeafSpec[], values: Record<string, LeafValue>, original: Json): void {
  for (const field of fields) {
    const value = sentValue(field, values[field.key], readPath(original, field.key));
    if (value === undefined) removePath(target, field.key);
    else writePath(target, field.key, value);
  }
}

/** The `data` member of the link body the form describes. */
export function dataOf(type: LinkType, draft: Draft): Json {
  const data = structuredClone(draft.original);
  const fields = TYPE_FORMS[type].fields;
  applyLeaves(
    data,
    fields.filter((f): f is LeafSpec => f.kind !== 'list'),
    draft.values,
    draft.original,
  );
  for (const list of fields.filter((f): f is ListSpec => f.kind === 'list')) {
    const items = (draft.lists[list.key] ?? []).map((item) => {
      const entry = structuredClone(item.original);
      applyLeaves(entry, list.fields, item.values, item.original);
      return entry;
    });
    if (items.length === 0 && list.optional && readPath(draft.original, list.key) === undefined) removePath(data, list.key);
    else writePath(data, list.key, items);
  }
  return data;
}

/** Every field path the form shows (`data.url`, `data.pdfs.1.label`, `data.files`), for placing the API's errors. */
export function formPaths(type: LinkType, draft: Draft): Set<string> {
  const paths = new Set(['name']);
  for (const field of TYPE_FORMS[type].fields) {
    paths.add(`data.${field.key}`);
    if (field.kind !== 'list') continue;
    (draft.lists[field.key] ?? []).forEach((_, i) => field.fields.forEach((f) => paths.add(`data.${field.key}.${i}.${f.key}`)));
  }
  return paths;
}

/** The list with entry `index` moved by `by` places (-1 up, +1 down); unchanged at an end. */
export function moved<T>(list: readonly T[], index: number, by: -1 | 1): T[] {
  const to = index + by;
  if (to < 0 || to >= list.length) return [...list];
  const next = [...list];
  [next[index], next[to]] = [next[to]!, next[index]!];
  return next;
}

/**
 * The body of POST /links or PUT /links/:id from the form. `linkConfigurations` comes from the
 * settings (links/settings.ts: on edit, what keeps the link as the owner sees it), left out when
 * undefined.
 */
export function linkBodyOf(type: LinkType, name: string, draft: Draft, linkConfigurations?: LinkConfigurations): LinkBody {
  const body: LinkBody = { name, type, data: dataOf(type, draft) };
  if (linkConfigurations) body.linkConfigurations = linkConfigurations;
  return body;
}
