/** People's passwords: scrypt hashes in `scrypt$N$r$p$salt$hash`, the rules a new password meets. */
import { scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { validationErrorResponse } from '#api/schemas.js';
import { ERROR_CODES } from '#domain/errors.js';
import { COMMON_PASSWORDS } from '#domain/people/common-passwords.js';
import { checkPasswordRules, hashPassword, needsRehash, PasswordRuleError, verifyPassword } from '#domain/people/passwords.js';

const GOOD = 'correct horse battery';

async function refusal(password: string): Promise<PasswordRuleError> {
  const err = await hashPassword(password).catch((e: unknown) => e);
  expect(err, JSON.stringify(password)).toBeInstanceOf(PasswordRuleError);
  return err as PasswordRuleError;
}

describe('password hashes', () => {
  it('stores scrypt N=2^16 r=8 p=1 with a 16-byte salt and a 32-byte hash, salted afresh each time', async () => {
    const stored = await hashPassword(GOOD);
    const [name, N, r, p, salt, hash] = stored.split('$');
    expect([name, N, r, p]).toEqual(['scrypt', '65536', '8', '1']);
    expect(Buffer.from(salt!, 'base64')).toHaveLength(16);
    expect(Buffer.from(hash!, 'base64')).toHaveLength(32);
    // The hash is scrypt's own output, as any other scrypt would compute it.
    const expected = scryptSync(GOOD, Buffer.from(salt!, 'base64'), 32, { N: 65536, r: 8, p: 1, maxmem: 256 * 65536 * 8 });
    expect(hash).toBe(expected.toString('base64'));
    expect(await hashPassword(GOOD)).not.toBe(stored);
    expect(stored).not.toContain(GOOD);
  });

  it('verifies the password it was made from and nothing else', async () => {
    const stored = await hashPassword(GOOD);
    expect(await verifyPassword(GOOD, stored)).toBe(true);
    for (const other of ['correct horse batter', 'Correct horse battery', `${GOOD} `, ''])
      expect(await verifyPassword(other, stored), other).toBe(false);
  });

  it('matches a password typed in another Unicode form (NFKC), either way round', async () => {
    const composed = 'caf\u00e9 au lait noir';
    const decomposed = 'cafe\u0301 au lait noir';
    expect(composed).not.toBe(decomposed);
    expect(await verifyPassword(decomposed, await hashPassword(composed))).toBe(true);
    expect(await verifyPassword(composed, await hashPassword(decomposed))).toBe(true);
  });

  it('refuses, without hashing, what is not a hash of ours or names a cost that would hang the process', async () => {
    const stored = await hashPassword(GOOD);
    const [, , , , salt, hash] = stored.split('$');
    for (const bad of [
      '',
      'plain text',
      '$2b$10$abcdefghijklmnopqrstuuJ2iX1hRSDZuTnfX3Vt7Rk6JzZ6QkJ1y', // bcrypt
      `scrypt$1073741824$8$1$${salt}$${hash}`, // N = 2^30: gigabytes
      `scrypt$2097152$8$1$${salt}$${hash}`, // N = 2^21: 2 GiB, seconds
      `scrypt$65536$64$1$${salt}$${hash}`, // r = 64: 512 MiB
      `scrypt$65536$8$64$${salt}$${hash}`, // p = 64: 64 times the work
      `scrypt$65535$8$1$${salt}$${hash}`, // N not a power of two
      `scrypt$65536$8$1$${salt}`,
      `scrypt$65536$8$1$${salt}$not*base64`,
    ]) {
      const started = performance.now();
      expect(await verifyPassword(GOOD, bad), bad).toBe(false);
      expect(performance.now() - started, bad).toBeLessThan(100);
      expect(needsRehash(bad), bad).toBe(true);
    }
  });

  it('says a hash of other parameters needs rehashing, and still verifies it', async () => {
    const stored = await hashPassword(GOOD);
    expect(needsRehash(stored)).toBe(false);
    const salt = Buffer.alloc(16, 7);
    const older = [
      'scrypt',
      16384,
      8,
      1,
      salt.toString('base64'),
      scryptSync(GOOD, salt, 32, { N: 16384, r: 8, p: 1 }).toString('base64'),
    ].join('$');
    expect(needsRehash(older)).toBe(true);
    expect(await verifyPassword(GOOD, older)).toBe(true);
    expect(await verifyPassword('another password', older)).toBe(false);
  });

  it('costs tens of milliseconds at least, on the thread pool: the event loop keeps turning meanwhile', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const started = performance.now();
    await hashPassword(GOOD);
    const ms = performance.now() - started;
    clearInterval(timer);
    // About 160 ms on an idle 2-core machine (docs/decisions/0400); far more only on a busy one.
    expect(ms).toBeGreaterThan(40);
    expect(ms).toBeLessThan(5000);
    // A hash on the event loop (scryptSync) would let no timer fire until it is done.
    expect(ticks).toBeGreaterThanOrEqual(3);
  });
});

