/** The second factor: RFC 6238 TOTP codes (checked against the RFC's own vectors) and recovery codes. */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { matchRecoveryCode, newRecoveryCodes, newTotpSecret, totpCode, totpStep, totpUri, verifyTotp } from '#domain/people/totp.js';

/** RFC 6238 appendix B's SHA-1 seed, the ASCII "12345678901234567890", in base32. */
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

/** RFC 6238 appendix B, the SHA-1 rows: Unix time in seconds → 8-digit TOTP. */
const RFC_VECTORS: Array<[number, string]> = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

const at = (seconds: number) => new Date(seconds * 1000);

describe('TOTP codes (RFC 6238, HMAC-SHA-1, 30 s)', () => {
  it('gives the RFC 6238 appendix B codes (8 digits) at their times', () => {
    for (const [seconds, code] of RFC_VECTORS) expect(totpCode(RFC_SECRET, totpStep(at(seconds)), 8), `T=${seconds}`).toBe(code);
  });

  it('accepts the 6-digit form of each RFC code at its time and returns its step', () => {
    for (const [seconds, code] of RFC_VECTORS) {
      expect(verifyTotp(RFC_SECRET, code.slice(-6), at(seconds)), `T=${seconds}`).toBe(Math.floor(seconds / 30));
    }
  });

  it('accepts the step before and after the current one, not two away', () => {
    const code = totpCode(RFC_SECRET, totpStep(at(1234567890)));
    const step = Math.floor(1234567890 / 30);
    expect(verifyTotp(RFC_SECRET, code, at(1234567890 + 30))).toBe(step);
    expect(verifyTotp(RFC_SECRET, code, at(1234567890 - 30))).toBe(step);
    expect(verifyTotp(RFC_SECRET, code, at(1234567890 + 60))).toBeNull();
    expect(verifyTotp(RFC_SECRET, code, at(1234567890 - 60))).toBeNull();
  });

  it('refuses a step already used, and any earlier one, so a code cannot be replayed in its window', () => {
    const now = at(1234567890);
    const code = totpCode(RFC_SECRET, totpStep(now));
    const used = verifyTotp(RFC_SECRET, code, now)!;
    expect(used).toBe(totpStep(now));
    expect(verifyTotp(RFC_SECRET, code, now, used)).toBeNull();
    expect(verifyTotp(RFC_SECRET, code, at(1234567890 + 30), used)).toBeNull();
    const previous = totpCode(RFC_SECRET, used - 1);
    expect(verifyTotp(RFC_SECRET, previous, now, used)).toBeNull();
    // The next step's code is still good once.
    const next = totpCode(RFC_SECRET, used + 1);
    expect(verifyTotp(RFC_SECRET, next, at(1234567890 + 30), used)).toBe(used + 1);
  });

  it('refuses a wrong code, a code of the wrong shape, and takes spaces as typed', () => {
    const now = at(1111111111);
    expect(verifyTotp(RFC_SECRET, '050471', now)).toBe(Math.floor(1111111111 / 30));
    expect(verifyTotp(RFC_SECRET, '050 471', now)).toBe(Math.floor(1111111111 / 30));
    for (const bad of ['050472', '50471', '0504710', '', 'abcdef', '05047１', '14050471'])
      expect(verifyTotp(RFC_SECRET, bad, now), bad).toBeNull();
  });

  it('makes 160-bit base32 secrets that differ, and codes an independent HOTP agrees with', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(secret);
    const key = base32ToBytes(secret);
    expect(key).toHaveLength(20);
    // RFC 4226 computed here from the bytes, as a second implementation would.
    const step = 55_555_555;
    const counter = Buffer.alloc(8);
    counter.writeBigUInt64BE(BigInt(step));
    const mac = createHmac('sha1', key).update(counter).digest();
    const offset = mac[19]! & 15;
    const expected = String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
    expect(totpCode(secret, step)).toBe(expected);
  });

  it('writes the otpauth:// URI authenticator apps read, with issuer and e-mail encoded', () => {
    const uri = totpUri({ secret: RFC_SECRET, email: 'ann+2fa@example.com', issuer: 'qrlinks: Café' });
    const url = new URL(uri);
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe('/qrlinks: Café:ann+2fa@example.com');
    expect(url.pathname).toBe('/qrlinks%3A%20Caf%C3%A9:ann%2B2fa%40example.com');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      secret: RFC_SECRET,
      issuer: 'qrlinks: Café',
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
    expect(uri).not.toContain('+2fa@');
    // A space is %20, not +: some authenticator apps show a + as it is.
    expect(uri).toContain('&issuer=qrlinks%3A%20Caf%C3%A9&');
  });
});

describe('recovery codes', () => {
  it('makes 10 different codes like abcd-efgh-ijkl, stored only as hashes', () => {
    const { codes, hashes } = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z]{4}-[a-z]{4}-[a-z]{4}$/);
    expect(hashes).toHaveLength(10);
    for (const hash of hashes) for (const code of codes) expect(hash).not.toContain(code.replace(/-/g, ''));
  });

  it('uses a code up: the other hashes remain, and the same code is refused next time', () => {
    const { codes, hashes } = newRecoveryCodes();
    const remaining = matchRecoveryCode(hashes, codes[3]!);
    expect(remaining).toEqual(hashes.filter((_, i) => i !== 3));
    expect(matchRecoveryCode(remaining!, codes[3]!)).toBeNull();
    expect(matchRecoveryCode(remaining!, codes[4]!)).toEqual(hashes.filter((_, i) => i !== 3 && i !== 4));
  });

  it('ignores case, spaces and dashes; refuses anything else', () => {
    const { codes, hashes } = newRecoveryCodes();
    const code = codes[0]!;
    expect(matchRecoveryCode(hashes, code.toUpperCase())).toHaveLength(9);
    expect(matchRecoveryCode(hashes, ` ${code.replace(/-/g, ' ')} `)).toHaveLength(9);
    expect(matchRecoveryCode(hashes, code.replace(/-/g, ''))).toHaveLength(9);
    const other = code.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'));
    for (const bad of [other, code.slice(0, -1), `${code}a`, '', 'aaaa-bbbb-ccc1']) expect(matchRecoveryCode(hashes, bad), bad).toBeNull();
    expect(matchRecoveryCode([], code)).toBeNull();
  });
});

function base32ToBytes(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const bits = [...text].map((c) => alphabet.indexOf(c).toString(2).padStart(5, '0')).join('');
  return Buffer.from(bits.match(/.{8}/g)!.map((b) => parseInt(b, 2)));
}
