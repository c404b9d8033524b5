/**
 * A whole menu from a CSV file, for POST /cafes/:id/items/bulk-insert: one row per item, its
 * columns the body's entry fields, headed in English, Portuguese, Spanish, French or German. The
 * rows are read as the Bulk page reads its files (bulk/csv.ts), separated by the commas, semicolons
 * or tabs of the header row (Excel writes semicolons and decimal commas in pt, de, fr…), and
 * checked with the API's own schema (domain/cafes/bulk-insert-schema.ts), so the preview marks
 * exactly what the API would refuse, in its words, before anything is sent. Problems are written
 * with the Bulk page's paths (`file.row[N].<heading>`, `file.header[i]`, `file`), so its report
 * (bulk/report.ts) places them in the same table, under the file's own headings.
 */
import { bulkInsertBody, groupKeyOf } from '#domain/cafes/bulk-insert-schema.js';
import { csvText, type Column } from '../bulk/columns.js';
import { detectSeparator, readCsvText, type CsvSeparator, type CsvTable } from '../bulk/csv.js';
import { SPICE_LABELS } from '#domain/cafes/diets.js';
import { SPICE_LEVELS } from '#domain/cafes/schema-parts.js';
import type { FieldProblem } from '../bulk/report.js';
import type { paths } from '../api/schema.js';

export type BulkInsertBody = paths['/api/v1/cafes/{id}/items/bulk-insert']['post']['requestBody']['content']['application/json'];
type Entry = BulkInsertBody['items'][number];

/** What separates the entries of a list cell (ingredients, tags, allergens): "milk, coffee", "milk; coffee" or "milk|coffee". */
const LIST_SEPARATORS = /[,;|]/;

/** The currency of rows that name none (a file without the column, as a cafe's own spreadsheet often is). */
export const DEFAULT_CURRENCY = 'EUR';

/**
 * The columns, in the sample's order: the entry's fields. The required ones are the entry's
 * required fields, but for currency: rows without one take the currency chosen on the screen.
 */
export const MENU_COLUMNS: readonly Column[] = [
  { name: 'name', required: true, hint: 'the dish as guests read it' },
  { name: 'price', required: true, hint: 'a number such as 3.50; 3,50 in a file separated by semicolons or tabs' },
  { name: 'currency', required: false, hint: 'ISO code such as EUR; when blank or absent, the currency chosen here' },
  { name: 'category', required: true, hint: 'rows naming the same one (in any case) share it, spelled as first written' },
  { name: 'group', required: false, hint: 'such as Drinks; when blank, the General group' },
  { name: 'description', required: false },
  { name: 'ingredients', required: false, hint: 'separated by , ; or |' },
  { name: 'tags', required: false, hint: 'diets such as vegan, gluten-free; separated by , ; or |' },
  { name: 'allergens', required: false, hint: 'such as Gluten, Milk; separated by , ; or |' },
  { name: 'spice_level', required: false, hint: `${SPICE_LEVELS.join(', ')} (or 0 to 4)` },
];

const COLUMN_NAMES = MENU_COLUMNS.map((c) => c.name);
const LIST_COLUMNS: ReadonlySet<string> = new Set(['ingredients', 'tags', 'allergens']);

/**
 * A heading as it is compared: case, accents and punctuation ignored ("Preço" = "preco",
 * "Spice-level" = "spice level").
 */
const headingKey = (heading: string) =>
  heading
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/** Headings a cafe's spreadsheet may use for each column, in en, pt, es, fr and de (as headingKey writes them). */
const HEADINGS: Readonly<Record<string, readonly string[]>> = {
  name: [
    'name',
    'item',
    'dish',
    'product',
    'nome',
    'prato',
    'produto',
    'nombre',
    'plato',
    'producto',
    'nom',
    'plat',
    'produit',
    'gericht',
    'artikel',
    'bezeichnung',
  ],
  price: ['price', 'preco', 'valor', 'precio', 'prix', 'preis'],
  currency: ['currency', 'moeda', 'moneda', 'divisa', 'devise', 'monnaie', 'wahrung'],
  category: ['category', 'categoria', 'categorie', 'kategorie'],
  group: ['group', 'section', 'grupo', 'seccao', 'secao', 'seccion', 'groupe', 'gruppe', 'abschnitt'],
  description: ['description', 'descricao', 'descripcion', 'beschreibung'],
  ingredients: ['ingredients', 'ingredientes', 'zutaten'],
  tags: ['tags', 'tag', 'diet', 'diets', 'dietary', 'dieta', 'dietas', 'regime', 'diat', 'etiquetas', 'etiquettes', 'labels'],
  allergens: ['allergens', 'allergies', 'alergenios', 'alergenos', 'allergenes', 'allergene', 'allergien'],
  spice_level: ['spice level', 'spice', 'spiciness', 'picante', 'nivel de picante', 'piquant', 'scharfe', 'scharfegrad'],
};

