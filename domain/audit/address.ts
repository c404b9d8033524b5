/**
 * The client address an audit event keeps: never the whole address. Scans keep none (only the
 * country, region and city looked up from it, and a daily-salted key); an audit event keeps the
 * network, enough to tell an office from an unknown place and no more (docs/decisions/0404):
 * an IPv4 address's /24 (`203.0.113.0`), an IPv6 address's /48 (`2001:db8:1::`), an IPv4-mapped
 * IPv6 address as its IPv4 /24. Anything that is not an address is not kept (null).
 */
import ipaddr from 'ipaddr.js';
import { parseAddress } from '#platform/net/ip-ranges.js';

export function truncatedAddress(ip: string | undefined): string | null {
  const addr = ip ? parseAddress(ip) : null;
  if (!addr) return null;
  const v4 =
    addr.kind() === 'ipv4'
      ? (addr as ipaddr.IPv4)
      : (addr as ipaddr.IPv6).isIPv4MappedAddress()
        ? (addr as ipaddr.IPv6).toIPv4Address()
        : null;
  if (v4) return `${v4.octets.slice(0, 3).join('.')}.0`;
  return new ipaddr.IPv6([...(addr as ipaddr.IPv6).parts.slice(0, 3), 0, 0, 0, 0, 0]).toString();
}
