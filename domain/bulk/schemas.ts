/**
 * What a bulk batch is made of: one link type for the whole batch and 1 to BULK_MAX_RECORDS
 * records. A record is not the single link's `data`: it carries the link's `name` beside the
 * type's fields, and its own required/optional rules (a product needs only name and productName,
 * currency defaults to USD; a vCard also needs contact). Each field that a record shares with the
 * type's `data` is checked by that type's own field schema (domain/links/data), so a value valid in
 * one is valid in the other, and `recordToLink` turns a record into the `data` POST /links would
 * store for the same fields, so scanning a bulk link shows the same page.
 *
 * The record schemas are the domain's validation, not a wire format: the CSV reader (csv.ts) takes
 * its columns from them. The HTTP body and query that carry a batch are the api's
 * (api/routes/bulk-generate/schemas.ts).
 */
import { z } from 'zod';
import { productDataSchema, smsDataSchema, vcardDataSchema, websiteDataSchema } from '../links/data/index.js';
import { linkNameSchema } from '../links/schemas.js';
import type { QrOptions } from '../qr/options.js';
import type { QueryPolicy, Utm } from '../links/utm-fields.js';

export const BULK_TYPES = ['website', 'product', 'sms', 'vcard'] as const;
export type BulkType = (typeof BULK_TYPES)[number];
export const BULK_MAX_RECORDS = 1200;

const recordName = z.string({ error: (issue) => (issue.input === undefined ? 'Required' : 'Must be a string') }).pipe(linkNameSchema);

const product = productDataSchema.shape;
const vcard = vcardDataSchema.shape;

/** One record per type: `name` plus the type's fields, as the bulk table requires them. */
export const bulkRecordSchemas = {
  website: websiteDataSchema.extend({ name: recordName }),
  product: productDataSchema
    .pick({ productName: true, productDescription: true, currency: true, subTotal: true, tax: true, totalNet: true })
    .extend({
      name: recordName,
      productDescription: product.productDescription.optional(),
      currency: product.currency.optional().default('USD'),
      subTotal: product.subTotal.optional(),
      tax: product.tax.optional(),
      totalNet: product.totalNet.optional(),
    }),
  // The single link's optional message is kept: an SMS code usually pre-fills one.
  sms: smsDataSchema.extend({ name: recordName }),
  // contact (the mobile number) is required here, optional on a single vCard link. A photo (an
  // uploaded file to attach) and social links (a list) are not cells of a CSV row.
  vcard: vcardDataSchema.omit({ photo: true, socialLinks: true }).extend({ name: recordName, contact: vcard.firstName }),
} satisfies Record<BulkType, z.ZodType>;

/** A record as stored: the link's name, and its `data` (meta_data) without members left out. */
export interface BulkLinkRecord {
  name: string;
  data: Record<string, unknown>;
}

export function recordToLink(record: Record<string, unknown>): BulkLinkRecord {
  const { name, ...rest } = record;
  const data: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rest)) if (value !== undefined) data[key] = value;
  return { name: name as string, data };
}

/**
 * A bulk request as prepareBulkJob takes it: one type and its records, each already
 * checked by `bulkRecordSchemas[type]` and as it came out of it. The api's JSON body and CSV form
 * (api/routes/bulk-generate/schemas.ts) parse to one.
 */
/** A batch judged at a print size before its links are made (domain/qr/print). */
export interface BulkPrint {
  sizeMm: number;
  distanceMm?: number;
  autoFix: boolean;
}

export interface BulkRequest {
  type: BulkType;
  data: unknown[];
  folderId?: string | null | undefined;
  templateId?: string | null | undefined;
  qrOptions?: QrOptions | undefined;
  /** The domain of every link of the batch, as a link's `domain` (domain/links/link-domains.ts). */
  domain?: string | null | undefined;
  /** A placement name every link of the batch gets (domain/placements), its code in the ZIP's images. */
  placement?: string | null | undefined;
  /** Every link's UTM parameters and query policy, as a link's (domain/links/schemas.ts). */
  utm?: Utm | null | undefined;
  queryPolicy?: QueryPolicy | undefined;
  /** Judge the batch's design at a print size first (domain/qr/print), and fix it when asked. */
  print?: BulkPrint | undefined;
}
