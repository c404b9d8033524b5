/**
 * Redis names of the scan path, all under the install's prefix (REDIS_NAMESPACE), so several
 * installs or test runs can share one Redis.
 */
export const linkCacheKeys = (prefix: string) => ({
  /**
   * JSON of a ResolvedLink, or "null" for an address that resolves to nothing. An address is a
   * slug on the default domain, `<host>/<slug>` on a brand domain (domain/links/link-domains.ts).
   */
  entry: (address: string) => `${prefix}:link:${address}`,
  /** Bumped by every invalidation; a loader only writes an entry if it is unchanged since it read Postgres. */
  version: (address: string) => `${prefix}:link-version:${address}`,
  /** Pub/sub channel: an address whose in-process copies every redirect process must drop. */
  channel: `${prefix}:link-invalidated`,
  /** Unknown slugs one client (hashed address, IPv6 by /64) has asked the redirect for in the current window. */
  notFound: (client: string) => `${prefix}:redirect-not-found:${client}`,
  /** New "no such slug" entries written to Redis in the current window (their number is capped). */
  missingBudget: (window: number) => `${prefix}:link-missing-budget:${window}`,
  /** Human scans a scan-limited link has resolved (the authority for the limit). */
  humanScans: (linkId: string) => `${prefix}:link-human-scans:${linkId}`,
  /** The visitor keys a scan-limited link has seen on a UTC day (days since the epoch): each counts once. */
  limitVisitors: (linkId: string, day: number) => `${prefix}:link-limit-visitors:${linkId}:${day}`,
  /** Failed password attempts of one client on one link, in the current window. */
  passwordAttempts: (linkId: string, client: string) => `${prefix}:link-password-attempts:${linkId}:${client}`,
  /** Failed password attempts on one link from every client, in the current window. */
  linkPasswordAttempts: (linkId: string) => `${prefix}:link-password-failures:${linkId}`,
});

export type LinkCacheKeys = ReturnType<typeof linkCacheKeys>;
