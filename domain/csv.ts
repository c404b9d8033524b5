/**
 * CSV the service writes from rows it holds (a bulk job's manifest.csv), in the form of the
 * analytics exports (docs/decisions/0200-csv.md, 0201-formula-injection-owasp-csv-injection.md):
 * RFC 4180 with CRLF record ends, cells a spreadsheet would run as formulas neutralised. The
 * exports themselves are written by Postgres (domain/analytics/export.ts), the same rule in SQL.
 */
import { stringify } from 'csv-stringify/sync';

/**
 * A cell a spreadsheet would run as a formula (OWASP "CSV injection": it starts with = + - @, a
 * tab or a carriage return) gets a leading single quote, so it is shown as text.
 */
export function neutraliseCell(value: string): string {
  const c = value.charCodeAt(0);
  return c === 61 || c === 43 || c === 45 || c === 64 || c === 9 || c === 13 ? `'${value}` : value;
}

/**
 * Rows as CSV records, by csv-stringify (RFC 4180: CRLF line ends, a cell with a comma, a quote or
 * a line break quoted, quotes doubled; null is the empty cell), each cell neutralised first.
 */
export function csvRecords(rows: ReadonlyArray<ReadonlyArray<string | null>>): string {
  return stringify(rows as Array<Array<string | null>>, CSV_OPTIONS);
}

/**
 * csv-stringify neutralises each text cell through its own cast hook (no copy of the rows), and
 * quotes a bare CR only when told: a lone CR ends a line in some readers.
 */
const CSV_OPTIONS = { record_delimiter: '\r\n', quoted_match: /[\r\n]/, cast: { string: neutraliseCell } } as const;
