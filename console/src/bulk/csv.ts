/**
 * CSV text as the preview table shows it, numbered as the API numbers it. The API reads the same
 * text with csv-parse (`bom`, `skip_empty_lines`; domain/bulk/csv.ts) and names a record by
 * `file.row[N]`, N being its place among the records plus one for the header; this reader reads
 * quotes, line ends and blank lines the same way (test/unit/console/console-bulk.unit.test.ts compares the two),
 * so row 5 here is the API's row 5. Where csv-parse would refuse the file (an unclosed quote, a row
 * with another number of cells) this reader keeps going: the preview still shows the rows, and the
 * API's check says what is wrong at `file`.
 */
export interface CsvRow {
  /** The API's row number: the header is row 1. */
  row: number;
  cells: string[];
}

export interface CsvTable {
  /** Column names as the API reads them (trimmed). */
  header: string[];
  rows: CsvRow[];
}

const BOM = '\uFEFF';

/** What may separate a file's cells: Excel writes `;` where the decimal mark is a comma (pt, de, fr…). */
export type CsvSeparator = ',' | ';' | '\t';

/** The records of CSV text, each a list of cells; blank lines are left out. */
function records(text: string, separator: CsvSeparator): string[][] {
  const out: string[][] = [];
  let cells: string[] = [];
  let cell = '';
  // Whether the line being read has anything (a character or a quote): an empty line is no record.
  let started = false;
  let quoted = false;
  let lineEnd: string | null = null;
  const endLine = () => {
    if (started) out.push([...cells, cell]);
    cells = [];
    cell = '';
    started = false;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch !== '"') cell += ch;
      else if (text[i + 1] === '"') {
        cell += '"';
        i++;
      } else quoted = false;
      continue;
    }
    if (ch === '"' && cell === '') {
      quoted = true;
      started = true;
    } else if (ch === separator) {
      cells.push(cell);
      cell = '';
      started = true;
    } else if ((ch === '\r' || ch === '\n') && (lineEnd === null || text.startsWith(lineEnd, i))) {
      // As csv-parse does, the first line end read (CRLF, LF or CR) is the file's; another one is text of its cell.
      lineEnd ??= ch === '\r' && text[i + 1] === '\n' ? '\r\n' : ch;
      i += lineEnd.length - 1;
      endLine();
    } else {
      cell += ch;
      started = true;
    }
  }
  endLine();
  return out;
}

/**
 * The separator a file's header row uses: of `,` `;` and tab, the one it has most of outside
 * quotes (a heading such as "Price; EUR" in quotes is no separator); a comma when it has none.
 */
export function detectSeparator(text: string): CsvSeparator {
  const counts = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (const ch of text.startsWith(BOM) ? text.slice(1) : text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\r' || ch === '\n')) break;
    else if (!quoted && ch in counts) counts[ch as CsvSeparator]++;
  }
  const [best] = (Object.keys(counts) as CsvSeparator[]).sort((a, b) => counts[b] - counts[a]);
  return best && counts[best] > 0 ? best : ',';
}

export function readCsvText(text: string, separator: CsvSeparator = ','): CsvTable {
  const [header = [], ...body] = records(text.startsWith(BOM) ? text.slice(1) : text, separator);
  return { header: header.map((name) => name.trim()), rows: body.map((cells, i) => ({ row: i + 2, cells })) };
}
