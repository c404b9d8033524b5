/**
 * A brand domain's name, in the one form the service stores, compares and routes by: IDNA to
 * punycode, lower case, no trailing dot, no port. `Café.Example.com.`, `café.example.com:443` and
 * `xn--caf-dma.example.com` are one domain.
 */
import { domainToASCII } from 'node:url';

/** Why a name cannot be a brand domain, said so a person can fix it. */
export type HostnameProblem = 'empty' | 'wildcard' | 'ip' | 'localhost' | 'single-label' | 'invalid' | 'too-long' | 'service-host';

export const HOSTNAME_PROBLEMS: Readonly<Record<HostnameProblem, string>> = {
  empty: 'Enter a domain name, such as links.example.com',
  wildcard: 'Wildcard names cannot be added; add each name on its own',
  ip: 'An IP address cannot be a domain; use a name that points at it',
  localhost: 'localhost names only reach the machine they are typed on',
  'single-label': 'Use a full name with a dot, such as links.example.com',
  invalid: 'Use letters, digits and hyphens in each part of the name (a hyphen neither first nor last)',
  'too-long': 'A domain name has at most 253 characters, each part at most 63',
  'service-host': 'This name belongs to the service itself',
};

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * The stored form of `input`, or the problem with it. `serviceHosts` are the service's own names
 * (the hosts of SHORT_URL_BASE and PUBLIC_API_URL): neither they nor names under them can be an
 * account's.
 */
export function normaliseHostname(input: string, serviceHosts: readonly string[]): { hostname: string } | { problem: HostnameProblem } {
  const trimmed = input.trim();
  if (trimmed === '') return { problem: 'empty' };
  if (trimmed.includes('*')) return { problem: 'wildcard' };
  if (trimmed.startsWith('[') || trimmed.split(':').length > 2) return { problem: 'ip' };
  const name = bareName(trimmed);
  // A last label of digits only is an IPv4 literal (or a spelling of one: the URL parser reads
  // `example.123` as an address), never a name.
  if (/(^|\.)\d+$/.test(name)) return { problem: 'ip' };
  const ascii = domainToASCII(name.toLowerCase());
  if (ascii === '') return { problem: 'invalid' };
  const labels = ascii.split('.');
  if (ascii === 'localhost' || ascii.endsWith('.localhost')) return { problem: 'localhost' };
  if (labels.length < 2) return { problem: 'single-label' };
  if (ascii.length > 253 || labels.some((l) => l.length > 63)) return { problem: 'too-long' };
  if (!labels.every((l) => LABEL.test(l))) return { problem: 'invalid' };
  if (serviceHosts.some((own) => ascii === own || ascii.endsWith(`.${own}`))) return { problem: 'service-host' };
  return { hostname: ascii };
}

/** A name as typed or sent, without its port and trailing dot: what both forms below start from. */
function bareName(name: string): string {
  const portless = name.replace(/:\d{1,5}$/, '');
  return portless.endsWith('.') ? portless.slice(0, -1) : portless;
}

/**
 * The name a request's Host header asks for, in the stored form (port, trailing dot and case
 * dropped, unicode to punycode), or null when it cannot be a domain name. For routing: no
 * refusals beyond that.
 */
export function hostOfHeader(header: string | undefined): string | null {
  if (!header) return null;
  const trimmed = header.trim();
  if (trimmed.startsWith('[')) return null;
  const ascii = domainToASCII(bareName(trimmed).toLowerCase());
  return ascii === '' ? null : ascii;
}
