import { createHash } from 'node:crypto';
import { randomBase62 } from '#platform/format/random.js';

export const KEY_PREFIX = 'key-';

/** 32 base62 characters after the prefix: about 190 bits, so a plain SHA-256 is a safe store. */
export function generateApiKey(): string {
  return KEY_PREFIX + randomBase62(32);
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** What a list shows of a key: enough to recognise it, too little to use it. */
export function displayPrefix(key: string): string {
  return key.slice(0, KEY_PREFIX.length + 6);
}

/** Shape check before any database work: anything else is a malformed key (401). */
export function looksLikeApiKey(value: string): boolean {
  return value.startsWith(KEY_PREFIX) && value.length <= 128 && /^[A-Za-z0-9_-]+$/.test(value.slice(KEY_PREFIX.length));
}
