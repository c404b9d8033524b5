/**
 * The cafe menu import's pure part (console/src/cafes/menu-import.ts): its columns are the API's
 * bulk-insert entry fields, the sample is a menu the API takes, CSV rows become the body's entries
 * (prices as numbers, lists split, blanks left out, the chosen currency where none is named),
 * problems land at the row and cell the API's own schema names (one category in two groups, a
 * comma price, an unknown currency), header problems at their heading or the file, the counts are
 * the groups and categories the API makes, and the API's paths (`items[3].price`) map back to the
 * file's rows. Excel's European files: semicolons or tabs found in the header row (quotes
 * respected), decimal commas in prices, headings in pt/es/fr/de, a photo column left out.
 */
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { apiProblems, countsText, formatText, MENU_COLUMNS, previewMenu, sampleMenuCsv } from '#console/src/cafes/menu-import.js';
import { reportOf } from '#console/src/bulk/report.js';
import { bulkInsertBody, GENERAL_GROUP } from '#domain/cafes/bulk-insert-schema.js';
import { MENU_ITEMS_MAX } from '#domain/cafes/schema-parts.js';

const HEADER = 'name,price,currency,category,group,description,ingredients';
const csv = (...rows: string[]) => `${[HEADER, ...rows].join('\r\n')}\r\n`;

describe('the columns', () => {
  it('are the API bulk-insert entry’s fields, required and optional alike (currency: the chosen one when blank)', () => {
    const entry = bulkInsertBody.shape.items.element;
    const shape = entry.shape as Record<string, { safeParse(v: unknown): { success: boolean } }>;
    const optional = Object.keys(shape).filter((k) => shape[k]!.safeParse(undefined).success);
    expect(
      MENU_COLUMNS.filter((c) => c.required)
        .map((c) => c.name)
        .sort(),
    ).toEqual(
      Object.keys(shape)
        .filter((k) => !optional.includes(k) && k !== 'currency')
        .sort(),
    );
    expect(
      MENU_COLUMNS.filter((c) => !c.required)
        .map((c) => c.name)
        .sort(),
    ).toEqual([...optional, 'currency'].sort());
  });

  it('the sample is a menu the API takes: two groups and General, four categories', () => {
    const sample = sampleMenuCsv();
    const preview = previewMenu(sample);
    expect(preview.problems).toEqual([]);
    expect(preview.counts).toEqual({ items: 5, categories: 4, groups: 3 });
    expect(bulkInsertBody.safeParse(preview.body).success).toBe(true);
    // csv-parse (the API's CSV reader elsewhere) reads the same cells.
    // With options, csv-parse's typings pick the overload of `columns` (unknown rows); the assertion
    // the rule calls unnecessary is what says these rows are strings.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
    const records = parse(sample, { bom: true, skip_empty_lines: true }) as string[][];
    expect(records.slice(1)).toEqual(preview.table.rows.map((r) => r.cells));
    expect(preview.body!.items[1]).toEqual({
      name: 'Flat white',
      price: 3.2,
      currency: 'EUR',
      category: 'Coffee',
      group: 'Drinks',
      description: 'Double shot, steamed milk',
      ingredients: ['coffee', 'milk'],
      allergens: ['Milk'],
    });
    expect(preview.body!.items[3]).toMatchObject({ tags: ['vegetarian'], allergens: ['Gluten', 'Eggs', 'Milk'] });
    // A row with no group: none is sent, so the API puts it in the General group.
    expect(preview.body!.items[4]).toEqual({ name: 'Toast', price: 2, currency: 'EUR', category: 'Breakfast', spice_level: 'none' });
  });
});

