import { randomBase62 } from '../format/random.js';

export const AUTO_SLUG_LENGTH = 7;
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

/** 62^7 ≈ 3.5 × 10^12 slugs; a collision is retried by the caller against the unique index. */
export function generateSlug(): string {
  for (;;) {
    // 'metrics' is seven letters, so a random slug could be it.
    const slug = randomBase62(AUTO_SLUG_LENGTH);
    if (!isReservedSlug(slug)) return slug;
  }
}

export function shortUrl(base: string, slug: string): string {
  return `${base.replace(/\/+$/, '')}/${slug}`;
}
