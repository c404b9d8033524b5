/**
 * The compact form of a batch of scans on the `scans` queue (see ScanBatchPayload): built scan
 * by scan on the redirect's hot path, expanded back into ScanEvents by the worker.
 */
import type { ScanBatchPayload, ScanEvent, ScanVisitorTuple } from './types.js';

const FIELDS_PER_SCAN = 4;

export class ScanBatchBuilder {
  private readonly payload: ScanBatchPayload = { links: [], visitors: [], scans: [] };
  private readonly linkIndex = new Map<string, number>();
  private readonly visitorIndex = new Map<string, number>();

  get size(): number {
    return this.payload.scans.length / FIELDS_PER_SCAN;
  }

  add(scan: ScanEvent): void {
    let link = this.linkIndex.get(scan.linkId);
    if (link === undefined) {
      link = this.payload.links.push([scan.linkId, scan.accountId]) - 1;
      this.linkIndex.set(scan.linkId, link);
    }
    // A separator no user agent field or place name contains, so different tuples never share a key.
    const key = `${scan.browserName}\u0000${scan.deviceType}\u0000${scan.deviceVendor}\u0000${scan.osName}\u0000${scan.countryName}\u0000${scan.region}\u0000${scan.city}\u0000${scan.isBot}`;
    let visitor = this.visitorIndex.get(key);
    if (visitor === undefined) {
      const tuple: ScanVisitorTuple = [scan.browserName, scan.deviceType, scan.deviceVendor, scan.osName, scan.countryName, scan.region, scan.city, scan.isBot];
      visitor = this.payload.visitors.push(tuple) - 1;
      this.visitorIndex.set(key, visitor);
    }
    this.payload.scans.push(scan.id, scan.at, link, visitor);
  }

  toPayload(): ScanBatchPayload {
    return this.payload;
  }
}

export function encodeScanBatch(scans: Iterable<ScanEvent>): ScanBatchPayload {
  const builder = new ScanBatchBuilder();
  for (const scan of scans) builder.add(scan);
  return builder.toPayload();
}

export function scanBatchSize(payload: ScanBatchPayload): number {
  return payload.scans.length / FIELDS_PER_SCAN;
}

/**
 * The batch's scans. Entries that do not fit the shape (a hand-made or damaged job) become scans
 * with no usable id or link, which ingestion refuses one by one instead of failing the batch; a
 * payload that is not a batch gives none.
 */
export function decodeScanBatch(payload: ScanBatchPayload): ScanEvent[] {
  const scans: ScanEvent[] = [];
  // A job that is not a batch at all must complete empty (and be logged by ingestion's caller),
  // not fail on every one of its retries for a week.
  const links = Array.isArray(payload?.links) ? payload.links : [];
  const visitors = Array.isArray(payload?.visitors) ? payload.visitors : [];
  const flat = Array.isArray(payload?.scans) ? payload.scans : [];
  for (let i = 0; i + FIELDS_PER_SCAN <= flat.length; i += FIELDS_PER_SCAN) {
    const [linkId, accountId] = links[flat[i + 2] as number] ?? ['', ''];
    const v = visitors[flat[i + 3] as number] ?? ([null, null, null, null, null, null, null, false] satisfies ScanVisitorTuple);
    scans.push({
      id: String(flat[i]),
      linkId,
      accountId,
      at: flat[i + 1] as number,
      browserName: v[0],
      deviceType: v[1],
      deviceVendor: v[2],
      osName: v[3],
      countryName: v[4],
      region: v[5],
      city: v[6],
      isBot: v[7],
    });
  }
  return scans;
}