describe('previewing a file', () => {
  it('marks each bad cell with the API schema’s message, at the spreadsheet’s row', () => {
    const preview = previewMenu(
      csv(
        'Espresso,2.50,EUR,Coffee,Drinks,,coffee', // row 2: fine
        ',3,EUR,Coffee,Drinks,,', // row 3: no name
        'Latte,"3,50",EUR,Coffee,Drinks,,', // row 4: a comma price
        'Tea,1.2345,EUR,Tea,Drinks,,', // row 5: four decimals
        'Cake,4,EURO,Cakes,Food,,', // row 6: not a currency code
        'Mocha,4,EUR,coffee,Food,,', // row 7: Coffee is already in Drinks
        'Scone,2,,Cakes,Food,,', // row 8: no currency: the chosen one, here not a currency
      ),
      { currency: 'XX' },
    );
    expect(preview.body).toBeNull();
    const report = reportOf(preview.problems);
    const cells = [...report.rows].sort(([a], [b]) => a - b).map(([row, columns]) => [row, Object.fromEntries(columns)]);
    expect(cells).toEqual([
      [3, { name: 'Required' }],
      [4, { price: 'Must be a number from 0 to 999999999.999 with at most 3 decimals' }],
      [5, { price: 'Must be a number from 0 to 999999999.999 with at most 3 decimals' }],
      [6, { currency: 'Must be an ISO 4217 currency code such as USD' }],
      // The API names the other entry by its index; the preview by its row.
      [7, { group: 'Category "Coffee" is already in group "Drinks" (row 2); a category is in one group' }],
      [8, { currency: 'Must be an ISO 4217 currency code such as USD' }],
    ]);
    expect(preview.counts).toEqual({ items: 7, categories: 3, groups: 2 });
  });

  it('counts groups and categories as the API makes them: ignoring case, blanks in General', () => {
    const preview = previewMenu(
      csv('A,1,EUR,Coffee,Drinks,,', 'B,1,EUR,COFFEE,drinks,,', 'C,1,eur,Bread,,,', `D,1,EUR,Soup,${GENERAL_GROUP.toLowerCase()},,`),
    );
    expect(preview.problems).toEqual([]);
    expect(preview.counts).toEqual({ items: 4, categories: 3, groups: 2 });
  });

  it('reads columns in any order and case, trims cells, splits ingredients on semicolons and drops blank ones', () => {
    const preview = previewMenu('Category,NAME,Price,currency,ingredients\r\n Coffee , Espresso ,2,EUR,"coffee; ;water ;"\r\n');
    expect(preview.problems).toEqual([]);
    expect(preview.body).toEqual({
      items: [{ category: 'Coffee', name: 'Espresso', price: 2, currency: 'EUR', ingredients: ['coffee', 'water'] }],
    });
  });

  it('says what is wrong with the header at its heading, and a missing column at the file', () => {
    const report = reportOf(previewMenu('name,price,Preço,colour\r\nA,1,2,red\r\n').problems);
    expect(Object.fromEntries(report.header)).toEqual({
      2: 'This column is named twice',
      3: 'Not a menu column; the columns are name, price, currency, category, group, description, ingredients, tags, allergens, spice_level',
    });
    expect(report.batch).toEqual({ file: 'The header row lacks the column category' });
    expect(report.rows.size).toBe(0);
  });

  it('refuses an empty file and one with no rows, at the file', () => {
    expect(previewMenu('').problems).toEqual([
      { path: 'file', message: 'The file is empty: it needs a header row, then one row per item' },
    ]);
    expect(previewMenu(`${HEADER}\r\n\r\n`).problems).toEqual([
      { path: 'file', message: 'The file has a header row but no items under it' },
    ]);
  });

  it('marks a row with more or fewer cells than the header', () => {
    const report = reportOf(previewMenu(csv('A,1,EUR,Coffee,,,,extra', 'B,1,EUR,Coffee')).problems);
    expect(Object.fromEntries(report.rows.get(2)!)).toEqual({ '': 'This row has 8 cells; the header has 7' });
    expect(Object.fromEntries(report.rows.get(3)!)).toEqual({ '': 'This row has 4 cells; the header has 7' });
  });

  it(`refuses more than ${MENU_ITEMS_MAX} rows at the file, as the API would`, () => {
    const rows = Array.from({ length: MENU_ITEMS_MAX + 1 }, (_, i) => `Item ${i},1,EUR,Cat ${i % 10},,,`);
    const preview = previewMenu(csv(...rows));
    expect(preview.problems).toEqual([{ path: 'file', message: `Must have at most ${MENU_ITEMS_MAX} items` }]);
    expect(preview.body).toBeNull();
  });
});

