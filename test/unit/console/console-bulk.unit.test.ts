/**
 * The bulk screen's pure parts: the columns it lists (held to the API's record schemas), the sample
 * files (valid batches as the API reads them), CSV text → preview rows numbered as the API numbers
 * them (compared with csv-parse, the API's reader), the API's error paths → row/column cells, and
 * the summary and progress in words.
 */
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { BULK_COLUMNS, sampleCsv, type BulkType } from '#console/src/bulk/columns.js';
import { readCsvText } from '#console/src/bulk/csv.js';
import { newIdempotencyKey, progressText, reportOf, summaryText } from '#console/src/bulk/report.js';
import { csvIssuePath, readBulkCsv } from '#domain/bulk/csv.js';
import { idempotencyKeyOf } from '#infra/jobs/bulk-idempotency.js';
import { bulkBodySchema } from '#api/routes/bulk-generate/schemas.js';
import { BULK_TYPES, bulkRecordSchemas } from '#domain/bulk/schemas.js';
import { zodIssuesToFieldErrors } from '#domain/errors.js';

/** What the API answers for a CSV form of `type` (its schema check, paths as the CSV form names them). */
function apiErrors(type: BulkType, csv: string) {
  const { records, rows } = readBulkCsv(type, Buffer.from(csv));
  const parsed = bulkBodySchema.safeParse({ type, data: records });
  if (parsed.success) return [];
  return zodIssuesToFieldErrors(parsed.error.issues.map((i) => ({ ...i, path: csvIssuePath(i.path, rows) }))).listed;
}

describe('the columns each type takes', () => {
  it('are the API record schema’s fields, required and optional alike', () => {
    expect(Object.keys(BULK_COLUMNS).sort()).toEqual([...BULK_TYPES].sort());
    for (const type of BULK_TYPES) {
      const shape = bulkRecordSchemas[type].shape as Record<string, { safeParse(v: unknown): { success: boolean } }>;
      const apiOptional = Object.keys(shape).filter((k) => shape[k]!.safeParse(undefined).success);
      const apiRequired = Object.keys(shape).filter((k) => !apiOptional.includes(k));
      const columns = BULK_COLUMNS[type];
      expect(
        columns
          .filter((c) => c.required)
          .map((c) => c.name)
          .sort(),
        type,
      ).toEqual(apiRequired.sort());
      expect(
        columns
          .filter((c) => !c.required)
          .map((c) => c.name)
          .sort(),
        type,
      ).toEqual(apiOptional.sort());
    }
  });

  it('each sample file is a batch the API accepts, its header every column', () => {
    for (const type of BULK_TYPES) {
      const csv = sampleCsv(type);
      expect(readCsvText(csv).header).toEqual(BULK_COLUMNS[type].map((c) => c.name));
      expect(readBulkCsv(type, Buffer.from(csv)).records).toHaveLength(2);
      expect(apiErrors(type, csv), type).toEqual([]);
    }
  });
});

describe('CSV text → preview rows', () => {
  const cases = [
    'name,url\nA,https://example.com/a\nB,https://example.com/b\n',
    '\uFEFFname,url\r\n"Table 1, window",https://example.com/a\r\nTable 2,"https://example.com/b?x=1,2"',
    'name,url\n\nA,x\n\n\nB,y\n',
    'name,url\n"Two\nlines","say ""hi"""\nC,z\nD,w\n',
    'name,url\rA,x\rB,y',
    'name,url\nA,x\rB\n',
    'name,url\n"",\n,\n',
  ];

  it('reads cells as csv-parse does (BOM, CRLF, quotes, blank lines left out)', () => {
    for (const text of cases) {
      const table = readCsvText(text);
      // With options, csv-parse's typings pick the overload of `columns` (unknown rows); the assertion
      // the rule calls unnecessary is what says these rows are strings.
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
      const expected = parse(text, { bom: true, skip_empty_lines: true }) as string[][];
      expect([table.header, ...table.rows.map((r) => r.cells)], JSON.stringify(text)).toEqual(expected);
    }
  });

  it('numbers rows as the API does: the header is row 1, blank lines do not count', () => {
    for (const text of cases) {
      expect(
        readCsvText(text).rows.map((r) => r.row),
        JSON.stringify(text),
      ).toEqual(readBulkCsv('website', Buffer.from(text)).rows);
    }
    expect(readCsvText('name,url\n\nA,x\n\n\nB,y\n').rows).toEqual([
      { row: 2, cells: ['A', 'x'] },
      { row: 3, cells: ['B', 'y'] },
    ]);
  });

  it('trims header names as the API does; keeps going where csv-parse would refuse the file', () => {
    expect(readCsvText(' name , url\n').header).toEqual(['name', 'url']);
    expect(readCsvText('name,url\nA\nB,x,extra\n"open,y\n').rows.map((r) => r.cells)).toEqual([['A'], ['B', 'x', 'extra'], ['open,y\n']]);
    expect(readCsvText('name,url\nA,x\r\nB,y\n').rows.map((r) => r.cells)).toEqual([
      ['A', 'x\r'],
      ['B', 'y'],
    ]);
    expect(readCsvText('')).toEqual({ header: [], rows: [] });
  });
});

