/** The compact form of a batch of scans on the queue: what goes in comes out, smaller. */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeScanBatch, encodeScanBatch, scanBatchSize } from '../shared/scans/batch.js';
import type { ScanEvent } from '../shared/scans/types.js';

const links = [randomUUID(), randomUUID(), randomUUID()];
/** A link belongs to one account. */
const accountOf = new Map(links.map((l) => [l, randomUUID()]));
const visitors: Array<Omit<ScanEvent, 'id' | 'linkId' | 'accountId' | 'at'>> = [
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

  it('an empty batch is empty, and so is a payload that is not a batch', () => {
    expect(decodeScanBatch(encodeScanBatch([]))).toEqual([]);
    for (const junk of [{}, { scans: [{ id: 'x' }] }, null, { links: 'x', visitors: 1, scans: 'y' }]) {
      expect(decodeScanBatch(junk as never)).toEqual([]);
    }
  });
});
