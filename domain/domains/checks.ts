/**
 * What a brand domain's check looks at and concludes: the DNS records a person must set, what
 * the resolver saw instead, and the state that follows. Ownership is proved once (a TXT record
 * holding the domain's token); routing (the name resolves to the service's public addresses
 * and nothing else) is checked every time, and a verified domain that stops routing here is
 * misconfigured, never removed.
 */
import type { DnsAnswer } from '#platform/dns/resolver.js';
import { parseAddress } from '#platform/net/ip-ranges.js';
import type { DomainObservation, DomainState } from './tables.js';

/** What a check asks of DNS (platform/dns/resolver.ts answers it). */
export interface DomainLookups {
  txt(name: string): Promise<DnsAnswer<string[]>>;
  addresses(name: string): Promise<DnsAnswer<string[]>>;
  cname(name: string): Promise<DnsAnswer<string | null>>;
}

/** Where the service is reached: DOMAIN_TARGET_ADDRESSES and DOMAIN_CNAME_TARGET. */
export interface DomainTargets {
  addresses: readonly string[];
  cname: string;
}

/** The TXT record's name for `hostname`. */
export const challengeName = (hostname: string) => `_qrlinks-challenge.${hostname}`;

export async function observeDomain(dns: DomainLookups, hostname: string, targets: DomainTargets, now: Date): Promise<DomainObservation> {
  const [txt, addresses, cname] = await Promise.all([dns.txt(challengeName(hostname)), dns.addresses(hostname), dns.cname(hostname)]);
  const errors: Record<string, string> = {};
  if ('error' in txt) errors.txt = txt.error;
  if ('error' in addresses) errors.addresses = addresses.error;
  if ('error' in cname) errors.cname = cname.error;
  return {
    checkedAt: now.toISOString(),
    txt: 'records' in txt ? txt.records : [],
    addresses: 'records' in addresses ? [...new Set(addresses.records.map(canonicalAddress))].sort() : [],
    cname: 'records' in cname ? cname.records : null,
    http: false,
    targets: [...targets.addresses],
    errors,
  };
}

/** One spelling per address (`2001:db8::10`, never `2001:db8:0:0:0:0:0:10`), as the configured ones are. */
const canonicalAddress = (address: string) => parseAddress(address)?.toString() ?? address;

export const isOwned = (seen: DomainObservation, token: string) => seen.txt.includes(token) || seen.http;

/** Every address the name resolves to is one of ours, and there is at least one. */
export function isRouted(seen: DomainObservation, targets: DomainTargets): boolean {
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
