/**
 * The API's check of a bulk CSV (the dry run's report, or a 400) placed where a person fixes it:
 * `file.row[N].<column>` at that row's cell, `file.header[i]` at that column's heading, and what
 * concerns the whole batch (`file`, `type`, `folderId`, `templateId`, `domain`) at its own control. Plus the
 * summary in words ("198 rows ready, 2 need fixing").
 */
import type { FieldErrors } from '../fields/errors.js';

export interface FieldProblem {
  path: string;
  message: string;
}

/** Controls outside the table that an error may name, by the paths they are keyed by. */
const BATCH_FIELDS: readonly string[] = ['file', 'type', 'folderId', 'templateId', 'domain'];

export interface CheckReport {
  /** Row number → column → message; the column '' is the record as a whole. */
  rows: ReadonlyMap<number, ReadonlyMap<string, string>>;
  /** Header column index → message. */
  header: ReadonlyMap<number, string>;
  /** Problems of the batch by the control they concern (`file`, `type`, `folderId`, `templateId`). */
  batch: FieldErrors;
  /** Problems no control shows (`qrOptions…`), as "path: message". */
  other: string[];
  /** Problems the API counted but did not list (it lists the first 100). */
  omitted: number;
}

const ROW_PATH = /^file\.row\[(\d+)\](?:\.([^.[]+))?/;
const HEADER_PATH = /^file\.header\[(\d+)\]$/;
const joined = (earlier: string | undefined, message: string) => (earlier ? `${earlier}; ${message}` : message);

export function reportOf(errors: readonly FieldProblem[], omitted = 0): CheckReport {
  const rows = new Map<number, Map<string, string>>();
  const header = new Map<number, string>();
  const batch: Record<string, string> = {};
  const other: string[] = [];
  for (const { path, message } of errors) {
    const row = ROW_PATH.exec(path);
    const heading = HEADER_PATH.exec(path);
    if (row) {
      const cells = rows.get(Number(row[1])) ?? new Map<string, string>();
      const column = row[2] ?? '';
      cells.set(column, joined(cells.get(column), message));
      rows.set(Number(row[1]), cells);
    } else if (heading) {
      header.set(Number(heading[1]), joined(header.get(Number(heading[1])), message));
    } else {
      // `file.header` (the columns the type takes) is said at the file, as the file's problem.
      const field = path === 'file.header' ? 'file' : path;
      if (BATCH_FIELDS.includes(field)) batch[field] = joined(batch[field], message);
      else other.push(path ? `${path}: ${message}` : message);
    }
  }
  return { rows, header, batch, other, omitted };
}

const rowsWord = (n: number) => (n === 1 ? 'row' : 'rows');

/**
 * What the check found, in one sentence. `count` is the records the API read (the dry run's
 * `count`), null when it could not read them (the file itself was refused).
 */
export function summaryText(count: number | null, report: CheckReport): string {
  const bad = report.rows.size;
  const batchProblems = Object.keys(report.batch).length + report.other.length + report.header.size;
  if (count === null) return 'The rows could not be read: fix the problems shown at the file and check again.';
  if (bad === 0 && report.omitted === 0) {
    const ready = `${count} ${rowsWord(count)} ready`;
    return batchProblems === 0 ? `${ready}.` : `${ready}, but the batch cannot be made yet: fix the problems shown above.`;
  }
  if (report.omitted > 0) {
    return (
      `At least ${bad} of ${count} ${rowsWord(count)} need fixing. ` +
      `The check lists the first problems only; ${report.omitted} more are not shown: fix these and check again to see the rest.`
    );
  }
  return `${count - bad} ${rowsWord(count - bad)} ready, ${bad} ${bad === 1 ? 'needs' : 'need'} fixing.`;
}

/** A new Idempotency-Key: 32 hex digits from the browser's random source (also on plain-HTTP hosts, unlike randomUUID). */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The batch's job in words, for the live region beside its progress bar. The percentage is said in
 * steps of ten, so a screen reader is not interrupted every second; the bar shows it exactly.
 */
export function progressText(state: 'queued' | 'active' | 'completed' | 'failed', progress: number, made: number | undefined): string {
  const links = (n: number) => `${n} link${n === 1 ? '' : 's'}`;
  const step = `${Math.floor(progress / 10) * 10}%`;
  switch (state) {
    case 'queued':
      return 'Waiting for its turn…';
    case 'active':
      return made === undefined ? `Making the links… ${step}` : `${links(made)} made; drawing their codes… ${step}`;
    case 'completed':
      return `Done: ${links(made ?? 0)} made. The ZIP of their codes is ready.`;
    case 'failed':
      return made === undefined
        ? 'The batch failed; no links were made.'
        : `The ${links(made)} were made, but the ZIP of their codes could not be made.`;
  }
}
