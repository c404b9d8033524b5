/**
 * Which IP addresses a server-side fetch may connect to. A fetch made on behalf of a user (a QR
 * code's image URL, later maybe webhooks) must only reach the public internet: never this machine,
 * the private network it sits in, or a cloud's metadata service (169.254.169.254).
 *
 * The rule is an allowlist for IPv6 and a blocklist for IPv4, both after the IANA special-purpose
 * address registries (RFC 6890 and successors):
 *
 * IPv4, refused:
 *   0.0.0.0/8 "this network"        10.0.0.0/8 private            100.64.0.0/10 CGNAT (shared)
 *   127.0.0.0/8 loopback            169.254.0.0/16 link-local (cloud metadata)
 *   172.16.0.0/12 private           192.0.0.0/24 IETF protocol assignments
 *   192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24 documentation (TEST-NET-1/2/3)
 *   192.88.99.0/24 6to4 relay anycast (deprecated)                  192.168.0.0/16 private
 *   198.18.0.0/15 benchmarking      224.0.0.0/4 multicast           240.0.0.0/4 reserved,
 *   which includes 255.255.255.255 broadcast.
 *
 * IPv6: only global unicast 2000::/3 is public, minus
 *   2001::/23 IETF protocol assignments (Teredo 2001::/32, benchmarking, ORCHID...: all refused),
 *   2001:db8::/32 and 3fff::/20 documentation;
 *   2002::/16 6to4 is judged by the IPv4 address it embeds.
 * Outside 2000::/3 everything is refused (::, ::1, IPv4-compatible ::a.b.c.d, fc00::/7 unique-local,
 * fe80::/10 link-local, fec0::/10 site-local, ff00::/8 multicast, 100::/64 discard,
 * 64:ff9b:1::/48 local NAT64...) except two forms that carry an IPv4 address and are judged by it:
 * IPv4-mapped ::ffff:a.b.c.d (a socket connects to the IPv4 address itself) and the well-known
 * NAT64 prefix 64:ff9b::/96 (a NAT64 gateway forwards to it).
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

type IPv4 = ipaddr.IPv4;
type IPv6 = ipaddr.IPv6;
type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

const v4 = (cidr: string): [IPv4, number] => ipaddr.IPv4.parseCIDR(cidr);
const v6 = (cidr: string): [IPv6, number] => ipaddr.IPv6.parseCIDR(cidr);

/** IPv4 ranges that are not the public internet. */
export const NON_PUBLIC_IPV4: ReadonlyArray<[IPv4, number]> = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.88.99.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4',
  '240.0.0.0/4',
].map(v4);

const GLOBAL_UNICAST_V6 = v6('2000::/3');
/** Inside 2000::/3 but not public. */
const NON_PUBLIC_IPV6: ReadonlyArray<[IPv6, number]> = ['2001::/23', '2001:db8::/32', '3fff::/20'].map(v6);
const NAT64_WELL_KNOWN = v6('64:ff9b::/96');
const SIX_TO_FOUR = v6('2002::/16');

/** The IPv4 address in the low 32 bits of an IPv6 address. */
function low32(ip: IPv6): IPv4 {
  const p = ip.parts;
  return new ipaddr.IPv4([p[6]! >> 8, p[6]! & 0xff, p[7]! >> 8, p[7]! & 0xff]);
}

function isPublicV4(ip: IPv4): boolean {
  return !NON_PUBLIC_IPV4.some((range) => ip.match(range));
}

function isPublicV6(ip: IPv6): boolean {
  if (ip.isIPv4MappedAddress()) return isPublicV4(ip.toIPv4Address());
  if (ip.match(NAT64_WELL_KNOWN)) return isPublicV4(low32(ip));
  if (!ip.match(GLOBAL_UNICAST_V6)) return false;
  if (ip.match(SIX_TO_FOUR)) {
    const p = ip.parts; // 2002:AABB:CCDD::/48 embeds AA.BB.CC.DD
    return isPublicV4(new ipaddr.IPv4([p[1]! >> 8, p[1]! & 0xff, p[2]! >> 8, p[2]! & 0xff]));
  }
  return !NON_PUBLIC_IPV6.some((range) => ip.match(range));
}

