/**
 * Scan ids are UUIDv7 (RFC 9562): the time of the scan in the first 48 bits, then random bits.
 * The id is the scans table's primary key and the idempotency key of ingestion; ids made in time
 * order land at the right edge of its B-tree instead of on random pages, which keeps inserts cheap
 * when the index no longer fits in memory (and the WAL smaller: fewer full-page images).
 */
import { v7 } from 'uuid';

export function newScanId(): string {
  return v7();
}
