/** The compact form of a batch of scans on the queue: what goes in comes out, smaller. */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeScanBatch, encodeScanBatch, scanBatchSize, UNKNOWN_ORIGIN } from '#domain/scans/batch.js';
import type { ScanBatchPayload, ScanEvent, ScanOrigin } from '#domain/scans/types.js';

const links = [randomUUID(), randomUUID(), randomUUID()];
/** A link belongs to one account. */
const accountOf = new Map(links.map((l) => [l, randomUUID()]));
/** Where scans came from: a code, a placement's code, a click from another site with a campaign, unknown. */
const origins: ScanOrigin[] = [
  { source: 'qr', placementId: null, referrerHost: null, utmCampaign: null },
  { source: 'qr', placementId: randomUUID(), referrerHost: null, utmCampaign: null },
  { source: 'link', placementId: null, referrerHost: 'chat.example', utmCampaign: 'spring' },
  UNKNOWN_ORIGIN,
];
const visitors: Array<Omit<ScanEvent, 'id' | 'linkId' | 'accountId' | 'at' | 'visitorKey' | 'origin'>> = [
  {
    browserName: 'Mobile Safari',
    deviceType: 'mobile',
    deviceVendor: 'Apple',
    osName: 'iOS',
    countryName: 'Germany',
    region: 'Berlin',
    city: 'Berlin',
    isBot: false,
  },
  {
    browserName: 'Mobile Safari',
    deviceType: 'mobile',
    deviceVendor: 'Apple',
    osName: 'iOS',
    countryName: 'Germany',
    region: 'Berlin',
    city: 'Berlin',
    isBot: true,
  },
  { browserName: null, deviceType: null, deviceVendor: null, osName: null, countryName: null, region: null, city: null, isBot: true },
  // Same values in a different field must not be taken for the same visitor.
  {
    browserName: 'Berlin',
    deviceType: 'mobile',
    deviceVendor: 'Apple',
    osName: 'iOS',
    countryName: 'Germany',
    region: 'Berlin',
    city: null,
    isBot: false,
  },
];

function scans(n: number): ScanEvent[] {
  return Array.from({ length: n }, (_, i) => ({
    id: randomUUID(),
    linkId: links[i % links.length]!,
    accountId: accountOf.get(links[i % links.length]!)!,
    at: 1_790_000_000_000 + i,
    ...visitors[(i * 7) % visitors.length]!,
    // Every third scan has no visitor key.
    visitorKey: i % 3 === 0 ? null : `key-${i % 40}`,
    origin: origins[(i * 5) % origins.length]!,
  }));
}

describe('scan batches', () => {
  it('decode(encode(scans)) gives back every scan, in order', () => {
    const input = scans(500);
    const payload = encodeScanBatch(input);
    expect(scanBatchSize(payload)).toBe(500);
    expect(decodeScanBatch(JSON.parse(JSON.stringify(payload)))).toEqual(input);
  });

  it('sends each link and visitor once, so a batch is several times smaller than its scans', () => {
    const input = scans(1000);
    const payload = encodeScanBatch(input);
    expect(payload.visitors).toHaveLength(visitors.length);
    expect(payload.origins).toHaveLength(origins.length);
    expect(new Set(payload.links.map(([l]) => l)).size).toBe(payload.links.length);
    expect(JSON.stringify(payload).length * 4).toBeLessThan(JSON.stringify(input).length);
  });

  it('carries four entries per scan and the visitor keys beside them, in scan order', () => {
    const input = scans(3);
    const payload = encodeScanBatch(input);
    expect(payload.scans.slice(0, 8)).toEqual([
      input[0]!.id,
      input[0]!.at,
      0,
      expect.any(Number),
      input[1]!.id,
      input[1]!.at,
      1,
      expect.any(Number),
    ]);
    expect(payload.visitorKeys).toEqual(input.map((s) => s.visitorKey));
    // A scan given without a key travels with null.
    const { visitorKey: _none, ...keyless } = input[1]!;
    expect(decodeScanBatch(encodeScanBatch([keyless]))).toEqual([{ ...keyless, visitorKey: null }]);
  });

  it('reads a damaged batch that lost its keys as scans without keys; a key that is no key is none', () => {
    const input = scans(4).map((s) => ({ ...s, visitorKey: null }));
    const { visitorKeys: _keys, ...keyless } = encodeScanBatch(input);
    const old = keyless as ScanBatchPayload;
    expect(scanBatchSize(old)).toBe(4);
    expect(decodeScanBatch(JSON.parse(JSON.stringify(old)))).toEqual(input);
    // As a queue hands it over: parsed JSON, whatever its keys hold.
    const odd: ScanBatchPayload = JSON.parse(JSON.stringify({ ...old, visitorKeys: ['k'.repeat(65), 42, 'has space', 'fine_KEY-1'] }));
    expect(decodeScanBatch(odd).map((s) => s.visitorKey)).toEqual([null, null, null, 'fine_KEY-1']);
  });

  it('reads a batch of a redirect older than origins as scans of unknown origin', () => {
    const input = scans(6);
    const { origins: _origins, originOf: _of, ...old } = encodeScanBatch(input);
    expect(decodeScanBatch(JSON.parse(JSON.stringify(old))).map((s) => s.origin)).toEqual(input.map(() => UNKNOWN_ORIGIN));
  });

  it('an empty batch is empty, and so is a payload that is not a batch', () => {
    expect(decodeScanBatch(encodeScanBatch([]))).toEqual([]);
    for (const junk of [{}, { scans: [{ id: 'x' }] }, null, { links: 'x', visitors: 1, scans: 'y' }]) {
      expect(decodeScanBatch(junk as never)).toEqual([]);
    }
  });
});
