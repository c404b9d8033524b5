/**
 * Second factor: time-based one-time passwords (RFC 6238 over RFC 4226's HOTP) as every
 * authenticator app speaks them — HMAC-SHA-1, 6 digits, 30-second steps — and one-time recovery
 * codes for a lost phone. node:crypto only.
 *
 * A code is accepted for the step before and after the current one too (a phone's clock a little
 * off, a code typed as it turns), and each step at most once: `verifyTotp` returns the step it
 * matched, the caller stores it, and passes it back next time so the same code (or an older one)
 * cannot be replayed within its window.
 */
import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

const STEP_SECONDS = 30;
const DIGITS = 6;
/** Steps either side of the current one a code may come from. */
const WINDOW = 1;
const SECRET_BYTES = 20;
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** A new shared secret: 160 random bits (RFC 4226's recommended length), base32 without padding. */
export function newTotpSecret(): string {
  return base32Encode(randomBytes(SECRET_BYTES));
}

/** The `otpauth://` URI an authenticator app reads from a QR code. */
export function totpUri({ secret, email, issuer }: { secret: string; email: string; issuer: string }): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(email)}`;
  const query = new URLSearchParams({ secret, issuer, algorithm: 'SHA1', digits: String(DIGITS), period: String(STEP_SECONDS) });
  return `otpauth://totp/${label}?${query.toString().replace(/\+/g, '%20')}`;
}

/** The 30-second step `now` falls in. */
export function totpStep(now: Date): number {
  return Math.floor(now.getTime() / 1000 / STEP_SECONDS);
}

/** The code of `step` (RFC 4226 dynamic truncation); `digits` other than 6 only for the RFC's test vectors. */
export function totpCode(secret: string, step: number, digits = DIGITS): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', base32Decode(secret)).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const value = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(value % 10 ** digits).padStart(digits, '0');
}

/**
 * The step `code` belongs to, when it is the code of the current step or one either side and that
 * step is later than `lastUsedStep`; null otherwise (wrong, too old, too new, or already used).
 * Spaces in `code` are ignored ("123 456").
 */
export function verifyTotp(secret: string, code: string, now: Date, lastUsedStep?: number | null): number | null {
  const typed = code.replace(/\s/g, '');
  if (!/^[0-9]{6}$/.test(typed)) return null;
  const current = totpStep(now);
  let matched: number | null = null;
  // Every candidate is compared (no early return), so the time taken does not say which matched.
  for (let step = current - WINDOW; step <= current + WINDOW; step++) {
    if (timingSafeEqual(Buffer.from(totpCode(secret, step)), Buffer.from(typed)) && matched === null) matched = step;
  }
  if (matched === null || (lastUsedStep != null && matched <= lastUsedStep)) return null;
  return matched;
}

const RECOVERY_CODES = 10;
const RECOVERY_GROUPS = 3;
const RECOVERY_GROUP_LETTERS = 4;

/**
 * Ten new recovery codes like `abcd-efgh-ijkl` (12 random letters, 56 bits each), shown once, and
 * their hashes to store. A code is random enough that a fast hash (SHA-256) is as good as a slow one.
 */
export function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: RECOVERY_CODES }, () =>
    Array.from({ length: RECOVERY_GROUPS }, () =>
      Array.from({ length: RECOVERY_GROUP_LETTERS }, () => String.fromCharCode(97 + randomInt(26))).join(''),
    ).join('-'),
  );
  return { codes, hashes: codes.map(recoveryHash) };
}

/**
 * Uses up a recovery code: the hashes that remain once `code`'s is taken out, or null when it is
 * none of them. Case, spaces and dashes are ignored. Every hash is compared in constant time.
 */
export function matchRecoveryCode(hashes: readonly string[], code: string): string[] | null {
  const letters = code.toLowerCase().replace(/[\s-]/g, '');
  if (!/^[a-z]{12}$/.test(letters)) return null;
  const typed = Buffer.from(recoveryHash(letters), 'hex');
  let matched = -1;
  hashes.forEach((hash, i) => {
    const stored = Buffer.from(hash, 'hex');
    if (stored.length === typed.length && timingSafeEqual(stored, typed) && matched === -1) matched = i;
  });
  return matched === -1 ? null : hashes.filter((_, i) => i !== matched);
}

function recoveryHash(code: string): string {
  return createHash('sha256').update(code.replace(/-/g, '')).digest('hex');
}

function base32Encode(bytes: Buffer): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** Decodes base32 (RFC 4648), ignoring case, spaces and padding; throws on any other character. */
function base32Decode(text: string): Buffer {
  const clean = text.toUpperCase().replace(/[\s=]/g, '');
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index === -1) throw new Error('TOTP secret is not base32');
    value = ((value << 5) | index) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}
