/** The compact form of a batch of scans on the queue: what goes in comes out, smaller. */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeScanBatch, encodeScanBatch, scanBatchSize, scanStride } from '../shared/scans/batch.js';
import type { ScanBatchPayload, ScanEvent } from '../shared/scans/types.js';

const links = [randomUUID(), randomUUID(), randomUUID()];
/** A link belongs to one account. */
const accountOf = new Map(links.map((l) => [l, randomUUID()]));
const visitors: Array<Omit<ScanEvent, 'id' | 'linkId' | 'accountId' | 'at' | 'visitorKey'>> = [
  { browserName: 'Mobile Safari', deviceType: 'mobile', deviceVendor: 'Apple', osName: 'iOS', countryName: 'Germany', region: 'Berlin', city: 'Berlin', isBot: false },
  { browserName: 'Mobile Safari', deviceType: 'mobile', deviceVendor: 'Apple', osName: 'iOS', countryName: 'Germany', region: 'Berlin', city: 'Berlin', isBot: true },
  { browserName: null, deviceType: null, deviceVendor: null, osName: null, countryName: null, region: null, city: null, isBot: true },
  // Same values in a different field must not be taken for the same visitor.
  { browserName: 'Berlin', deviceType: 'mobile', deviceVendor: 'Apple', osName: 'iOS', countryName: 'Germany', region: 'Berlin', city: null, isBot: false },
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
    expect(new Set(payload.links.map(([l]) => l)).size).toBe(payload.links.length);
    expect(JSON.stringify(payload).length * 4).toBeLessThan(JSON.stringify(input).length);
  });

  it('carries five entries per scan, the visitor key last, and says so', () => {
    const input = scans(3);
    const payload = encodeScanBatch(input);
    expect(payload.fieldsPerScan).toBe(5);
    expect(scanStride(payload)).toBe(5);
    expect(payload.scans.slice(0, 10)).toEqual([input[0]!.id, input[0]!.at, 0, expect.any(Number), null, input[1]!.id, input[1]!.at, 1, expect.any(Number), 'key-1']);
    // A scan given without a key travels with null.
    const { visitorKey: _none, ...keyless } = input[1]!;
    expect(decodeScanBatch(encodeScanBatch([keyless]))).toEqual([{ ...keyless, visitorKey: null }]);
  });

  it('reads a batch of four entries per scan (queued or spooled before visitor keys) as scans without keys', () => {
    const input = scans(4).map((s) => ({ ...s, visitorKey: null }));
    const current = encodeScanBatch(input);
    const old: ScanBatchPayload = {
      links: current.links,
      visitors: current.visitors,
      scans: input.flatMap((_, i) => current.scans.slice(i * 5, i * 5 + 4)),
    };
    expect(scanStride(old)).toBe(4);
    expect(scanBatchSize(old)).toBe(4);
    expect(decodeScanBatch(JSON.parse(JSON.stringify(old)))).toEqual(input);
    // A stride this version does not know is no batch it can read.
    const unknown = { ...current, fieldsPerScan: 6 } as unknown as ScanBatchPayload;
    expect([scanStride(unknown), scanBatchSize(unknown), decodeScanBatch(unknown)]).toEqual([undefined, 0, []]);
  });

  it('an empty batch is empty, and so is a payload that is not a batch', () => {
    expect(decodeScanBatch(encodeScanBatch([]))).toEqual([]);
    for (const junk of [{}, { scans: [{ id: 'x' }] }, null, { links: 'x', visitors: 1, scans: 'y' }]) {
      expect(decodeScanBatch(junk as never)).toEqual([]);
    }
  });
});
