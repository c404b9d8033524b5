/**
 * Bulk work that steps back while scans are arriving. A worker usually shares its machine with a
 * redirect process, and CPU a bulk job takes there shows up at once in the scanners' tail latency
 * (measured: bench/redirect (c)). Niceness alone does not prevent that, so while the scan rate this
 * worker receives is at or above a threshold, a bulk job keeps its work to a share of wall time: after
 * each unit of work it sleeps long enough that the unit was `share` of the time since the last one.
 * Below the threshold (or with it at 0) the job runs flat out.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { ScanTraffic } from '../scans/traffic.js';

export interface PacingOptions {
  /** Scans per second at which bulk work starts pacing; 0: never. */
  scansPerSecond: number;
  /** Share of wall time bulk work keeps while pacing, from 0 (exclusive) to 1. */
  share: number;
}

export class BulkPacer {
  private unitStartedAt = performance.now();
  /** Milliseconds this pacer has slept so far, for the job's log. */
  pausedMs = 0;

  constructor(
    private readonly traffic: ScanTraffic,
    private readonly options: PacingOptions,
  ) {}

  /** Whether scans are arriving fast enough that bulk work paces itself now. */
  get pacing(): boolean {
    return this.options.scansPerSecond > 0 && this.options.share < 1 && this.traffic.perSecond() >= this.options.scansPerSecond;
  }

  /**
   * Between two units of bulk work: sleeps if pacing, so the unit just done was `share` of the time.
   * Resolves to whether it paced, so the caller sizes its next unit from the same reading.
   */
  async betweenUnits(): Promise<boolean> {
    const pacing = this.pacing;
    if (pacing) {
      const worked = performance.now() - this.unitStartedAt;
      const pause = (worked * (1 - this.options.share)) / this.options.share;
      await sleep(pause);
      this.pausedMs += pause;
    }
    this.unitStartedAt = performance.now();
    return pacing;
  }
}