describe('Excel’s European files', () => {
  it('reads a semicolon file with decimal commas, as Excel writes it in pt, de or fr, and says so', () => {
    const preview = previewMenu('\uFEFFNome;Preço;Categoria\r\nGalão;2,50;Café\r\nBolo;1.234,50;Pastelaria\r\nÁgua;1;Bebidas\r\n');
    expect(preview.format).toEqual({ separator: ';', decimalComma: true });
    expect(formatText(preview.format)).toBe('Separated by semicolons; prices with decimal commas');
    expect(preview.problems).toEqual([]);
    expect(preview.body).toEqual({
      items: [
        { name: 'Galão', price: 2.5, category: 'Café', currency: 'EUR' },
        { name: 'Bolo', price: 1234.5, category: 'Pastelaria', currency: 'EUR' },
        { name: 'Água', price: 1, category: 'Bebidas', currency: 'EUR' },
      ],
    });
  });

  it('finds the separator in the header row outside quotes: a quoted heading or cell with ; is one cell', () => {
    const semicolons = previewMenu('"Name";"Price";"Category";"Description"\r\n"Toast";"2,00";"Food; hot";"Butter; jam, honey"\r\n');
    expect(semicolons.format).toEqual({ separator: ';', decimalComma: true });
    expect(semicolons.body!.items).toEqual([
      { name: 'Toast', price: 2, category: 'Food; hot', description: 'Butter; jam, honey', currency: 'EUR' },
    ]);
    // Commas separate it, though the quoted heading has two semicolons: "2,50" stays refused (it might be 250).
    const commas = previewMenu('name,"price; in EUR; VAT",category\r\nA,"2,50",X\r\nB,2.50,X\r\n');
    expect(commas.format).toEqual({ separator: ',', decimalComma: false });
    expect(formatText(commas.format)).toBe('Separated by commas');
    expect(commas.table.header).toEqual(['name', 'price; in EUR; VAT', 'category']);
  });

  it('reads tabs, and decimal points where no price has a comma', () => {
    const preview = previewMenu('Name\tPreis\tKategorie\tWährung\r\nKaffee\t2.50\tGetränke\tchf\r\n');
    expect(formatText(preview.format)).toBe('Separated by tabs');
    expect(preview.body!.items).toEqual([{ name: 'Kaffee', price: 2.5, category: 'Getränke', currency: 'chf' }]);
  });

  it('takes allergens, diets, spice levels in en/pt/es/fr/de headings, lists split on , ; or |, and leaves photos out', () => {
    const preview = previewMenu(
      [
        'NOMBRE;Precio;Categoría;Alérgenos;Dieta;Picante;Foto URL;Descripción',
        'Chili;8,90;Platos;Gluten | Apio;vegan, gluten-free;3;https://example.com/chili.jpg;"Muy picante; con arroz"',
        'Sopa;4;Platos;;;Medium hot;;',
        'Pan;1;Platos;"Gluten;Sesamo";;none;;',
      ].join('\n'),
      { currency: 'MXN' },
    );
    expect(preview.problems).toEqual([]);
    expect(preview.notImported).toEqual(['Foto URL']);
    expect(preview.body!.items).toEqual([
      {
        name: 'Chili',
        price: 8.9,
        category: 'Platos',
        allergens: ['Gluten', 'Apio'],
        tags: ['vegan', 'gluten-free'],
        spice_level: 'hot',
        description: 'Muy picante; con arroz',
        currency: 'MXN',
      },
      { name: 'Sopa', price: 4, category: 'Platos', spice_level: 'medium', currency: 'MXN' },
      { name: 'Pan', price: 1, category: 'Platos', allergens: ['Gluten', 'Sesamo'], spice_level: 'none', currency: 'MXN' },
    ]);
    expect(bulkInsertBody.safeParse(preview.body).success).toBe(true);
  });

  it('marks a bad cell under the file’s own heading, in the API schema’s words', () => {
    const preview = previewMenu('Nom;Prix;Catégorie;Piquant\nCroque;2,5,0;Snacks;très\n');
    const report = reportOf(preview.problems);
    expect(Object.fromEntries(report.rows.get(2)!)).toEqual({
      Prix: 'Must be a number from 0 to 999999999.999 with at most 3 decimals',
      Piquant: 'Must be one of: none, mild, medium, hot, extra_hot',
    });
  });
});

describe('the API’s refusal', () => {
  it('maps items[i].<field> to the file’s row and column; anything else to the file', () => {
    const preview = previewMenu(csv('A,1,EUR,Coffee,,,', 'B,1,EUR,Coffee,,,', 'C,1,EUR,Tea,,,'));
    expect(
      apiProblems(
        [
          { path: 'items[2].price', message: 'Too dear' },
          { path: 'items[0].group', message: 'Category "tea" is already in group "General" (entry 2); a category is in one group' },
          { path: 'items', message: 'Too many' },
        ],
        preview,
      ),
    ).toEqual([
      { path: 'file.row[4].price', message: 'Too dear' },
      { path: 'file.row[2].group', message: 'Category "tea" is already in group "General" (row 4); a category is in one group' },
      { path: 'file', message: 'Too many' },
    ]);
  });
});

it('says the counts in words', () => {
  expect(countsText({ items: 1, categories: 1, groups: 1 })).toBe('1 item in 1 category and 1 group');
  expect(countsText({ items: 1500, categories: 12, groups: 3 })).toBe('1,500 items in 12 categories and 3 groups');
});
