/**
 * Who a rate limit counts: a client's address as the unit an attacker pays for. An IPv4 address
 * is one unit; an IPv6 address counts by its /64, because one subscriber, host or VM is normally
 * handed a whole /64 and can send from any of its 2^64 addresses; an IPv4-mapped IPv6 address
 * (`::ffff:a.b.c.d`, what a dual-stack socket reports for an IPv4 peer) is its IPv4 address.
 * The result is hashed, so no raw address is stored in Redis or kept in memory.
 *
 * Also: whose X-Forwarded-For is believed (TRUSTED_PROXIES), and which addresses are the
 * operator's own network.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type ipaddr from 'ipaddr.js';
import type { Logger } from '../logger.js';
import { inRanges, parseAddress, parseCidrList } from './ip-ranges.js';

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
  return `${v6.parts
    .slice(0, 4)
    .map((p) => p.toString(16))
    .join(':')}::/64`;
}

/**
 * Loopback and private networks (127/8, 10/8, 172.16/12, 192.168/16, ::1, fc00::/7), IPv4-mapped
 * forms included: where an operator's own machines, and so its Prometheus, sit.
 */
export function isPrivateNetworkAddress(ip: string): boolean {
  const addr = parseAddress(ip);
  if (!addr) return false;
  const v4 = addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress() ? (addr as ipaddr.IPv6).toIPv4Address() : addr;
  return ['loopback', 'private', 'uniqueLocal'].includes(v4.range());
}

/** Headers in which proxies and CDNs name the client they relay for (or the host it asked for). */
const FORWARDING_HEADERS = [
  'x-forwarded-for',
  'forwarded',
  'x-real-ip',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-client-ip',
  'x-cluster-client-ip',
  'true-client-ip',
  'cf-connecting-ip',
  'fastly-client-ip',
  'via',
];

/**
 * TRUSTED_PROXIES as a request meets it. Fastify (`trustProxy`) takes the client's address from
 * X-Forwarded-For only when the connecting peer is one of these; from any other peer the header
 * counts for nothing, and the peer (a load balancer not listed, if there is one) is the client.
 */
export class ProxyTrust {
  private readonly ranges: ReturnType<typeof parseCidrList>;
  /** Each peer's verdict: behind balancers the same few peers send every request, so each is parsed once. */
  private readonly verdicts = new Map<string, boolean>();

  constructor(trustedProxies: string) {
    this.ranges = parseCidrList(trustedProxies);
  }

  /** Whether the request carries X-Forwarded-For from a peer whose word on it is not taken. */
  isUntrustedForward(request: Pick<IncomingMessage, 'headers' | 'socket'>): boolean {
    return request.headers['x-forwarded-for'] !== undefined && !this.isTrusted(request.socket.remoteAddress ?? '');
  }

  /**
   * Whether the request was relayed for someone else by a peer not trusted to say for whom: any
   * header a proxy names its client or the original host in, not only X-Forwarded-For (a proxy
   * may send `Forwarded` or `X-Real-IP` instead). Such a request is never "local".
   */
  isUntrustedRelay(request: Pick<IncomingMessage, 'headers' | 'socket'>): boolean {
    return FORWARDING_HEADERS.some((name) => request.headers[name] !== undefined) && !this.isTrusted(request.socket.remoteAddress ?? '');
  }

  private isTrusted(peer: string): boolean {
    let trusted = this.verdicts.get(peer);
    if (trusted === undefined) {
      trusted = inRanges(peer, this.ranges);
      // Peers that are clients themselves (no balancer) are many: the memory stays bounded.
      if (this.verdicts.size >= 1024) this.verdicts.clear();
      this.verdicts.set(peer, trusted);
    }
    return trusted;
  }
}

/** The longest the untrusted-forwarding warning stays quiet after it was logged. */
const UNTRUSTED_FORWARD_WARNING_EVERY_MS = 60 * 60 * 1000;

/**
 * Logs a warning at the first request that carries X-Forwarded-For from a peer not in
 * TRUSTED_PROXIES (a load balancer the process was not told about makes every limit count all
 * its clients as one), then at most once an hour. It listens on the server's `request` event and
 * stops listening while quiet, so requests in between pay nothing.
 */
export function warnOfUntrustedForwarding(server: Server, trust: ProxyTrust, logger: Logger): void {
  let quiet: NodeJS.Timeout | undefined;
  const check = (request: IncomingMessage) => {
    if (!trust.isUntrustedForward(request)) return;
    logger.warn(
      { peer: request.socket.remoteAddress },
      'A request came with X-Forwarded-For from a peer not in TRUSTED_PROXIES: the header is ignored, and rate limits, ' +
        'scan locations and visitor counts take the peer for the client. Behind a load balancer or proxy, set TRUSTED_PROXIES ' +
        'to its addresses, or one client can lock out every other (logged at most once an hour)',
    );
    server.off('request', check);
    quiet = setTimeout(() => server.on('request', check), UNTRUSTED_FORWARD_WARNING_EVERY_MS).unref();
  };
  server.on('request', check);
  server.once('close', () => clearTimeout(quiet));
}

/**
 * An address kept for people to read later (a session's, an audit event's) without keeping whose
 * it was exactly: an IPv4 address to its /24 (`a.b.c.0`), an IPv6 one to its /48. Null when
 * unparsable.
 */
export function truncatedAddress(ip: string): string | null {
  const addr = parseAddress(ip);
  if (!addr) return null;
  if (addr.kind() === 'ipv4' || (addr as ipaddr.IPv6).isIPv4MappedAddress()) {
    const v4 = addr.kind() === 'ipv4' ? addr.toString() : (addr as ipaddr.IPv6).toIPv4Address().toString();
    return v4.replace(/\.\d+$/, '.0');
  }
  const parts = (addr as ipaddr.IPv6).parts.slice(0, 3).map((p) => p.toString(16));
  return `${parts.join(':')}::`;
}
