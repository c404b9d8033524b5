import { describe, expect, it } from 'vitest';
import { newScanId, ScanIdGenerator } from '#domain/scans/scan-id.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** The 48-bit millisecond timestamp an id carries. */
const msecsOf = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16);
/** The 32-bit counter: 4 bits after the version, 8, then 6 after the variant, 8, and 6 more. */
function counterOf(id: string): number {
  const bytes = Buffer.from(id.replace(/-/g, ''), 'hex');
  return (((bytes[6]! & 0x0f) << 28) | (bytes[7]! << 20) | ((bytes[8]! & 0x3f) << 14) | (bytes[9]! << 6) | (bytes[10]! >> 2)) >>> 0;
}

describe('scan ids: UUIDv7 (RFC 9562) made on the redirect hot path', () => {
  it('are version 7, variant 10, and carry the time they were made', () => {
    const before = Date.now();
    const id = newScanId();
    expect(id).toMatch(UUID_V7);
    expect(msecsOf(id)).toBeGreaterThanOrEqual(before);
    expect(msecsOf(id)).toBeLessThanOrEqual(Date.now());
    expect(msecsOf(new ScanIdGenerator().next(1_700_000_000_123))).toBe(1_700_000_000_123);
  });

  it('strictly increase within a millisecond, from an unpredictable start, and are unique', () => {
    const ids = new ScanIdGenerator(() => 1_700_000_000_000);
    const made = Array.from({ length: 5000 }, () => ids.next());
    expect(new Set(made).size).toBe(made.length);
    expect([...made].sort()).toEqual(made);
    for (let i = 1; i < made.length; i++) expect(counterOf(made[i]!)).toBe(counterOf(made[i - 1]!) + 1);
    // The first id of each millisecond starts the counter at a random value below 2^31.
    const starts = Array.from({ length: 20 }, (_, ms) => counterOf(new ScanIdGenerator(() => ms).next()));
    expect(new Set(starts).size).toBeGreaterThan(15);
    for (const start of starts) expect(start).toBeLessThan(2 ** 31);
  });

  it('keep increasing when the clock steps back, and move the timestamp on when the counter runs out', () => {
    let now = 5_000;
    // Random bytes of 0xff: the counter starts at 2^31 - 1 each millisecond.
    const ids = new ScanIdGenerator(
      () => now,
      (bytes) => bytes.fill(0xff),
    );
    const first = ids.next();
    now = 4_000;
    const afterStepBack = ids.next();
    expect(afterStepBack > first).toBe(true);
    expect(msecsOf(afterStepBack)).toBe(5_000);

    now = 9_000;
    const generator = new ScanIdGenerator(
      () => now,
      (bytes) => bytes.fill(0xff),
    );
    let last = generator.next();
    expect(counterOf(last)).toBe(2 ** 31 - 1);
    // Another 2^31 ids fit in the same millisecond; skip most of them by setting the counter near the end.
    expect(Reflect.get(generator, 'counter')).toBe(2 ** 31 - 1);
    Reflect.set(generator, 'counter', 0xfffffffe);
    last = generator.next();
    expect(counterOf(last)).toBe(0xffffffff);
    const overflowed = generator.next();
    expect(msecsOf(overflowed)).toBe(9_001);
    expect(counterOf(overflowed)).toBe(0);
    expect(overflowed > last).toBe(true);
  });

  it('take their random tail from the random source', () => {
    const zeros = new ScanIdGenerator(
      () => 1,
      (bytes) => bytes.fill(0),
    ).next();
    expect(zeros).toBe('00000000-0001-7000-8000-000000000000');
    const fills: number[] = [];
    const ids = new ScanIdGenerator(
      () => 1,
      (bytes) => {
        fills.push(bytes.length);
        bytes.fill(0xab);
      },
    );
    expect(ids.next().slice(-10)).toBe('ababababab');
    for (let i = 0; i < 3000; i++) ids.next();
    expect(fills.length).toBeGreaterThan(1);
  });
});
