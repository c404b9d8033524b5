/**
 * A whole menu from a CSV file, for POST /cafes/:id/items/bulk-insert: one row per item, its
 * columns the body's entry fields. The rows are read as the Bulk page reads its files
 * (bulk/csv.ts) and checked with the API's own schema (domain/cafes/bulk-insert-schema.ts), so the
 * preview marks exactly what the API would refuse, in its words, before anything is sent. Problems
 * are written with the Bulk page's paths (`file.row[N].<column>`, `file.header[i]`, `file`), so its
 * report (bulk/report.ts) places them in the same table.
 */
import { bulkInsertBody, groupKeyOf } from '../../../domain/cafes/bulk-insert-schema.js';
import { csvText, type Column } from '../bulk/columns.js';
import { readCsvText, type CsvTable } from '../bulk/csv.js';
import type { FieldProblem } from '../bulk/report.js';
import type { paths } from '../api/schema.js';

export type BulkInsertBody = paths['/api/v1/cafes/{id}/items/bulk-insert']['post']['requestBody']['content']['application/json'];
type Entry = BulkInsertBody['items'][number];

/** What separates the ingredients in their one cell ("milk; coffee"): commas separate the cells. */
export const INGREDIENT_SEPARATOR = ';';

/** The columns, in the sample's order; the required ones are the entry's required fields. */
export const MENU_COLUMNS: readonly Column[] = [
  { name: 'name', required: true, hint: 'the dish as guests read it' },
  { name: 'price', required: true, hint: 'a number such as 3.50, with a point' },
  { name: 'currency', required: true, hint: 'ISO code such as EUR' },
  { name: 'category', required: true, hint: 'rows naming the same one share it' },
  { name: 'group', required: false, hint: 'such as Drinks; when blank, the General group' },
  { name: 'description', required: false },
  { name: 'ingredients', required: false, hint: `separated by ${INGREDIENT_SEPARATOR}` },
];

const COLUMN_NAMES = MENU_COLUMNS.map((c) => c.name);

const SAMPLE_ROWS: ReadonlyArray<Readonly<Record<string, string>>> = [
  { name: 'Espresso', price: '2.50', currency: 'EUR', category: 'Coffee', group: 'Drinks', ingredients: 'coffee' },
  {
    name: 'Flat white',
    price: '3.20',
    currency: 'EUR',
    category: 'Coffee',
    group: 'Drinks',
    description: 'Double shot, steamed milk',
    ingredients: 'coffee; milk',
  },
  { name: 'Fresh orange juice', price: '3.80', currency: 'EUR', category: 'Juices', group: 'Drinks' },
  { name: 'Pastel de nata', price: '1.40', currency: 'EUR', category: 'Pastries', group: 'Food', description: 'Baked every morning' },
  { name: 'Toast', price: '2', currency: 'EUR', category: 'Breakfast' },
];

/** The sample file: every column as its header, then rows in two groups and one without (General). */
export function sampleMenuCsv(): string {
  return csvText([COLUMN_NAMES, ...SAMPLE_ROWS.map((row) => COLUMN_NAMES.map((n) => row[n] ?? ''))]);
}

export interface MenuPreview {
  table: CsvTable;
  /** Every problem, with the Bulk page's paths; none means `body` is what the API takes. */
  problems: FieldProblem[];
  /** What the menu will hold, counted as the API makes it (the General group included). */
  counts: { items: number; categories: number; groups: number };
  /** The body to send, once nothing is wrong. */
  body: BulkInsertBody | null;
}

const rowPath = (row: number, column?: string) => `file.row[${row}]${column ? `.${column}` : ''}`;

/** A cell as the entry's field: blank cells are left out (an optional field unset, a required one "Required"). */
function entryOf(cells: ReadonlyMap<string, string>): Record<string, unknown> {
  const entry: Record<string, unknown> = {};
  for (const [column, raw] of cells) {
    const text = raw.trim();
    if (text === '') continue;
    if (column === 'price') {
      // A plain decimal is the JSON number the API takes; anything else goes as text, which the schema refuses in its words.
      entry.price = /^\d+(?:\.\d+)?$/.test(text) ? Number(text) : text;
    } else if (column === 'ingredients') {
      entry.ingredients = text
        .split(INGREDIENT_SEPARATOR)
        .map((s) => s.trim())
        .filter((s) => s !== '');
    } else entry[column] = text;
  }
  return entry;
}

