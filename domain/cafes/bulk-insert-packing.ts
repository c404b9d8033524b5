/**
 * A bulk insert's checked entries packed for its job (CafeBulkInsertPayload), and back. Apart from
 * bulk-insert-schema.ts, which the browser console loads too.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import type { BulkInsertEntry, CafeBulkInsertPayload } from './bulk-insert-schema.js';

export function packBulkInsertEntries(items: BulkInsertEntry[]): string {
  // Level 1: a few tens of ms for 14 MB in the api's body thread; a menu's JSON shrinks several times even so.
  return gzipSync(JSON.stringify(items), { level: 1 }).toString('base64');
}

export function bulkInsertEntriesOf(payload: CafeBulkInsertPayload): BulkInsertEntry[] {
  if ('items' in payload) return payload.items;
  return JSON.parse(gunzipSync(Buffer.from(payload.packedItems, 'base64')).toString('utf8')) as BulkInsertEntry[];
}
