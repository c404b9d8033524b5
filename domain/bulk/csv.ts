/**
 * The CSV form of a bulk request: a header row naming the record fields (the JSON records' member
 * names, in any order; vCard columns firstName, lastName, contact, email, phone, ...), then one
 * record per row. Parsed by csv-parse (RFC 4180: quoted commas, quotes and line breaks; CRLF or LF;
 * a UTF-8 byte order mark is dropped). An empty cell is a field left out, so optional columns may
 * be blank; cells of number fields are read as numbers when they are written as one. Problems are
 * reported at `file.row[N].<field>`, N being the row as a spreadsheet numbers it (the header is row 1).
 * The file's shape is bounded before it is parsed: a header of at most CSV_MAX_HEADER_BYTES, rows
 * of at most CSV_MAX_CELLS cells (a record has far fewer fields), cells of at most
 * CSV_MAX_CELL_BYTES, at most BULK_MAX_RECORDS records.
 */
import { parse } from 'csv-parse/sync';
import { firstCodePoints } from '#platform/format/text.js';
import { ValidationError, type FieldError } from '../errors.js';
import { LONG_TEXT_MAX } from '../links/data/limits.js';
import { BULK_MAX_RECORDS, bulkRecordSchemas, type BulkType } from './schemas.js';

const NUMBER_FIELDS: Partial<Record<BulkType, ReadonlySet<string>>> = { product: new Set(['subTotal', 'tax', 'totalNet']) };
const NUMBER_TEXT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

export interface CsvBatch {
  records: Array<Record<string, unknown>>;
  /** Each record's row number in the file. */
  rows: number[];
}

/** Column names with room to spare: the longest record's header is a few hundred bytes. */
export const CSV_MAX_HEADER_BYTES = 16 * 1024;
/** Cells in any row: more than any record's fields, so every extra column can still be named. */
export const CSV_MAX_CELLS = 100;
/**
 * Bytes of one cell, quotes included: the longest field (LONG_TEXT_MAX characters) written in
 * four-byte characters with every quote doubled fits with room to spare. The parser would build a
 * cell of any length (a whole 12 MB file as one string) before the record's schema refused it.
 */
export const CSV_MAX_CELL_BYTES = 64 * 1024;
const PARSER_MESSAGE_MAX = 200;

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;

/**
 * Refuses a file whose header or rows are too wide, in one pass over its bytes and before the
 * parser builds a cell for each comma: a 12 MB header of empty columns is 12 million strings.
 * Quotes only toggle whether a comma or line end counts. A quote where RFC 4180 allows none (inside
 * an unquoted cell) could skew the count after it, but the parser refuses the file at that quote.
 */
function checkTableWidth(file: Buffer, columnsOf: string): void {
  let quoted = false;
  let cells = 1;
  let cellStart = 0;
  let headerEnd = -1;
  for (let i = 0; i < file.length; i++) {
    const byte = file[i];
    if (i - cellStart >= CSV_MAX_CELL_BYTES) {
      throw new ValidationError([
        {
          path: 'file',
          message: `A cell is longer than ${CSV_MAX_CELL_BYTES} bytes; no field takes more than ${LONG_TEXT_MAX} characters`,
        },
      ]);
    }
    if (byte === QUOTE) quoted = !quoted;
    else if (quoted) continue;
    else if (byte === COMMA) {
      cellStart = i + 1;
      if (++cells > CSV_MAX_CELLS) {
        const where = headerEnd < 0 ? 'The header row' : 'A row';
        throw new ValidationError([{ path: 'file', message: `${where} has more than ${CSV_MAX_CELLS} cells; ${columnsOf}` }]);
      }
    } else if (byte === LF || byte === CR) {
      cells = 1;
      cellStart = i + 1;
      if (headerEnd < 0) headerEnd = i;
    }
    if (headerEnd < 0 && i >= CSV_MAX_HEADER_BYTES) {
      throw new ValidationError([{ path: 'file', message: `The header row is longer than ${CSV_MAX_HEADER_BYTES} bytes; ${columnsOf}` }]);
    }
  }
}

/** The records of a CSV file for a batch of `type`; a file that cannot be read is a 400 at `file`. */
export function readBulkCsv(type: BulkType, file: Buffer): CsvBatch {
  const known = new Set(Object.keys(bulkRecordSchemas[type].shape));
  const columnsOf = `the columns of ${type} records are: ${[...known].join(', ')}`;
  checkTableWidth(file, columnsOf);
  let table: string[][];
  try {
    // One row past the most a batch may have is enough to say it has too many.
    // With options, csv-parse's typings pick the overload of `columns` (unknown rows); the assertion
    // the rule calls unnecessary is what says these rows are strings.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
    table = parse(file, { bom: true, skip_empty_lines: true, to: BULK_MAX_RECORDS + 2 }) as string[][];
  } catch (err) {
    // The parser's message can quote a whole field (an opening quote inside one): cut it.
    const message = (err as Error).message;
    const cut = firstCodePoints(message, PARSER_MESSAGE_MAX);
    throw new ValidationError([{ path: 'file', message: `Not a readable CSV file: ${cut}${cut.length < message.length ? '…' : ''}` }]);
  }
  const [header, ...body] = table;
  if (!header) throw new ValidationError([{ path: 'file', message: 'The file is empty: it needs a header row and 1 to 1200 records' }]);
  const columns = header.map((name) => name.trim());
  const errors: FieldError[] = [];
  columns.forEach((name, i) => {
    if (!known.has(name)) errors.push({ path: `file.header[${i}]`, message: `Unknown column "${name}"` });
    else if (columns.indexOf(name) !== i) errors.push({ path: `file.header[${i}]`, message: `Column "${name}" appears twice` });
  });
  // The valid columns are said once, before the columns that are wrong.
  if (errors.length > 0)
    throw new ValidationError([{ path: 'file.header', message: `Unknown or repeated columns; ${columnsOf}` }, ...errors]);
  const numbers = NUMBER_FIELDS[type];
  const records = body.map((cells) => {
    const record: Record<string, unknown> = {};
    cells.forEach((cell, i) => {
      if (cell === '') return;
      const name = columns[i]!;
      record[name] = numbers?.has(name) && NUMBER_TEXT.test(cell.trim()) ? Number(cell.trim()) : cell;
    });
    return record;
  });
  return { records, rows: records.map((_, i) => i + 2) };
}

/** A zod path into the JSON form (`data`, `data[i]…`) as the CSV form names it (`file`, `file.row[N]…`). */
export function csvIssuePath(path: ReadonlyArray<PropertyKey>, rows: readonly number[]): PropertyKey[] {
  if (path[0] !== 'data') return [...path];
  if (typeof path[1] === 'number') return ['file', 'row', rows[path[1]] ?? path[1] + 2, ...path.slice(2)];
  return ['file', ...path.slice(1)];
}
