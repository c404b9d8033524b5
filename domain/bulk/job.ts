/** The bulk-generate job's contract: what the api queues and what the worker answers. */
import type { QrOptions } from '../qr/options.js';
import type { LinkDomain } from '../links/link-domains.js';
import type { QueryPolicy, Utm } from '../links/utm-fields.js';
import type { BulkLinkRecord, BulkPrint, BulkType } from './schemas.js';
import type { Verdict } from '../qr/print/scannability.js';

/** What a bulk-generate job carries: the batch exactly as it will be stored. */
export interface BulkGeneratePayload {
  type: BulkType;
  records: BulkLinkRecord[];
  folderId: string | null;
  /** Styling of every link of the batch (the template's or the request's qrOptions), without data. */
  qrStyle: QrOptions;
  /** The brand domain of every link; null or absent (a payload from before brand domains): the default domain. */
  domain?: LinkDomain | null;
  /** A placement every link of the batch gets (its first, code BULK_PLACEMENT_CODE), whose code the ZIP's images carry; absent: none. */
  placement?: string | null;
  /** Every link's UTM parameters (null: none) and query policy; absent (a payload from before them): none, and drop. */
  utm?: Utm | null;
  queryPolicy?: QueryPolicy;
  /** Judge the batch's design at this print size before its links are made (and fix it when asked); absent: not judged. */
  print?: BulkPrint;
}

/** What the gate said of the batch's design, and what auto-fix changed (their words). */
export interface BulkPrintResult {
  verdict: Verdict;
  score: number;
  fixed: string[];
}

/** The code of a batch's placement: the first of each new link (domain/placements). */
export const BULK_PLACEMENT_CODE = '1';

export interface BulkLink {
  id: string;
  dynamicLinkId: string;
}

/** The job's result: the documented answer of POST /bulk-generate plus jobId; the ZIP's members once it is stored. */
export interface BulkGenerateResult {
  jobId: string;
  count: number;
  links: BulkLink[];
  qrZipUrl?: string;
  /** For GET /jobs/:jobId/download (domain/jobs/files.ts). */
  fileName?: string;
  zipBytes?: number;
  /** Present when the batch was judged at a print size. */
  print?: BulkPrintResult;
}
