/**
 * What a brand domain's check looks at and concludes: the DNS records a person must set, what
 * the resolver saw instead, and the state that follows. Ownership is proved once (a TXT record
 * holding the domain's token); routing (the name resolves to the service's public addresses
 * and nothing else) is checked every time, and a verified domain that stops routing here is
 * misconfigured, never removed.
 */
import type { DnsAnswer } from '#platform/dns/resolver.js';
import { parseAddress } from '#platform/net/ip-ranges.js';
import { safeFetch, SafeFetchError } from '#platform/net/safe-fetch.js';
import type { DomainObservation, DomainState } from './tables.js';

/** What a check asks of DNS (platform/dns/resolver.ts answers it). */
export interface DomainLookups {
  txt(name: string): Promise<DnsAnswer<string[]>>;
  addresses(name: string): Promise<DnsAnswer<string[]>>;
  cname(name: string): Promise<DnsAnswer<string | null>>;
}

/** How the HTTP challenge is asked: DOMAIN_HTTP_PORT, DOMAIN_CHECK_ALLOW_CIDRS, DNS_TIMEOUT_MS. */
export interface HttpChallengeOptions {
  port: number;
  allowCidrs: string;
  timeoutMs: number;
}

/** The HTTP challenge's path for a token; the redirect answers it with the token. */
export const challengePath = (token: string) => `/.well-known/qrlinks-challenge/${token}`;

/**
 * Asks `http://<host>/.well-known/qrlinks-challenge/<token>` through the SSRF-safe fetch (public
 * addresses only, unless DOMAIN_CHECK_ALLOW_CIDRS says otherwise), the name resolved by the same
 * resolver as the other checks: answered when the token comes back. Whatever answers it (the
 * redirect directly, or through a CDN that hides the name's real addresses) is the service there.
 */
async function askHttpChallenge(
  dns: DomainLookups,
  hostname: string,
  token: string,
  options: HttpChallengeOptions,
): Promise<{ answered: boolean; error?: string }> {
  const port = options.port === 80 ? '' : `:${options.port}`;
  try {
    const res = await safeFetch(`http://${hostname}${port}${challengePath(token)}`, {
      maxBytes: 1024,
      // A DNS question, then the request.
      timeoutMs: options.timeoutMs * 2,
      maxRedirects: 0,
      allowCidrs: options.allowCidrs,
      resolve: async (name) => {
        const found = await dns.addresses(name);
        if ('error' in found) throw new Error(found.error);
        return found.records.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
      },
    });
    return res.body.toString('utf8').trim() === token ? { answered: true } : { answered: false, error: 'answered without the token' };
  } catch (err) {
    if (!(err instanceof SafeFetchError)) return { answered: false, error: 'no answer' };
    return { answered: false, error: err.code === 'timeout' ? 'no answer in time' : err.message };
  }
}

/** Where the service is reached: DOMAIN_TARGET_ADDRESSES and DOMAIN_CNAME_TARGET. */
export interface DomainTargets {
  addresses: readonly string[];
  cname: string;
}

/** The TXT record's name for `hostname`. */
export const challengeName = (hostname: string) => `_qrlinks-challenge.${hostname}`;

export async function observeDomain(
  dns: DomainLookups,
  hostname: string,
  token: string,
  targets: DomainTargets,
  http: HttpChallengeOptions,
  now: Date,
  /** Whether ownership is still to be proved (a pending domain); once verified, routing alone is checked. */
  proofNeeded = true,
): Promise<DomainObservation> {
  const [txt, addresses, cname] = await Promise.all([dns.txt(challengeName(hostname)), dns.addresses(hostname), dns.cname(hostname)]);
  // The HTTP challenge only when DNS alone does not settle it (a name behind a CDN, a TXT record
  // out of reach): asked anyway it costs a connection, and its failure would be listed beside a
  // domain that is fine.
  const settled =
    (!proofNeeded || ('records' in txt && txt.records.includes(token))) &&
    'records' in addresses &&
    addresses.records.length > 0 &&
    addresses.records.every((a) => targets.addresses.includes(canonicalAddress(a)));
  const challenge = settled ? { answered: false } : await askHttpChallenge(dns, hostname, token, http);
  const errors: Record<string, string> = {};
  if ('error' in txt) errors.txt = txt.error;
  if ('error' in addresses) errors.addresses = addresses.error;
  if ('error' in cname) errors.cname = cname.error;
  if (challenge.error) errors.http = challenge.error;
  return {
    checkedAt: now.toISOString(),
    txt: 'records' in txt ? txt.records : [],
    addresses: 'records' in addresses ? [...new Set(addresses.records.map(canonicalAddress))].sort() : [],
    cname: 'records' in cname ? cname.records : null,
    http: challenge.answered,
    targets: [...targets.addresses],
    errors,
  };
}

/** One spelling per address (`2001:db8::10`, never `2001:db8:0:0:0:0:0:10`), as the configured ones are. */
const canonicalAddress = (address: string) => parseAddress(address)?.toString() ?? address;

export const isOwned = (seen: DomainObservation, token: string) => seen.txt.includes(token) || seen.http;

/**
 * Every address the name resolves to is one of ours, and there is at least one; or the HTTP
 * challenge came back, through whatever stands in front (a CDN whose addresses are not ours).
 */
export function isRouted(seen: DomainObservation, targets: DomainTargets): boolean {
  if (seen.http) return true;
  return seen.addresses.length > 0 && targets.addresses.length > 0 && seen.addresses.every((a) => targets.addresses.includes(a));
}

/** The state after a check; a disabled domain is not checked. */
export function stateAfterCheck(state: Exclude<DomainState, 'disabled'>, owned: boolean, routed: boolean): DomainState {
  if (state === 'pending') return owned && routed ? 'verified' : 'pending';
  return routed ? 'verified' : 'misconfigured';
}

/** One record a person sets, beside what was found there. */
export interface DomainRecord {
  purpose: 'ownership' | 'routing';
  type: 'TXT' | 'A' | 'AAAA' | 'CNAME';
  name: string;
  value: string;
  /** What the last check found at that name for that type; null before the first check. */
  found: string[] | null;
  ok: boolean | null;
}

/**
 * The records to set: the TXT record, then an A or AAAA record per public address; for a
 * subdomain a CNAME to the service's own name does instead (the console says "either").
 */
export function domainRecords(hostname: string, token: string, targets: DomainTargets, seen: DomainObservation | null): DomainRecord[] {
  const txtOk = seen ? seen.txt.includes(token) : null;
  const routed = seen ? isRouted(seen, targets) : null;
  const records: DomainRecord[] = [
    { purpose: 'ownership', type: 'TXT', name: challengeName(hostname), value: token, found: seen ? seen.txt : null, ok: txtOk },
  ];
  for (const address of targets.addresses) {
    const type = address.includes(':') ? 'AAAA' : 'A';
    const found = seen ? seen.addresses.filter((a) => a.includes(':') === (type === 'AAAA')) : null;
    records.push({ purpose: 'routing', type, name: hostname, value: address, found, ok: routed });
  }
  if (hostname.split('.').length > 2) {
    records.push({
      purpose: 'routing',
      type: 'CNAME',
      name: hostname,
      value: targets.cname,
      found: seen ? (seen.cname ? [seen.cname] : []) : null,
      ok: routed,
    });
  }
  return records;
}