/**
 * Headings of a photo's address: the API takes a dish's photo only as an uploaded file, so the
 * column is recognised and left out, the preview saying so (docs/decisions/0377-menu-import-european-csv.md).
 */
const PHOTO_HEADINGS: ReadonlySet<string> = new Set(
  ['photo', 'image', 'picture', 'foto', 'imagem', 'imagen', 'bild'].flatMap((h) => [h, `${h} url`, `url ${h}`]),
);

const fieldOfHeading = new Map(Object.entries(HEADINGS).flatMap(([field, headings]) => headings.map((h) => [h, field] as const)));

/** Spice levels as a spreadsheet may write them: the API's words, the menu page's, or 0 to 4. */
const SPICE_WORDS: ReadonlyMap<string, string> = new Map([
  ...SPICE_LEVELS.flatMap((level, i) => [
    [level, level],
    [headingKey(level), level],
    [String(i), level],
  ]),
  ...Object.entries(SPICE_LABELS).map(([level, label]) => [headingKey(label), level]),
] as Array<[string, string]>);

const SAMPLE_ROWS: ReadonlyArray<Readonly<Record<string, string>>> = [
  { name: 'Espresso', price: '2.50', currency: 'EUR', category: 'Coffee', group: 'Drinks', ingredients: 'coffee', tags: 'vegan' },
  {
    name: 'Flat white',
    price: '3.20',
    currency: 'EUR',
    category: 'Coffee',
    group: 'Drinks',
    description: 'Double shot, steamed milk',
    ingredients: 'coffee, milk',
    allergens: 'Milk',
  },
  { name: 'Fresh orange juice', price: '3.80', currency: 'EUR', category: 'Juices', group: 'Drinks' },
  {
    name: 'Pastel de nata',
    price: '1.40',
    currency: 'EUR',
    category: 'Pastries',
    group: 'Food',
    description: 'Baked every morning',
    tags: 'vegetarian',
    allergens: 'Gluten, Eggs, Milk',
  },
  { name: 'Toast', price: '2', currency: 'EUR', category: 'Breakfast', spice_level: 'none' },
];

/** The sample file: every column as its header, then rows in two groups and one without (General). */
export function sampleMenuCsv(): string {
  return csvText([COLUMN_NAMES, ...SAMPLE_ROWS.map((row) => COLUMN_NAMES.map((n) => row[n] ?? ''))]);
}

/** How a file was read: the separator of its cells, and whether its prices have decimal commas ("2,50"). */
export interface MenuFormat {
  separator: CsvSeparator;
  decimalComma: boolean;
}

export interface MenuPreview {
  table: CsvTable;
  format: MenuFormat;
  /** The entry field of each of the file's headings (null: not imported, or not a menu column). */
  fields: Array<string | null>;
  /** Headings of columns read but not imported (a photo's address), as the file writes them. */
  notImported: string[];
  /** Every problem, with the Bulk page's paths; none means `body` is what the API takes. */
  problems: FieldProblem[];
  /** What the menu will hold, counted as the API makes it (the General group included). */
  counts: { items: number; categories: number; groups: number };
  /** The body to send, once nothing is wrong. */
  body: BulkInsertBody | null;
}

const rowPath = (row: number, column?: string) => `file.row[${row}]${column ? `.${column}` : ''}`;

/** A price with a decimal comma, "2,50" or "1.234,50" (points grouping thousands). */
const DECIMAL_COMMA_PRICE = /^(?:\d+|\d{1,3}(?:\.\d{3})+),\d+$/;