describe('the API’s error paths → cells', () => {
  it('places the API’s own answer for a file at the rows and columns of the preview', () => {
    const csv = 'url,name\nhttps://example.com/1,One\nnot a url,Two\nhttps://example.com/3,\n\n"https://example.com/4",Four\n';
    const errors = apiErrors('website', csv);
    expect(errors).toEqual([
      { path: 'file.row[3].url', message: 'Must be a valid URL' },
      { path: 'file.row[4].name', message: 'Required' },
    ]);
    const report = reportOf(errors);
    const table = readCsvText(csv);
    const cell = (row: number, column: string) => table.rows.find((r) => r.row === row)!.cells[table.header.indexOf(column)];
    expect([...report.rows.keys()]).toEqual([3, 4]);
    expect(report.rows.get(3)).toEqual(new Map([['url', 'Must be a valid URL']]));
    expect(cell(3, 'url')).toBe('not a url');
    expect(report.rows.get(4)).toEqual(new Map([['name', 'Required']]));
    expect(cell(4, 'name')).toBe('');
  });

  it('a column the file lacks is still named at its row; several problems of one cell are joined', () => {
    const report = reportOf([
      { path: 'file.row[2].url', message: 'Required' },
      { path: 'file.row[2].name', message: 'Must be at most 255 characters' },
      { path: 'file.row[2].name', message: 'Must not hold control characters' },
      { path: 'file.row[7]', message: 'Must be an object' },
    ]);
    expect(report.rows.get(2)).toEqual(
      new Map([
        ['url', 'Required'],
        ['name', 'Must be at most 255 characters; Must not hold control characters'],
      ]),
    );
    expect(report.rows.get(7)).toEqual(new Map([['', 'Must be an object']]));
  });

  it('header, file and batch problems go to their controls; the rest is listed', () => {
    const report = reportOf(
      [
        { path: 'file.header', message: 'Unknown or repeated columns; the columns of website records are: url, name' },
        { path: 'file.header[1]', message: 'Unknown column "link"' },
        { path: 'file', message: 'Not a readable CSV file' },
        { path: 'type', message: 'Required' },
        { path: 'folderId', message: 'Folder not found' },
        { path: 'templateId', message: 'Template not found' },
        { path: 'qrOptions.image', message: 'Image not found' },
      ],
      3,
    );
    expect(report.header).toEqual(new Map([[1, 'Unknown column "link"']]));
    expect(report.batch).toEqual({
      file: 'Unknown or repeated columns; the columns of website records are: url, name; Not a readable CSV file',
      type: 'Required',
      folderId: 'Folder not found',
      templateId: 'Template not found',
    });
    expect(report.other).toEqual(['qrOptions.image: Image not found']);
    expect(report.rows.size).toBe(0);
    expect(report.omitted).toBe(3);
  });
});

describe('in words', () => {
  const bad = (...rows: number[]) => reportOf(rows.map((row) => ({ path: `file.row[${row}].url`, message: 'Must be a valid URL' })));

  it('summarises the check', () => {
    expect(summaryText(200, reportOf([]))).toBe('200 rows ready.');
    expect(summaryText(1, reportOf([]))).toBe('1 row ready.');
    expect(summaryText(200, bad(5, 9))).toBe('198 rows ready, 2 need fixing.');
    expect(summaryText(2, bad(2))).toBe('1 row ready, 1 needs fixing.');
    expect(summaryText(200, reportOf([{ path: 'folderId', message: 'Folder not found' }]))).toBe(
      '200 rows ready, but the batch cannot be made yet: fix the problems shown above.',
    );
    expect(summaryText(null, reportOf([{ path: 'file', message: 'The file is empty' }]))).toBe(
      'The rows could not be read: fix the problems shown at the file and check again.',
    );
  });

  it('says the problems the API counted but did not list', () => {
    const many = reportOf(
      Array.from({ length: 100 }, (_, i) => ({ path: `file.row[${i + 2}].url`, message: 'Required' })),
      1100,
    );
    expect(summaryText(1200, many)).toBe(
      'At least 100 of 1200 rows need fixing. The check lists the first problems only; 1100 more are not shown: fix these and check again to see the rest.',
    );
  });

  it('follows the job: waiting, making, drawing in steps of ten, done, failed', () => {
    expect(progressText('queued', 0, undefined)).toBe('Waiting for its turn…');
    expect(progressText('active', 4, undefined)).toBe('Making the links… 0%');
    expect(progressText('active', 47, 200)).toBe('200 links made; drawing their codes… 40%');
    expect(progressText('completed', 100, 200)).toBe('Done: 200 links made. The ZIP of their codes is ready.');
    expect(progressText('completed', 100, 1)).toBe('Done: 1 link made. The ZIP of their codes is ready.');
    expect(progressText('failed', 40, 200)).toBe('The 200 links were made, but the ZIP of their codes could not be made.');
    expect(progressText('failed', 0, undefined)).toBe('The batch failed; no links were made.');
  });

  it('makes Idempotency-Keys the API takes, a new one each time', () => {
    const keys = new Set(Array.from({ length: 50 }, newIdempotencyKey));
    expect(keys.size).toBe(50);
    for (const key of keys) expect(idempotencyKeyOf(key)).toBe(key);
  });
});
