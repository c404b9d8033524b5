/**
 * How many scans a worker process has received in the last second: the signal that the scan path
 * is busy, so bulk work on the same machine steps back (domain/jobs/pacing.ts). Counted in
 * quarter-second buckets, so a rate is never older than a quarter of a second.
 */
const BUCKET_MS = 250;
const BUCKETS = 4;

export class ScanTraffic {
  private readonly counts = new Array<number>(BUCKETS).fill(0);
  private bucket = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** `n` scans arrived just now. */
  add(n: number): void {
    this.advance();
    this.counts[this.bucket % BUCKETS]! += n;
  }

  /** Scans received over the last second. */
  perSecond(): number {
    this.advance();
    return this.counts.reduce((s, n) => s + n, 0);
  }

  /** Empties the buckets the clock has moved past since the last call. */
  private advance(): void {
    const current = Math.floor(this.now() / BUCKET_MS);
    if (current === this.bucket) return;
    const passed = Math.min(current - this.bucket, BUCKETS);
    for (let i = 1; i <= passed; i++) this.counts[(this.bucket + i) % BUCKETS] = 0;
    this.bucket = current;
  }
}
