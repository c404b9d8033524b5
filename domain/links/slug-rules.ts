/**
 * Which custom slugs a link may take: the pattern and the reserved names, apart from the slug
 * generator (node:crypto) so the browser console checks a slug exactly as the API does.
 */
export const CUSTOM_SLUG_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Paths the redirect process answers itself at its root, so no link may take them as its slug.
 * Compared case-insensitively: `Health` would be confusing even where routing is case-sensitive.
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
]);

export function isReservedSlug(slug: string): boolean {
  return RESERVED_SLUGS.has(slug.toLowerCase());
}
