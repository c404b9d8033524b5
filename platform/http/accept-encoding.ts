/**
 * Which content coding a client's Accept-Encoding lets a server use, for every role that
 * compresses what it sends (the api's JSON and console files, the redirect's pages and files).
 */

export type ContentCoding = 'br' | 'gzip';

/** Below this, the headers and the compressor's framing save too little to be worth it: sent as it is. */
export const COMPRESS_MIN_BYTES = 1024;

/**
 * The coding a client's Accept-Encoding lets us use: brotli, else gzip, each unless refused
 * (`q=0`, or `*;q=0` without naming it), brotli only where it weighs at least as much as gzip;
 * null without the header or when it accepts neither.
 */
export function acceptedCoding(header: string | string[] | undefined): ContentCoding | null {
  if (header === undefined) return null;
  const weights = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/.exec(p)).find(Boolean);
    weights.set(name, q ? Number(q[1]) : 1);
  }
  const weight = (coding: string) =>
    weights.get(coding) ?? (coding === 'gzip' ? weights.get('x-gzip') : undefined) ?? weights.get('*') ?? 0;
  const br = weight('br');
  const gz = weight('gzip');
  if (br > 0 && br >= gz) return 'br';
  return gz > 0 ? 'gzip' : null;
}
