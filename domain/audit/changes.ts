/**
 * What an audit event says changed: the fields of an entity's snapshot whose values differ before
 * and after, bounded (docs/decisions/0404-audit-what-is-recorded.md): each value at most
 * MAX_VALUE_BYTES of JSON (a longer one is cut and marked), at most MAX_FIELDS fields, at most
 * MAX_TOTAL_BYTES of JSON in all; fields past a bound are counted in one last `…` entry.
 */

/** A value of a snapshot: what JSON holds, flat (objects are kept as their JSON text, bounded). */
export type AuditValue = string | number | boolean | null;

export interface AuditChange {
  field: string;
  before: AuditValue;
  after: AuditValue;
}

/** A snapshot of an entity: the fields that matter, never a secret (domain/audit/snapshots.ts). */
export type AuditSnapshot = Record<string, AuditValue>;

export const MAX_VALUE_BYTES = 1024;
export const MAX_FIELDS = 50;
export const MAX_TOTAL_BYTES = 16 * 1024;
/** What ends a value that was cut. */
export const TRUNCATED = '…[truncated]';
/** The field of the entry that counts the fields left out. */
export const MORE_FIELDS = '…';

/** The fields whose values differ, in the order of `after`'s fields then `before`'s; a missing snapshot is an empty one. */
export function diffSnapshots(before: AuditSnapshot | null, after: AuditSnapshot | null): AuditChange[] {
  const b = before ?? {};
  const a = after ?? {};
  const changes: AuditChange[] = [];
  for (const field of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const was = Object.hasOwn(b, field) ? b[field]! : null;
    const is = Object.hasOwn(a, field) ? a[field]! : null;
    if (was !== is) changes.push({ field, before: was, after: is });
  }
  return changes;
}

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/** A value within MAX_VALUE_BYTES of JSON: a longer string is cut on a character boundary and marked. */
export function boundValue(value: AuditValue): AuditValue {
  if (typeof value !== 'string' || bytes(JSON.stringify(value)) <= MAX_VALUE_BYTES) return value;
  let cut = value.slice(0, MAX_VALUE_BYTES);
  // JSON escapes can make a character take up to 6 bytes: shorten until it fits with the marker.
  while (cut.length > 0 && bytes(JSON.stringify(cut + TRUNCATED)) > MAX_VALUE_BYTES) {
    const over = bytes(JSON.stringify(cut + TRUNCATED)) - MAX_VALUE_BYTES;
    cut = cut.slice(0, Math.max(0, cut.length - Math.max(1, Math.ceil(over / 6))));
  }
  // No lone surrogate at the cut.
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  return cut + TRUNCATED;
}

/** The changes as stored: each value bounded, the list within MAX_FIELDS and MAX_TOTAL_BYTES. */
export function boundChanges(changes: readonly AuditChange[]): AuditChange[] {
  const out: AuditChange[] = [];
  // Room for the brackets and the entry that counts what was left out.
  let total = 2 + 64;
  let i = 0;
  for (; i < changes.length && out.length < MAX_FIELDS - 1; i++) {
    const c = changes[i]!;
    const entry = { field: boundField(c.field), before: boundValue(c.before), after: boundValue(c.after) };
    const size = bytes(JSON.stringify(entry)) + 1;
    if (total + size > MAX_TOTAL_BYTES) break;
    total += size;
    out.push(entry);
  }
  // The last field fits in the place the count would take.
  if (i === changes.length - 1 && out.length === MAX_FIELDS - 1) {
    const c = changes[i]!;
    const entry = { field: boundField(c.field), before: boundValue(c.before), after: boundValue(c.after) };
    if (total - 64 + bytes(JSON.stringify(entry)) + 1 <= MAX_TOTAL_BYTES) {
      out.push(entry);
      i++;
    }
  }
  if (i < changes.length) out.push({ field: MORE_FIELDS, before: null, after: `${changes.length - i} more fields not recorded` });
  return out;
}

function boundField(field: string): string {
  return field.length <= 100 ? field : `${field.slice(0, 100)}${TRUNCATED}`;
}
