/**
 * isPublicAddress judges plain IPv4 on a fast path of its own; it must agree with the general
 * path (ipaddr.js), which an IPv4-mapped IPv6 spelling of the same address takes.
 */
import { describe, expect, it } from 'vitest';
import { isPublicAddress, NON_PUBLIC_IPV4 } from '#platform/net/ip-ranges.js';

const dotted = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
const general = (n: number) => isPublicAddress(`::ffff:${dotted(n)}`);

describe('isPublicAddress on plain IPv4', () => {
  it('agrees with the general path at every range edge and on 200,000 random addresses', () => {
    const edges: number[] = [0, 0xffffffff];
    for (const [net, bits] of NON_PUBLIC_IPV4) {
      const start = net.toByteArray().reduce((n, b) => n * 256 + b, 0);
      const end = start + 2 ** (32 - bits) - 1;
      edges.push(start - 1, start, start + 1, end - 1, end, end + 1);
    }
    let seed = 12345;
    const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    const addresses = [...edges.filter((n) => n >= 0 && n <= 0xffffffff), ...Array.from({ length: 200_000 }, random)];
    const disagreements = addresses.filter((n) => isPublicAddress(dotted(n)) !== general(n)).map(dotted);
    expect(disagreements).toEqual([]);
    // The sample covers both answers.
    expect(addresses.some((n) => isPublicAddress(dotted(n)))).toBe(true);
    expect(addresses.some((n) => !isPublicAddress(dotted(n)))).toBe(true);
  });

  it('known addresses', () => {
    expect(isPublicAddress('8.8.8.8')).toBe(true);
    expect(isPublicAddress('0.0.0.0')).toBe(false);
    expect(isPublicAddress('127.0.0.1')).toBe(false);
    expect(isPublicAddress('169.254.169.254')).toBe(false);
    expect(isPublicAddress('172.15.255.255')).toBe(true);
    expect(isPublicAddress('172.16.0.0')).toBe(false);
    expect(isPublicAddress('255.255.255.255')).toBe(false);
  });

  it('anything that is not a canonical dotted quad is not a public address', () => {
    for (const bad of [
      '',
      '8.8.8',
      '8.8.8.8.8',
      '08.8.8.8',
      '8.8.8.256',
      '8..8.8',
      '.8.8.8',
      '8.8.8.',
      '8.8.8.8 ',
      'a.b.c.d',
      '1e1.1.1.1',
    ]) {
      expect(isPublicAddress(bad), bad).toBe(false);
    }
  });
});
