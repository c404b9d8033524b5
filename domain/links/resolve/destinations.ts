/**
 * What website and smart-url links redirect to, made ready when a link enters a redirect
 * process's cache (not per scan): every destination in its WHATWG serialisation, which is plain
 * printable ASCII and so always fits a Location header. The api stores URLs in that form already;
 * this also covers rows stored before it did (raw Unicode, which Node refuses in a header) and
 * Redis copies written by older processes. A destination that is not an http(s) URL at all (a row
 * written outside the api) marks the link `brokenDestination`, answered with an error page before
 * anything is counted.
 */
import { httpUrlHref } from '../data/schemas.js';
import type { ResolvedLink } from './resolved-link.js';

/** A copy of the link with its destinations sendable and `brokenDestination` set (run once per cache fill, not per scan). */
export function withSendableDestinations(link: Omit<ResolvedLink, 'brokenDestination'> & { brokenDestination?: boolean }): ResolvedLink {
  if (link.type === 'website') {
    const url = httpUrlHref(link.data.url as string);
    return url === null ? { ...link, brokenDestination: true } : { ...link, data: { ...link.data, url }, brokenDestination: false };
  }
  if (link.type === 'smart-url') {
    const defaultUrl = httpUrlHref(link.data.defaultUrl as string);
    const stored = link.data.rules ?? [];
    const rules = Array.isArray(stored) ? stored.map((rule: Record<string, unknown>) => ({ ...rule, url: httpUrlHref(rule?.url as string) })) : null;
    if (defaultUrl === null || rules === null || rules.some((rule) => rule.url === null)) return { ...link, brokenDestination: true };
    return { ...link, data: { ...link.data, defaultUrl, ...(link.data.rules ? { rules } : {}) }, brokenDestination: false };
  }
  return { ...link, brokenDestination: false };
}
