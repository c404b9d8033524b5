/**
 * What website and smart-url links redirect to, made ready when a link enters a redirect
 * process's cache (not per scan): every destination in its WHATWG serialisation, which is plain
 * printable ASCII and so always fits a Location header. The api stores URLs in that form already;
 * this also covers rows written outside the api (raw Unicode, which Node refuses in a header). A destination that is not an http(s) URL at all (a row
 * written outside the api) marks the link `brokenDestination`, answered with an error page before
 * anything is counted. The link's UTM parameters are added here too (utm.ts), so a link that
 * drops the visitor's query sends every scan to a URL made once.
 */
import { httpUrlHref } from '../data/schemas.js';
import { withUtm } from '../utm-url.js';
import type { ResolvedLink, StoredLink } from './resolved-link.js';

/**
 * The resolved link of a Postgres row: its destinations sendable and `brokenDestination` set (run once per cache fill, not per
 * scan). This is the one place a link's `data` is taken as its type's: the api validated it
 * against the type's schema before storing it.
 * The destinations are the part a row written outside the api may get wrong, so they are checked.
 */
export function withSendableDestinations(link: StoredLink): ResolvedLink {
  return { ...link, ...sendableDestinations(link) } as ResolvedLink;
}

function sendableDestinations(link: StoredLink): Pick<StoredLink, 'data'> & { brokenDestination: boolean } {
  // A row written outside the api may hold anything in utm: only an object is taken as one.
  const utm = typeof link.utm === 'object' && !Array.isArray(link.utm) ? link.utm : null;
  const sendable = (url: string) => {
    const href = httpUrlHref(url);
    return href === null ? null : withUtm(href, utm);
  };
  if (link.type === 'website') {
    const url = sendable(link.data.url as string);
    return url === null ? { data: link.data, brokenDestination: true } : { data: { ...link.data, url }, brokenDestination: false };
  }
  if (link.type === 'smart-url') {
    const defaultUrl = sendable(link.data.defaultUrl as string);
    const stored = link.data.rules ?? [];
    const rules = Array.isArray(stored)
      ? stored.map((rule: Record<string, unknown>) => ({ ...rule, url: sendable(rule?.url as string) }))
      : null;
    if (defaultUrl === null || rules === null || rules.some((rule) => rule.url === null))
      return { data: link.data, brokenDestination: true };
    return { data: { ...link.data, defaultUrl, ...(link.data.rules ? { rules } : {}) }, brokenDestination: false };
  }
  return { data: link.data, brokenDestination: false };
}
