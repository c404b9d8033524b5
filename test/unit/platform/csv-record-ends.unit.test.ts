/**
 * CsvRecordEnds: Postgres's CSV (LF record ends) turned into RFC 4180's (CRLF) chunk by chunk,
 * whatever the chunks' boundaries: inside a quoted cell, between a CR and an LF, between the two
 * quotes of a doubled one; and csvCell, one cell read out of a record. The reference here writes
 * CSV the way COPY … (FORMAT csv) does.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvCell, CsvRecordEnds } from '#platform/format/csv-record-ends.js';

/** A cell as COPY writes it: null empty, quoted when empty or holding a comma, a quote, CR or LF. */
const cell = (v: string | null) => (v === null ? '' : v === '' || /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
const record = (cells: Array<string | null>) => cells.map(cell).join(',');

/** Every chunk of `text` cut at `cuts` (byte offsets), converted in order. */
function convertInChunks(bytes: Buffer, cuts: number[]) {
  const ends = new CsvRecordEnds();
  const at = [...new Set([0, ...cuts.map((c) => c % (bytes.length + 1)), bytes.length])].sort((a, b) => a - b);
  const out: Buffer[] = [];
  const last: Array<string | undefined> = [];
  for (let i = 0; i + 1 < at.length; i++) {
    out.push(ends.convert(bytes.subarray(at[i], at[i + 1])));
    last.push(ends.lastRecord()?.toString('utf8'));
  }
  return { text: Buffer.concat(out).toString('utf8'), records: ends.records, last, at };
}

describe('CsvRecordEnds', () => {
  it('turns each record-ending LF into CRLF and counts the records', () => {
    const ends = new CsvRecordEnds();
    expect(ends.convert(Buffer.from('a,b\nc,d\n')).toString()).toBe('a,b\r\nc,d\r\n');
    expect(ends.records).toBe(2);
    expect(ends.lastRecord()?.toString()).toBe('c,d');
  });

  it('leaves line breaks inside quoted cells as they are, doubled quotes included', () => {
    const ends = new CsvRecordEnds();
    const lf = 'x,"a\nb","c\r\nd",""""\n"e""\n""f",g\n';
    expect(ends.convert(Buffer.from(lf)).toString()).toBe('x,"a\nb","c\r\nd",""""\r\n"e""\n""f",g\r\n');
    expect(ends.records).toBe(2);
    expect(ends.lastRecord()?.toString()).toBe('"e""\n""f",g');
  });

  it('gives back a chunk that ends no record as it is, and an empty chunk as empty', () => {
    const ends = new CsvRecordEnds();
    const chunk = Buffer.from('abc,"d');
    expect(ends.convert(chunk)).toBe(chunk);
    expect(ends.convert(Buffer.alloc(0)).length).toBe(0);
    expect(ends.convert(Buffer.from('\n"\n')).toString()).toBe('\n"\r\n');
    expect(ends.records).toBe(1);
    // That record began two chunks before: not whole in this one.
    expect(ends.lastRecord()).toBeUndefined();
  });

  it('keeps the quote state across every cut of a hostile file, one and two cuts at a time', () => {
    const lf = `${record(['"', '\r\n', 'a"\n"b', null, ''])}\n${record(['=1', 'é,東', '\r'])}\n${record(['x'])}\n`;
    const crlf = lf.replace(/\n(?=(?:[^"]*"[^"]*")*[^"]*$)/g, '\r\n');
    expect(crlf.length - lf.length).toBe(3); // the reference's own replacement found the three record ends
    const bytes = Buffer.from(lf);
    for (let i = 0; i <= bytes.length; i++) {
      for (let j = i; j <= bytes.length; j++) {
        const run = convertInChunks(bytes, [i, j]);
        expect(run.text, `cuts ${i}, ${j}`).toBe(crlf);
        expect(run.records).toBe(3);
      }
    }
  });

  it('reads back, cut anywhere, as the same records with CRLF ends; the last whole record of each chunk is the right one', () => {
    const text = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 8 }), fc.stringMatching(/^[",\r\n aé]{0,5}$/));
    const records = fc.array(fc.array(fc.option(text, { nil: null }), { minLength: 1, maxLength: 4 }), { maxLength: 8 });
    fc.assert(
      fc.property(records, fc.array(fc.nat(), { maxLength: 12 }), (rows, cuts) => {
        const encoded = rows.map(record);
        const lf = Buffer.from(encoded.map((r) => `${r}\n`).join(''));
        const run = convertInChunks(lf, cuts);
        expect(run.text).toBe(encoded.map((r) => `${r}\r\n`).join(''));
        expect(run.records).toBe(rows.length);
        // Reference: each record's [start, end) in the LF bytes, end being its LF.
        const spans: Array<[number, number]> = [];
        let at = 0;
        for (const r of encoded) {
          const end = at + Buffer.byteLength(r);
          spans.push([at, end]);
          at = end + 1;
        }
        for (let c = 0; c + 1 < run.at.length; c++) {
          const [from, to] = [run.at[c]!, run.at[c + 1]!];
          const last = spans.filter(([, end]) => end >= from && end < to).at(-1);
          const expected = last && last[0] >= from ? lf.subarray(last[0], last[1]).toString() : undefined;
          expect(run.last[c], `chunk ${from}-${to}`).toBe(expected);
        }
      }),
      { numRuns: 2000, seed: 20261127 },
    );
  });

  it('csvCell reads any cell of a record back, quoted or not; past the last cell, undefined', () => {
    expect(csvCell(Buffer.from('a,"b,""c""\n",,d'), 1)).toBe('b,"c"\n');
    expect(csvCell(Buffer.from('a,"b",,d'), 2)).toBe('');
    expect(csvCell(Buffer.from('a,"b",,d'), 3)).toBe('d');
    expect(csvCell(Buffer.from('a,"b",,d'), 4)).toBeUndefined();
    expect(csvCell(Buffer.from('a,'), 1)).toBe('');
    expect(csvCell(Buffer.from('"a'), 0)).toBeUndefined();
    const text = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 8 }), fc.stringMatching(/^[",\r\n aé]{0,5}$/));
    fc.assert(
      fc.property(fc.array(fc.option(text, { nil: null }), { minLength: 1, maxLength: 6 }), (cells) => {
        const bytes = Buffer.from(record(cells));
        cells.forEach((v, i) => expect(csvCell(bytes, i)).toBe(v ?? ''));
        expect(csvCell(bytes, cells.length)).toBeUndefined();
      }),
      { numRuns: 2000, seed: 20261127 },
    );
  });
});
