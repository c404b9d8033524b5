export const MAX_KEY_LENGTH = 512;
/**
 * Filesystems cap a single name at 255 bytes and the fs driver appends a suffix of up to 14 chars
 * (`@tmp-xxxxxxxx`, `@meta.json`) to a segment, so segments stay well below that.
 */
export const MAX_SEGMENT_LENGTH = 200;

// '@' is deliberately absent: the fs driver uses it for its own sidecar and temp file names, so those can
// never collide with, or be listed as, a real key.
const SEGMENT = /^[A-Za-z0-9._-]+$/;

export class InvalidKeyError extends Error {
  readonly code = 'InvalidKey';
  constructor(key: unknown, reason: string) {
    super(`Invalid storage key ${JSON.stringify(String(key).slice(0, 100))}: ${reason}`);
  }
}

export function isValidSegment(segment: string): boolean {
  return SEGMENT.test(segment) && segment !== '.' && segment !== '..' && segment.length <= MAX_SEGMENT_LENGTH;
}

/**
 * Keys are relative paths of [A-Za-z0-9._-] segments. Both drivers check this before any I/O; for the fs driver
 * it is the only thing keeping a key inside the root, so it rejects rather than normalizes.
 */
export function assertValidKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0) throw new InvalidKeyError(key, 'empty');
  if (key.length > MAX_KEY_LENGTH) throw new InvalidKeyError(key, `longer than ${MAX_KEY_LENGTH} chars`);
  if (key.startsWith('/')) throw new InvalidKeyError(key, 'must be relative');
  for (const segment of key.split('/')) {
    if (!isValidSegment(segment)) throw new InvalidKeyError(key, `bad segment ${JSON.stringify(segment.slice(0, 100))}`);
  }
}

/**
 * A list() prefix may end mid-segment ('a/b' matches 'a/bc') or at a '/' ('a/'), so it is valid when some key
 * could start with it. Appending one safe char turns it into such a key; '' lists everything.
 */
export function assertValidPrefix(prefix: string): void {
  if (typeof prefix !== 'string') throw new InvalidKeyError(prefix, 'prefix must be a string');
  if (prefix === '') return;
  try {
    assertValidKey(`${prefix}x`);
  } catch {
    throw new InvalidKeyError(prefix, 'not a valid key prefix');
  }
}

/** A folder is a non-empty key prefix that ends at a '/': 'a/b/' holds 'a/b/c' but not 'a/bc'. */
export function assertValidFolder(folder: string): void {
  if (typeof folder !== 'string' || !folder.endsWith('/')) throw new InvalidKeyError(folder, 'a folder must end with /');
  try {
    assertValidKey(folder.slice(0, -1));
  } catch {
    throw new InvalidKeyError(folder, 'not a valid folder');
  }
}