/**
 * A price cell as the JSON number the API takes: a plain decimal ("2.50"), or with a decimal comma
 * read as one ("2,50", "1.234,50"). Anything else goes as text, which the schema refuses in its words.
 */
function priceOf(text: string, decimalComma: boolean): number | string {
  const plain = decimalComma && DECIMAL_COMMA_PRICE.test(text) ? text.replaceAll('.', '').replace(',', '.') : text;
  return /^\d+(?:\.\d+)?$/.test(plain) ? Number(plain) : text;
}

/** A cell as the entry's field: blank cells are left out (an optional field unset, a required one "Required"). */
function entryOf(cells: ReadonlyArray<readonly [string, string]>, format: MenuFormat, currency: string): Record<string, unknown> {
  const entry: Record<string, unknown> = {};
  for (const [field, raw] of cells) {
    const text = raw.trim();
    if (text === '') continue;
    if (field === 'price') entry.price = priceOf(text, format.decimalComma);
    else if (LIST_COLUMNS.has(field))
      entry[field] = text
        .split(LIST_SEPARATORS)
        .map((s) => s.trim())
        .filter((s) => s !== '');
    else if (field === 'spice_level') entry.spice_level = SPICE_WORDS.get(headingKey(text)) ?? text;
    else entry[field] = text;
  }
  // A row without a currency is in the one chosen for the file (an unknown one the schema refuses at the row).
  entry.currency ??= currency;
  return entry;
}

/** The entry field a heading names, 'photo' for a photo's address, or null. */
function fieldOf(heading: string): string | null {
  const key = headingKey(heading);
  return fieldOfHeading.get(key) ?? (PHOTO_HEADINGS.has(key) ? 'photo' : null);
}

/** Problems of the header: unknown and repeated columns at their heading, missing required ones at the file. */
function headerProblems(header: readonly string[], fields: ReadonlyArray<string | null>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const seen = new Set<string>();
  header.forEach((_, i) => {
    const field = fields[i];
    if (!field) problems.push({ path: `file.header[${i}]`, message: `Not a menu column; the columns are ${COLUMN_NAMES.join(', ')}` });
    else if (seen.has(field)) problems.push({ path: `file.header[${i}]`, message: 'This column is named twice' });
    if (field) seen.add(field);
  });
  const missing = MENU_COLUMNS.filter((c) => c.required && !seen.has(c.name)).map((c) => c.name);
  if (missing.length > 0)
    problems.push({ path: 'file', message: `The header row lacks the column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}` });
  return problems;
}

const SEPARATOR_NAMES: Readonly<Record<CsvSeparator, string>> = { ',': 'commas', ';': 'semicolons', '\t': 'tabs' };

/** How the file was read, in words: "Separated by semicolons; prices with decimal commas". */
export function formatText({ separator, decimalComma }: MenuFormat): string {
  return `Separated by ${SEPARATOR_NAMES[separator]}${decimalComma ? '; prices with decimal commas' : ''}`;
}

/**
 * The file's rows as the preview shows them and the API would take them. The separator is the
 * header row's; prices have decimal commas when the cells are not separated by commas and some
 * price is written so ("2,50": with comma separators, a quoted "2,50" is refused, as it might mean
 * 250). Headings are matched ignoring case and accents; cells are trimmed (spreadsheets pad
 * them); rows without a currency take `currency`.
 */
