/**
 * Seeded pseudo-random numbers (mulberry32) for tests and benches: the same seed gives the same
 * sequence on every run, so a failure or a measurement can be had again.
 */

/** Unsigned 32-bit numbers. */
export function random32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** Uniform numbers in [0, 1). */
export function randomUnit(seed: number): () => number {
  const next = random32(seed);
  return () => next() / 4_294_967_296;
}
