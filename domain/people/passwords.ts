/**
 * People's passwords (docs/decisions/0400): scrypt from node:crypto, which is memory-hard and runs
 * on libuv's thread pool, off the event loop. A hash is stored as `scrypt$N$r$p$salt$hash` (salt
 * and hash in base64), so the cost can be raised later: `needsRehash` says when a stored hash was
 * made with other parameters, and the caller hashes the password again on its next good sign-in.
 *
 * Rules (NIST SP 800-63B: length, not composition): 10 to 200 characters, counted as Unicode code
 * points after NFKC normalisation, no control characters, and none of the 100 most common
 * passwords of that length. A password is normalised (NFKC) before it is hashed or checked, so
 * the same password typed on two keyboards that compose "é" differently matches.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { AppError } from '../errors.js';
import { COMMON_PASSWORDS } from './common-passwords.js';

export const PASSWORD_MIN_CHARS = 10;
export const PASSWORD_MAX_CHARS = 200;

/** N = 2^16, r = 8, p = 1: 64 MiB and about 160 ms per hash on this project's 2-core machines. */
const COST = { N: 2 ** 16, r: 8, p: 1 } as const;
const SALT_BYTES = 16;
const KEY_BYTES = 32;
/**
 * The most memory (128 * N * r) and the largest p a stored hash may name, four times today's
 * cost: a damaged or forged row cannot make a check take seconds or gigabytes.
 */
const MAX_MEMORY = 256 * 1024 * 1024;
const MAX_P = 4;

const COMMON = new Set(COMMON_PASSWORDS);
const CONTROL = /\p{Cc}/u;

/**
 * 400 `password_too_weak`: a new password breaks a rule. Shaped like every 400 of the api
 * (`{code, message: "Validation failed", errors: [{path, message}]}`): the entry names the field
 * (`password` unless the caller says) and says which rule.
 */
export class PasswordRuleError extends AppError {
  constructor(
    readonly rule: string,
    field = 'password',
  ) {
    super('password_too_weak', { message: 'Validation failed', errors: [{ path: field, message: rule }] });
  }
}

/** Throws a PasswordRuleError naming `field` when `password` may not be set as a new password. */
export function checkPasswordRules(password: string, field = 'password'): void {
  const normalised = password.normalize('NFKC');
  const chars = [...normalised].length;
  const refuse = (rule: string) => {
    throw new PasswordRuleError(rule, field);
  };
  if (chars < PASSWORD_MIN_CHARS) refuse(`Use at least ${PASSWORD_MIN_CHARS} characters`);
  if (chars > PASSWORD_MAX_CHARS) refuse(`Use at most ${PASSWORD_MAX_CHARS} characters`);
  if (CONTROL.test(normalised)) refuse('A password cannot contain control characters (line breaks, tabs, …)');
  if (COMMON.has(normalised.toLowerCase())) refuse('This password is one of the most common ones; choose another');
}

/** Checks the rules (PasswordRuleError naming `field`), then hashes: `scrypt$N$r$p$salt$hash`. */
export async function hashPassword(password: string, field = 'password'): Promise<string> {
  checkPasswordRules(password, field);
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password.normalize('NFKC'), salt, COST.N, COST.r, COST.p, KEY_BYTES);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/**
 * Whether `password` is the one `stored` was made from, in constant time. False, without hashing,
 * for a password longer than any that can be set and for a stored value that is not ours.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const normalised = password.normalize('NFKC');
  // UTF-16 length is at least the code point count: only a long string needs counting.
  if (normalised.length > PASSWORD_MAX_CHARS && [...normalised].length > PASSWORD_MAX_CHARS) return false;
  const key = await derive(normalised, parsed.salt, parsed.N, parsed.r, parsed.p, parsed.hash.length);
  return timingSafeEqual(key, parsed.hash);
}

/** True when `stored` was not made with today's parameters (or is not a hash of ours): hash again at the next good sign-in. */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  return (
    !parsed ||
    parsed.N !== COST.N ||
    parsed.r !== COST.r ||
    parsed.p !== COST.p ||
    parsed.salt.length !== SALT_BYTES ||
    parsed.hash.length !== KEY_BYTES
  );
}

interface Parsed {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  hash: Buffer;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

function parse(stored: string): Parsed | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [N, r, p] = parts.slice(1, 4).map((v) => (/^[1-9][0-9]{0,7}$/.test(v) ? Number(v) : NaN)) as [number, number, number];
  if (!(N >= 2 && (N & (N - 1)) === 0 && r >= 1 && 128 * N * r <= MAX_MEMORY && p >= 1 && p <= MAX_P)) return null;
  if (!BASE64.test(parts[4]!) || !BASE64.test(parts[5]!)) return null;
  const salt = Buffer.from(parts[4]!, 'base64');
  const hash = Buffer.from(parts[5]!, 'base64');
  if (salt.length < 8 || hash.length < 16 || hash.length > 64) return null;
  return { N, r, p, salt, hash };
}

function derive(password: string, salt: Buffer, N: number, r: number, p: number, keyBytes: number): Promise<Buffer> {
  // maxmem: scrypt needs about 128 * N * r bytes; Node refuses past 32 MiB unless told.
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r };
  return new Promise((resolve, reject) => scrypt(password, salt, keyBytes, options, (err, key) => (err ? reject(err) : resolve(key))));
}
