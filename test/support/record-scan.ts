import type { ScanRecorder } from '#infra/scans/recorder.js';
import type { RecordedScan } from '#domain/scans/types.js';

/**
 * Records the scan as the redirect does (`recordThen`), as a promise for tests: it resolves once
 * the scan's answer may go (its line written ahead, or at once when there is nothing to wait for).
 */
export function recordScan(recorder: ScanRecorder, scan: RecordedScan): Promise<void> {
  return new Promise((resolve) => {
    if (!recorder.recordThen(scan, resolve)) resolve();
  });
}
