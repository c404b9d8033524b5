/**
 * Which custom slugs a link may take: the pattern and the reserved names, apart from the slug
 * generator (node:crypto) so the browser console checks a slug exactly as the API does.
 */
export const CUSTOM_SLUG_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Slugs no link may take: the paths the redirect process answers itself at its root (a test
 * checks every root segment of its route table is here), names kept for paths it may serve, and
 * `preview`, the placeholder the console's designer and template previews draw for a link that
 * has no short URL yet (so a code made from one can never reach another account's link).
 * Compared case-insensitively: `Health` would be confusing even where routing is case-sensitive.
 * The slug generator and bulk batches never draw one either.
 */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set([
  'health',
  'ready',
  'metrics',
  'files',
  'favicon.ico',
  'robots.txt',
  'api',
  'docs',
  'static',
  'assets',
  '_',
  'preview',
  'internal',
  '.well-known',
]);

export function isReservedSlug(slug: string): boolean {
  return RESERVED_SLUGS.has(slug.toLowerCase());
}
