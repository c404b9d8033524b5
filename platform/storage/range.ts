import { RangeNotSatisfiableError, type ByteRange } from './types.js';

/** Reject nonsense before any I/O, so both drivers fail the same way (plain Error, not a storage error). */
export function assertValidRange(range: ByteRange): void {
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || start < 0) throw new Error(`Invalid range start: ${start}`);
  if (end !== undefined && (!Number.isSafeInteger(end) || end < start)) throw new Error(`Invalid range end: ${end}`);
}

/** HTTP semantics: clamp the end to the last byte; a start past it (or any range on an empty object) is a 416. */
export function resolveRange(range: ByteRange, size: number): { start: number; end: number } {
  if (range.start >= size) throw new RangeNotSatisfiableError(size);
  return { start: range.start, end: Math.min(range.end ?? size - 1, size - 1) };
}
