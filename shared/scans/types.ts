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

export interface ScanEvent {
  /** UUID made by the redirect process; the primary key of the scans row. */
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
}

/** One job of the `scans` queue: a batch of scans flushed together by one redirect process. */
export interface ScanBatchPayload {
  scans: ScanEvent[];
}
