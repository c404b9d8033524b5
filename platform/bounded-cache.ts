/**
 * A bounded memo for the redirect hot path: two generations of at most `max / 2` entries each.
 * A hit in the young generation is one Map lookup; a hit in the old one copies the entry into
 * the young one; when the young generation is full it becomes the old one and the previous old
 * one is dropped whole. That keeps what is used (LRU within a factor of two of retention) with
 * O(1) work per call and no reordering on a hit, which a strict LRU on a Map pays every time
 * (delete and re-insert).
 */
export class BoundedCache<K, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();
  private readonly generationSize: number;

  constructor(max: number) {
    this.generationSize = Math.max(1, Math.floor(max / 2));
  }

  get(key: K): V | undefined {
    const hit = this.young.get(key);
    if (hit !== undefined) return hit;
    const aged = this.old.get(key);
    if (aged !== undefined) this.set(key, aged);
    return aged;
  }

  set(key: K, value: V): void {
    if (this.young.size >= this.generationSize) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(key, value);
  }

  delete(key: K): void {
    this.young.delete(key);
    this.old.delete(key);
  }

  clear(): void {
    this.young.clear();
    this.old.clear();
  }

  /** Entries held, counting an entry present in both generations twice (never more than `max`). */
  get size(): number {
    return this.young.size + this.old.size;
  }
}
