/**
 * A link's short URL and the key it is resolved by, from its domain's name (null: the default
 * domain) and its slug (decision 0426). Plain functions of strings, for every process and the
 * page render thread alike.
 */
import type { Config } from '#platform/config/index.js';
import { shortUrl } from './slugs.js';

/** The host of SHORT_URL_BASE: the default domain's name, as a link's `domain` field shows it. */
export function defaultHostname(config: Pick<Config, 'SHORT_URL_BASE'>): string {
  return new URL(config.SHORT_URL_BASE).hostname;
}

/**
 * Where the short URLs of a domain's links start: SHORT_URL_BASE for the default domain, the brand
 * name under SHORT_URL_BASE's scheme for a brand domain (https in production: the proxy gets its
 * certificate on demand; http where the operator runs the service without TLS).
 */
export function shortUrlBaseOf(config: Pick<Config, 'SHORT_URL_BASE'>, hostname: string | null): string {
  return hostname === null ? config.SHORT_URL_BASE : `${new URL(config.SHORT_URL_BASE).protocol}//${hostname}`;
}

/** The URL a link is printed with: its domain's, then its slug. */
export function linkShortUrl(config: Pick<Config, 'SHORT_URL_BASE'>, hostname: string | null, slug: string): string {
  return shortUrl(shortUrlBaseOf(config, hostname), slug);
}

/**
 * The key a link is resolved and cached by: its slug on the default domain (as before brand
 * domains, so every key in use stays valid), `<host>/<slug>` on a brand domain. A slug never holds
 * a `/`, so the two never meet.
 */
export function linkAddress(hostname: string | null, slug: string): string {
  return hostname === null ? slug : `${hostname}/${slug}`;
}

/** An address split back into its brand host (null: the default domain) and slug. */
export function splitLinkAddress(address: string): { hostname: string | null; slug: string } {
  const at = address.indexOf('/');
  return at < 0 ? { hostname: null, slug: address } : { hostname: address.slice(0, at), slug: address.slice(at + 1) };
}