describe('password rules', () => {
  it('are a 400 with code password_too_weak, shaped like every 400: the field and the rule in errors', async () => {
    const err = await refusal('short');
    expect(err.code).toBe('password_too_weak');
    expect(err.statusCode).toBe(400);
    expect(ERROR_CODES.password_too_weak).toBe(400);
    expect(err.body).toEqual({
      code: 'password_too_weak',
      message: 'Validation failed',
      errors: [{ path: 'password', message: 'Use at least 10 characters' }],
    });
    expect(validationErrorResponse.safeParse(err.body).success).toBe(true);
    const named = await hashPassword('short', 'newPassword').then(
      () => expect.fail('hashed a password that breaks the rules'),
      (e: PasswordRuleError) => e,
    );
    expect(named.body.errors).toEqual([{ path: 'newPassword', message: 'Use at least 10 characters' }]);
  });

  it('want 10 to 200 characters, counted as characters, not UTF-16 units or bytes', async () => {
    expect((await refusal('abcdefghi')).rule).toBe('Use at least 10 characters');
    expect(() => checkPasswordRules('abcdefghij')).not.toThrow();
    expect(() => checkPasswordRules('x'.repeat(200))).not.toThrow();
    expect((await refusal('x'.repeat(201))).rule).toBe('Use at most 200 characters');
    // 9 emoji are 18 UTF-16 units and 36 bytes, but 9 characters.
    expect((await refusal('😀'.repeat(9))).rule).toBe('Use at least 10 characters');
    expect(() => checkPasswordRules('😀'.repeat(200))).not.toThrow();
    await refusal('😀'.repeat(201));
  });

  it('take any composition: spaces, letters only, any script', () => {
    for (const ok of ['aaaaaaaaab', 'the quick brown fox', 'пароль-для-входа', '密码很长的一个句子啊啊', 'Tr0ub4dor&3xyz'])
      expect(() => checkPasswordRules(ok), ok).not.toThrow();
  });

  it('refuse control characters (a pasted line break or tab)', async () => {
    for (const bad of ['correct horse\nbattery', 'correct\thorse battery', 'correct horse\u0000battery', 'correct horse\u007fbattery'])
      expect((await refusal(bad)).rule).toMatch(/control characters/);
  });

  it('refuse the 100 most common passwords of 10 characters or more, in any case', async () => {
    expect(COMMON_PASSWORDS).toHaveLength(100);
    expect(new Set(COMMON_PASSWORDS).size).toBe(100);
    for (const common of COMMON_PASSWORDS) {
      expect(common.length, common).toBeGreaterThanOrEqual(10);
      expect(common, common).toBe(common.toLowerCase());
      expect(() => checkPasswordRules(common), common).toThrow(PasswordRuleError);
    }
    for (const typed of ['Password123', 'QWERTYUIOP', 'Qwerty123456'])
      expect((await refusal(typed)).rule).toBe('This password is one of the most common ones; choose another');
    expect(() => checkPasswordRules('password1234567')).not.toThrow();
  });

  it('are not applied when checking a password: a sign-in with a short one is a plain false', async () => {
    const stored = await hashPassword(GOOD);
    expect(await verifyPassword('short', stored)).toBe(false);
    // Longer than any password that can be set: false at once, without a hash's cost.
    const started = performance.now();
    expect(await verifyPassword('x'.repeat(100_000), stored)).toBe(false);
    expect(performance.now() - started).toBeLessThan(100);
  });
});
