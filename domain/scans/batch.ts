/**
 * The compact form of a batch of scans on the `scans` queue (see ScanBatchPayload): built scan
 * by scan on the redirect's hot path, read column-wise by the worker (ingest.ts).
 */
import type { RecordedScan, ScanBatchPayload, ScanEvent, ScanOrigin, ScanOriginTuple, ScanVisitor, ScanVisitorTuple } from './types.js';

/** Entries per scan in a batch's flat `scans` array: id, at, link index, visitor index. */
export const FIELDS_PER_SCAN = 4;

/**
 * A visitor key as a batch may carry it: base64url of at most 64 characters (ours are 22). Any
 * other value is read as no key; a scan is never refused over its key.
 */
const VISITOR_KEY = /^[A-Za-z0-9_-]{1,64}$/;

/** The visitor key of the batch's `n`th scan, or null (none, or not a key: a malformed job's scans still count). */
export function visitorKeyOf(payload: ScanBatchPayload, n: number): string | null {
  const key: unknown = Array.isArray(payload?.visitorKeys) ? payload.visitorKeys[n] : null;
  return typeof key === 'string' && VISITOR_KEY.test(key) ? key : null;
}

/** The visitor fields in the order a batch carries them. */
function visitorTuple(v: Readonly<ScanVisitor>): ScanVisitorTuple {
  return [v.browserName, v.deviceType, v.deviceVendor, v.osName, v.countryName, v.region, v.city, v.isBot];
}

/** The origin of a scan that has none recorded: unknown source, no placement, referrer or campaign. */
export const UNKNOWN_ORIGIN: Readonly<ScanOrigin> = Object.freeze({
  source: null,
  placementId: null,
  referrerHost: null,
  utmCampaign: null,
});

const originTuple = (o: Readonly<ScanOrigin>): ScanOriginTuple => [o.source, o.placementId, o.referrerHost, o.utmCampaign];

export class ScanBatchBuilder {
  private readonly payload: Required<ScanBatchPayload> = { links: [], visitors: [], scans: [], visitorKeys: [], origins: [], originOf: [] };
  private readonly linkIndex = new Map<string, number>();
  /** By identity: the redirect's visitors are interned (describeVisitor), so equal ones are the same object. */
  private readonly visitorIndex = new Map<Readonly<ScanVisitor>, number>();
  /**
   * By value: most scans share a handful of origins (a code, a code's placements, a referrer),
   * and a scan's origin is made per request, so identity would find none alike.
   */
  private readonly originIndex = new Map<string, number>();

  get size(): number {
    return this.payload.scans.length / FIELDS_PER_SCAN;
  }

  add(scan: RecordedScan): void {
    let link = this.linkIndex.get(scan.linkId);
    if (link === undefined) {
      link = this.payload.links.push([scan.linkId, scan.accountId]) - 1;
      this.linkIndex.set(scan.linkId, link);
    }
    const v = scan.visitor;
    let visitor = this.visitorIndex.get(v);
    if (visitor === undefined) {
      visitor = this.payload.visitors.push(visitorTuple(v)) - 1;
      this.visitorIndex.set(v, visitor);
    }
    this.payload.scans.push(scan.id, scan.at, link, visitor);
    this.payload.visitorKeys.push(scan.visitorKey);
    // Never absent from the redirect; a hand-made or older scan may lack it (unknown).
    const o = scan.origin ?? UNKNOWN_ORIGIN;
    const key = `${o.source} ${o.placementId} ${o.referrerHost} ${o.utmCampaign}`;
    let origin = this.originIndex.get(key);
    if (origin === undefined) {
      origin = this.payload.origins.push(originTuple(o)) - 1;
      this.originIndex.set(key, origin);
    }
    this.payload.originOf.push(origin);
  }

  toPayload(): ScanBatchPayload {
    return this.payload;
  }
}

/** A batch of flat scans (tests, benchmarks): equal visitors are found by value and sent once. */
export function encodeScanBatch(scans: Iterable<ScanEvent>): ScanBatchPayload {
  const builder = new ScanBatchBuilder();
  const visitors = new Map<string, ScanVisitor>();
  for (const { id, linkId, accountId, at, visitorKey = null, origin = UNKNOWN_ORIGIN, ...fields } of scans) {
    const key = JSON.stringify(visitorTuple(fields));
    let visitor = visitors.get(key);
    if (!visitor) visitors.set(key, (visitor = fields));
    builder.add({ id, linkId, accountId, at, visitor, visitorKey, origin });
  }
  return builder.toPayload();
}

/** Whole scans in a batch; a payload that is not a batch (a hand-made or damaged job) has none. */
export function scanBatchSize(payload: ScanBatchPayload): number {
  return Array.isArray(payload?.scans) ? Math.floor(payload.scans.length / FIELDS_PER_SCAN) : 0;
}

/**
 * The batch's scans spelled out, for reading queued batches in tests and tools (the worker reads
 * a batch column-wise instead: ingest.ts). Entries that do not fit the shape become scans with no
 * usable id or link; a payload that is not a batch gives none.
 */
export function decodeScanBatch(payload: ScanBatchPayload): ScanEvent[] {
  const scans: ScanEvent[] = [];
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
      visitorKey: visitorKeyOf(payload, i / FIELDS_PER_SCAN),
      origin: originOf(payload, i / FIELDS_PER_SCAN),
    });
  }
  return scans;
}

/** The origin of the batch's `n`th scan as its batch carries it; unknown when it carries none. */
function originOf(payload: ScanBatchPayload, n: number): ScanOrigin {
  const o = payload.origins?.[payload.originOf?.[n] ?? -1];
  return o ? { source: o[0], placementId: o[1], referrerHost: o[2], utmCampaign: o[3] } : UNKNOWN_ORIGIN;
}
