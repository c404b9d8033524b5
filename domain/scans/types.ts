/**
 * What one resolved request to a short link becomes. The redirect process builds it (never with
 * the raw IP: the client address is turned into country/region/city and dropped) and hands it to
 * the scan recorder; the `scans` worker batch-inserts it with `id` as the idempotency key.
 */

/** Who scanned, as far as the user agent and the offline geo database tell. */
export interface Visitor {
  browserName: string | null;
  /**
   * ua-parser-js device type: mobile, tablet, smarttv, wearable, console, embedded; 'desktop' when
   * none is reported for a recognised browser or OS; null for bots and unrecognised agents.
   */
  deviceType: string | null;
  deviceVendor: string | null;
  osName: string | null;
  /** isbot, or a request that only previews (HEAD). Bots are recorded but never count toward a scan limit. */
  isBot: boolean;
  /** ISO 3166-1 alpha-2, upper case; used by smart-url location rules. */
  countryCode: string | null;
  countryName: string | null;
  region: string | null;
  city: string | null;
}

/** The visitor fields a scan row keeps (the country code only serves smart-url rules). */
export type ScanVisitor = Pick<
  Visitor,
  'browserName' | 'deviceType' | 'deviceVendor' | 'osName' | 'countryName' | 'region' | 'city' | 'isBot'
>;

/**
 * A scan as the redirect process records it. The visitor is by reference: describeVisitor interns
 * them, so a batch refers to each distinct visitor once, found by identity.
 */
export interface RecordedScan {
  /** UUIDv7 (newScanId); the primary key of the scans row. */
  id: string;
  linkId: string;
  accountId: string;
  /** Epoch ms of the request. */
  at: number;
  visitor: Readonly<ScanVisitor>;
  /**
   * The unique-visitor key (domain/scans/visitor-key.ts): a hash of the address and user agent
   * under the UTC day's salt, 22 characters; null for a scan that has none.
   */
  visitorKey: string | null;
  /** Where it came from (domain/links/attribution.ts): interned like the visitor, so a batch carries each once. */
  origin: Readonly<ScanOrigin>;
}

/** Where a scan came from: its source and placement (the QR marker), the referrer's host and the campaign. */
export interface ScanOrigin {
  /** 'qr', 'link', or null: unknown. */
  source: string | null;
  placementId: string | null;
  referrerHost: string | null;
  utmCampaign: string | null;
}

/** The origin fields of a scan, in the order a batch carries them. */
export type ScanOriginTuple = [source: string | null, placementId: string | null, referrerHost: string | null, utmCampaign: string | null];

/** A scan as the worker ingests it: a batch's entry with its link and visitor spelled out. */
export interface ScanEvent {
  /** UUIDv7 made by the redirect process; the primary key of the scans row. */
  id: string;
  linkId: string;
  accountId: string;
  /** Epoch ms of the request. */
  at: number;
  browserName: string | null;
  deviceType: string | null;
  deviceVendor: string | null;
  osName: string | null;
  countryName: string | null;
  region: string | null;
  city: string | null;
  isBot: boolean;
  /** The unique-visitor key; null (or left out) when the scan has none. */
  visitorKey?: string | null;
  /** Where it came from; left out: unknown, of no placement, referrer or campaign. */
  origin?: ScanOrigin;
}

/** The visitor fields of a scan, in the order a batch carries them. */
export type ScanVisitorTuple = [
  browserName: string | null,
  deviceType: string | null,
  deviceVendor: string | null,
  osName: string | null,
  countryName: string | null,
  region: string | null,
  city: string | null,
  isBot: boolean,
];

/**
 * One job of the `scans` queue: a batch of scans flushed together by one redirect process, in a
 * compact form (domain/scans/batch.ts). Within a batch the same links and the same visitors come
 * back again and again, so each is sent once and scans refer to them by index: a scan costs ~60
 * bytes instead of ~330, which the redirect, Redis and the worker all feel at tens of thousands
 * of scans a second.
 */
export interface ScanBatchPayload {
  /** [linkId, accountId] */
  links: Array<[string, string]>;
  visitors: ScanVisitorTuple[];
  /** Flattened, four entries per scan: id, at (epoch ms), index in `links`, index in `visitors`. */
  scans: Array<string | number>;
  /** The visitor key of each scan, in the order of `scans` (null for none). */
  visitorKeys: Array<string | null>;
  /** The batch's distinct origins. Absent in batches of redirects older than attribution: their scans are of unknown origin. */
  origins?: ScanOriginTuple[];
  /** Each scan's index in `origins`, in the order of `scans`. */
  originOf?: number[];
}
