/**
 * Who a rate limit counts: a client's address as the unit an attacker pays for. An IPv4 address
 * is one unit; an IPv6 address counts by its /64, because one subscriber, host or VM is normally
 * handed a whole /64 and can send from any of its 2^64 addresses; an IPv4-mapped IPv6 address
 * (`::ffff:a.b.c.d`, what a dual-stack socket reports for an IPv4 peer) is its IPv4 address.
 * The result is hashed, so no raw address is stored in Redis or kept in memory.
 */
import { createHash } from 'node:crypto';
import type ipaddr from 'ipaddr.js';
import { parseAddress } from './ip-ranges.js';

export function rateLimitIdentity(ip: string): string {
  return createHash('sha256').update(rateLimitUnit(ip)).digest('base64url').slice(0, 22);
}

/** The unit before hashing: `a.b.c.d` or `xxxx:xxxx:xxxx:xxxx::/64`; anything unparsable as given. */
export function rateLimitUnit(ip: string): string {
  const addr = parseAddress(ip);
  if (!addr) return ip;
  if (addr.kind() === 'ipv4') return addr.toString();
  const v6 = addr as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  return `${v6.parts.slice(0, 4).map((p) => p.toString(16)).join(':')}::/64`;
}
