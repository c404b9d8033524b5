/** The bounds of what an audit event records (domain/audit/changes.ts) and the address it keeps (address.ts). */
import { describe, expect, it } from 'vitest';
import {
  boundChanges,
  boundValue,
  diffSnapshots,
  MAX_FIELDS,
  MAX_TOTAL_BYTES,
  MAX_VALUE_BYTES,
  MORE_FIELDS,
  TRUNCATED,
  type AuditChange,
} from '#domain/audit/changes.js';
import { truncatedAddress } from '#domain/audit/address.js';

const jsonBytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v));

describe('audit changes', () => {
  it('finds the fields that differ, a missing snapshot being an empty one', () => {
    expect(diffSnapshots({ a: 1, b: 'x', c: true }, { a: 1, b: 'y', d: null, e: 0 })).toEqual([
      { field: 'b', before: 'x', after: 'y' },
      { field: 'e', before: null, after: 0 },
      { field: 'c', before: true, after: null },
    ]);
    expect(diffSnapshots(null, { a: 'new' })).toEqual([{ field: 'a', before: null, after: 'new' }]);
    expect(diffSnapshots({ a: 'old' }, null)).toEqual([{ field: 'a', before: 'old', after: null }]);
  });

  it('cuts a value past 1 KB of JSON on a character boundary, with a marker', () => {
    for (const unit of ['a', 'é', '😀', '\u0001', '"']) {
      const value = boundValue(unit.repeat(3000)) as string;
      expect(value.endsWith(TRUNCATED)).toBe(true);
      expect(jsonBytes(value)).toBeLessThanOrEqual(MAX_VALUE_BYTES);
      expect(jsonBytes(value)).toBeGreaterThan(MAX_VALUE_BYTES / 2);
      expect(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(value)).toBe(false);
    }
    expect(boundValue('short')).toBe('short');
    expect(boundValue(12)).toBe(12);
  });

  it('keeps at most 50 fields and 16 KB, counting the rest in a last entry', () => {
    const many: AuditChange[] = Array.from({ length: 80 }, (_, i) => ({ field: `f${i}`, before: i, after: i + 1 }));
    const kept = boundChanges(many);
    expect(kept).toHaveLength(MAX_FIELDS);
    expect(kept.at(-1)).toEqual({ field: MORE_FIELDS, before: null, after: '31 more fields not recorded' });
    expect(boundChanges(many.slice(0, 50))).toEqual(many.slice(0, 50));

    const big: AuditChange[] = Array.from({ length: 40 }, (_, i) => ({
      field: `f${i}`,
      before: 'x'.repeat(5000),
      after: 'y'.repeat(5000),
    }));
    const bounded = boundChanges(big);
    expect(jsonBytes(bounded)).toBeLessThanOrEqual(MAX_TOTAL_BYTES);
    expect(bounded.at(-1)!.field).toBe(MORE_FIELDS);
    expect(bounded.length).toBeGreaterThan(5);
  });
});

describe('audit address', () => {
  it('keeps an IPv4 /24 and an IPv6 /48, nothing of what is not an address', () => {
    expect(truncatedAddress('203.0.113.57')).toBe('203.0.113.0');
    expect(truncatedAddress('::ffff:198.51.100.7')).toBe('198.51.100.0');
    expect(truncatedAddress('2001:db8:abcd:12::1')).toBe('2001:db8:abcd::');
    expect(truncatedAddress('::1')).toBe('::');
    expect(truncatedAddress('2001:db8::5')).toBe('2001:db8::');
    expect(truncatedAddress('not an address')).toBeNull();
    expect(truncatedAddress(undefined)).toBeNull();
  });
});