/** Problems of the header: unknown and repeated columns at their heading, missing required ones at the file. */
function headerProblems(header: readonly string[]): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const seen = new Set<string>();
  header.forEach((name, i) => {
    const column = name.toLowerCase();
    if (!COLUMN_NAMES.includes(column))
      problems.push({ path: `file.header[${i}]`, message: `Not a menu column; the columns are ${COLUMN_NAMES.join(', ')}` });
    else if (seen.has(column)) problems.push({ path: `file.header[${i}]`, message: 'This column is named twice' });
    seen.add(column);
  });
  const missing = MENU_COLUMNS.filter((c) => c.required && !seen.has(c.name)).map((c) => c.name);
  if (missing.length > 0)
    problems.push({ path: 'file', message: `The header row lacks the column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}` });
  return problems;
}

/**
 * The file's rows as the preview shows them and the API would take them. Column names are matched
 * ignoring case; cells are trimmed (spreadsheets pad them).
 */
export function previewMenu(text: string): MenuPreview {
  const table = readCsvText(text);
  const counts = { items: table.rows.length, categories: 0, groups: 0 };
  if (table.header.length === 0 || (table.header.length === 1 && table.header[0] === '')) {
    return {
      table,
      problems: [{ path: 'file', message: 'The file is empty: it needs a header row, then one row per item' }],
      counts,
      body: null,
    };
  }
  const problems = headerProblems(table.header);
  if (problems.length > 0) return { table, problems, counts, body: null };
  if (table.rows.length === 0)
    return { table, problems: [{ path: 'file', message: 'The file has a header row but no items under it' }], counts, body: null };

  const columns = table.header.map((name) => name.toLowerCase());
  const entries = table.rows.map(({ cells }) => entryOf(new Map(columns.map((column, i) => [column, cells[i] ?? '']))));
  for (const { row, cells } of table.rows) {
    if (cells.length !== columns.length)
      problems.push({ path: rowPath(row), message: `This row has ${cells.length} cells; the header has ${columns.length}` });
  }
  counts.categories = new Set(
    entries.map((e) => (typeof e.category === 'string' ? e.category.toLowerCase() : null)).filter((c) => c !== null),
  ).size;
  counts.groups = new Set(entries.map((e) => groupKeyOf({ group: typeof e.group === 'string' ? e.group : undefined }))).size;

  const checked = bulkInsertBody.safeParse({ items: entries });
  if (!checked.success)
    problems.push(
      ...checked.error.issues.map((issue) => ({ path: problemPath(issue.path, table), message: messageOf(issue.message, table) })),
    );
  return { table, problems, counts, body: problems.length === 0 ? ({ items: entries } as unknown as BulkInsertBody) : null };
}

/** A path of the bulk-insert body (`items[3].price` as zod's ['items', 3, 'price']) as the file's row and column. */
function problemPath(path: ReadonlyArray<PropertyKey>, table: CsvTable): string {
  const [top, index, column] = path;
  if (top !== 'items' || typeof index !== 'number') return 'file';
  const row = table.rows[index]?.row;
  return row === undefined ? 'file' : rowPath(row, typeof column === 'string' ? column : undefined);
}

/** A message naming another entry ("already in group … (entry 0)") names its row of the file instead. */
function messageOf(message: string, table: CsvTable): string {
  return message.replace(/\(entry (\d+)\)/, (said, index: string) => {
    const row = table.rows[Number(index)]?.row;
    return row === undefined ? said : `(row ${row})`;
  });
}

/** The API's 400 for the body (paths `items[3].price`) in the file's terms, should it refuse what the preview passed. */
export function apiProblems(errors: ReadonlyArray<FieldProblem>, table: CsvTable): FieldProblem[] {
  return errors.map(({ path, message }) => {
    const parts = /^items\[(\d+)\](?:\.([a-z_]+))?/.exec(path);
    return {
      path: parts ? problemPath(['items', Number(parts[1]), ...(parts[2] ? [parts[2]] : [])], table) : 'file',
      message: messageOf(message, table),
    };
  });
}

/** The counts in words: "500 items in 12 categories and 3 groups". */
export function countsText({ items, categories, groups }: MenuPreview['counts']): string {
  const n = (count: number, one: string, many: string) => `${count.toLocaleString('en')} ${count === 1 ? one : many}`;
  return `${n(items, 'item', 'items')} in ${n(categories, 'category', 'categories')} and ${n(groups, 'group', 'groups')}`;
}