export function previewMenu(text: string, { currency = DEFAULT_CURRENCY }: { currency?: string } = {}): MenuPreview {
  const separator = detectSeparator(text);
  const table = readCsvText(text, separator);
  const fields = table.header.map(fieldOf);
  const base = {
    table,
    format: { separator, decimalComma: false },
    fields: fields.map((f) => (f === 'photo' ? null : f)),
    notImported: table.header.filter((_, i) => fields[i] === 'photo'),
    counts: { items: table.rows.length, categories: 0, groups: 0 },
    body: null,
  };
  if (table.header.length === 0 || (table.header.length === 1 && table.header[0] === ''))
    return { ...base, problems: [{ path: 'file', message: 'The file is empty: it needs a header row, then one row per item' }] };
  const problems = headerProblems(table.header, fields);
  if (problems.length > 0) return { ...base, problems };
  if (table.rows.length === 0) return { ...base, problems: [{ path: 'file', message: 'The file has a header row but no items under it' }] };

  const priceColumn = fields.indexOf('price');
  const format = {
    separator,
    decimalComma: separator !== ',' && table.rows.some(({ cells }) => DECIMAL_COMMA_PRICE.test((cells[priceColumn] ?? '').trim())),
  };
  const { counts } = base;
  const entries = table.rows.map(({ cells }) =>
    entryOf(
      base.fields.flatMap((field, i) => (field ? [[field, cells[i] ?? ''] as const] : [])),
      format,
      currency,
    ),
  );
  for (const { row, cells } of table.rows) {
    if (cells.length !== fields.length)
      problems.push({ path: rowPath(row), message: `This row has ${cells.length} cells; the header has ${fields.length}` });
  }
  counts.categories = new Set(
    entries.map((e) => (typeof e.category === 'string' ? e.category.toLowerCase() : null)).filter((c) => c !== null),
  ).size;
  counts.groups = new Set(entries.map((e) => groupKeyOf({ group: typeof e.group === 'string' ? e.group : undefined }))).size;

  const preview = { ...base, format, counts, problems };
  const body = { items: entries };
  const accepted = conformsToBulkInsert(body, (issues) =>
    problems.push(...issues.map((issue) => ({ path: problemPath(issue.path, preview), message: messageOf(issue.message, table) }))),
  );
  return { ...preview, body: accepted && problems.length === 0 ? body : null };
}

/**
 * Whether the API's own schema accepts `body` as it stands (sent as is: the server parses it again);
 * the issues of a body it refuses go to `refused`. The API's request type is made from this schema.
 */
function conformsToBulkInsert(body: unknown, refused: (issues: readonly BulkInsertIssue[]) => void): body is BulkInsertBody {
  const checked = bulkInsertBody.safeParse(body);
  if (!checked.success) refused(checked.error.issues);
  return checked.success;
}

type BulkInsertIssue = { path: readonly PropertyKey[]; message: string };

type Located = Pick<MenuPreview, 'table' | 'fields'>;

/**
 * A path of the bulk-insert body (`items[3].price` as zod's ['items', 3, 'price']) as the file's
 * row and column, the column under the file's own heading ("Preço"); a field the file has no
 * column for keeps its name (the row's Check cell says it).
 */
function problemPath(path: ReadonlyArray<PropertyKey>, { table, fields }: Located): string {
  const [top, index, field] = path;
  if (top !== 'items' || typeof index !== 'number') return 'file';
  const row = table.rows[index]?.row;
  if (row === undefined) return 'file';
  if (typeof field !== 'string') return rowPath(row);
  const column = fields.indexOf(field);
  return rowPath(row, column === -1 ? field : table.header[column]);
}

/** A message naming another entry ("already in group … (entry 0)") names its row of the file instead. */
function messageOf(message: string, table: CsvTable): string {
  return message.replace(/\(entry (\d+)\)/, (said, index: string) => {
    const row = table.rows[Number(index)]?.row;
    return row === undefined ? said : `(row ${row})`;
  });
}

/** The API's 400 for the body (paths `items[3].price`) in the file's terms, should it refuse what the preview passed. */
export function apiProblems(errors: ReadonlyArray<FieldProblem>, preview: Located): FieldProblem[] {
  return errors.map(({ path, message }) => {
    const parts = /^items\[(\d+)\](?:\.([a-z_]+))?/.exec(path);
    return {
      path: parts ? problemPath(['items', Number(parts[1]), ...(parts[2] ? [parts[2]] : [])], preview) : 'file',
      message: messageOf(message, preview.table),
    };
  });
}

/** The counts in words: "500 items in 12 categories and 3 groups". */
export function countsText({ items, categories, groups }: MenuPreview['counts']): string {
  const n = (count: number, one: string, many: string) => `${count.toLocaleString('en')} ${count === 1 ? one : many}`;
  return `${n(items, 'item', 'items')} in ${n(categories, 'category', 'categories')} and ${n(groups, 'group', 'groups')}`;
}
