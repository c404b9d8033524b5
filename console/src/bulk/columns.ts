/**
 * The columns a bulk CSV takes for each link type, as the API's record schemas require them
 * (domain/bulk/schemas.ts; the OpenAPI document types `data` only as a list, so the generated
 * client cannot say). test/unit/console/console-bulk.unit.test.ts holds this list to those schemas, so it
 * cannot drift from what the API checks. Also the sample file offered for each type.
 */
import type { paths } from '../api/schema.js';

export type BulkType = paths['/api/v1/bulk-generate']['post']['requestBody']['content']['multipart/form-data']['type'];

export interface Column {
  name: string;
  required: boolean;
  /** What the cell holds, when the name does not say it. */
  hint?: string;
}

const required = (name: string, hint?: string): Column => ({ name, required: true, ...(hint && { hint }) });
const optional = (name: string, hint?: string): Column => ({ name, required: false, ...(hint && { hint }) });

const NAME = required('name', 'the link’s name in the console');

export const BULK_COLUMNS: Readonly<Record<BulkType, readonly Column[]>> = {
  website: [NAME, required('url', 'a full web address, https://…')],
  product: [
    NAME,
    required('productName'),
    optional('productDescription'),
    optional('currency', 'ISO code such as EUR; USD when blank'),
    optional('subTotal', 'a number'),
    optional('tax', 'a number'),
    optional('totalNet', 'a number'),
  ],
  sms: [NAME, required('phone', 'the number the text goes to'), optional('message', 'the text it starts with')],
  vcard: [
    NAME,
    required('firstName'),
    required('lastName'),
    required('contact', 'mobile number'),
    required('email'),
    ...['phone', 'fax', 'company', 'jobTitle', 'department', 'street', 'city', 'zip', 'state', 'country'].map((name) => optional(name)),
    optional('website', 'a web address'),
  ],
};

export const BULK_TYPE_LABELS: Readonly<Record<BulkType, string>> = {
  website: 'Website',
  product: 'Product',
  sms: 'SMS',
  vcard: 'vCard (contact card)',
};

/** Two example rows per type, in the columns' order; blank where a column is left out. */
const SAMPLE_ROWS: Readonly<Record<BulkType, ReadonlyArray<Record<string, string>>>> = {
  website: [
    { name: 'Table 1', url: 'https://example.com/menu?table=1' },
    { name: 'Table 2', url: 'https://example.com/menu?table=2' },
  ],
  product: [
    {
      name: 'Shelf A',
      productName: 'Green tea',
      productDescription: 'Sencha, 100 g',
      currency: 'EUR',
      subTotal: '3.50',
      tax: '0.50',
      totalNet: '4',
    },
    { name: 'Shelf B', productName: 'Black tea' },
  ],
  sms: [
    { name: 'Booking line', phone: '+1 555 0100', message: 'I would like to book a table' },
    { name: 'Feedback', phone: '+1 555 0101' },
  ],
  vcard: [
    {
      name: 'Ada card',
      firstName: 'Ada',
      lastName: 'Lovelace',
      contact: '+44 20 7946 0000',
      email: 'ada@example.com',
      company: 'Analytical Engines',
    },
    { name: 'Charles card', firstName: 'Charles', lastName: 'Babbage', contact: '+44 20 7946 0001', email: 'charles@example.com' },
  ],
};

/** One CSV cell: quoted when it holds a comma, a quote or a line break (RFC 4180). */
function csvCell(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Lines of cells as CSV text, CRLF line ends as spreadsheets write them. */
export function csvText(lines: ReadonlyArray<readonly string[]>): string {
  return `${lines.map((cells) => cells.map(csvCell).join(',')).join('\r\n')}\r\n`;
}

/** The sample file for `type`: every column as its header, then the example rows. */
export function sampleCsv(type: BulkType): string {
  const names = BULK_COLUMNS[type].map((c) => c.name);
  return csvText([names, ...SAMPLE_ROWS[type].map((row) => names.map((n) => row[n] ?? ''))]);
}
