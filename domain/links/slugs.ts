import { randomBase62 } from '#platform/format/random.js';
import { isReservedSlug } from './slug-rules.js';

export const AUTO_SLUG_LENGTH = 7;

/** 62^7 ≈ 3.5 × 10^12 slugs; a collision is retried by the caller against the unique index. */
export function generateSlug(): string {
  for (;;) {
    // 'metrics' and 'preview' are seven letters (in any case), so a random slug could be one.
    const slug = randomBase62(AUTO_SLUG_LENGTH);
    if (!isReservedSlug(slug)) return slug;
  }
}

export function shortUrl(base: string, slug: string): string {
  return `${base.replace(/\/+$/, '')}/${slug}`;
}