/**
 * Parses an address in the forms DNS answers and the URL parser produce: dotted-quad IPv4 or IPv6
 * (brackets and a zone id allowed). Legacy spellings (0177.0.0.1, 2130706433, 0x7f.1) are not
 * addresses here: the WHATWG URL parser has already turned them into dotted quads.
 */
export function parseAddress(ip: string): IPv4 | IPv6 | null {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  if (isIP(bare) === 0) return null;
  try {
    return ipaddr.parse(bare);
  } catch {
    return null;
  }
}

/** NON_PUBLIC_IPV4 as [network, netmask] numbers, for the dotted-quad fast path. */
const NON_PUBLIC_IPV4_NUMERIC: ReadonlyArray<readonly [number, number]> = NON_PUBLIC_IPV4.map(([net, bits]) => {
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return [net.toByteArray().reduce((n, byte) => n * 256 + byte, 0), mask] as const;
});

/**
 * A canonical dotted quad (four decimal parts 0-255, no leading zeros) as an unsigned 32-bit
 * number; -1 for anything else, which takes the general path.
 */
export function dottedQuad(ip: string): number {
  let value = 0;
  let part = 0;
  let digits = 0;
  let dots = 0;
  for (let i = 0; i < ip.length; i++) {
    const c = ip.charCodeAt(i);
    if (c === 46 /* . */) {
      if (digits === 0 || dots === 3) return -1;
      value = value * 256 + part;
      part = 0;
      digits = 0;
      dots++;
    } else if (c >= 48 && c <= 57) {
      if (digits > 0 && part === 0) return -1;
      part = part * 10 + (c - 48);
      if (part > 255) return -1;
      digits++;
    } else {
      return -1;
    }
  }
  return digits === 0 || dots !== 3 ? -1 : value * 256 + part;
}

/**
 * True only for an address on the public internet; false for anything else, including garbage.
 * Plain IPv4, what the redirect sees for nearly every scan, is judged without parsing into objects
 * (ipaddr.js parsing was about 3% of the redirect's CPU in a profile); the result is the same as the
 * general path's, which a test checks across the whole address space.
 */
export function isPublicAddress(ip: string): boolean {
  const quad = dottedQuad(ip);
  if (quad >= 0) return !NON_PUBLIC_IPV4_NUMERIC.some(([net, mask]) => (quad & mask) >>> 0 === net);
  const addr = parseAddress(ip);
  if (!addr) return false;
  return addr.kind() === 'ipv4' ? isPublicV4(addr as IPv4) : isPublicV6(addr as IPv6);
}

/**
 * A comma-separated list of CIDRs (or bare addresses, taken as /32 or /128), as operators write
 * them in the environment. Throws an Error naming the first bad entry.
 */
export function parseCidrList(list: string): Cidr[] {
  const out: Cidr[] = [];
  for (const raw of list.split(',')) {
    const entry = raw.trim();
    if (!entry) continue;
    const [address = '', prefix, ...rest] = entry.split('/');
    const parsed = parseAddress(address);
    const max = parsed?.kind() === 'ipv4' ? 32 : 128;
    const bits = prefix === undefined ? max : /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN;
    if (!parsed || rest.length > 0 || !(bits >= 0 && bits <= max)) throw new Error(`not a CIDR: ${JSON.stringify(entry)}`);
    out.push([parsed, bits]);
  }
  return out;
}

/** Whether the list parses; for config validation. */
export function isCidrList(list: string): boolean {
  try {
    parseCidrList(list);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether the address is inside one of the ranges. An IPv4-mapped IPv6 address also matches the
 * IPv4 ranges (it is the same destination).
 */
export function inRanges(ip: string, ranges: readonly Cidr[]): boolean {
  const addr = parseAddress(ip);
  if (!addr || ranges.length === 0) return false;
  const candidates: Array<IPv4 | IPv6> = [addr];
  if (addr.kind() === 'ipv6' && (addr as IPv6).isIPv4MappedAddress()) candidates.push((addr as IPv6).toIPv4Address());
  return candidates.some((a) => ranges.some(([net, bits]) => net.kind() === a.kind() && a.match(net, bits)));
}
