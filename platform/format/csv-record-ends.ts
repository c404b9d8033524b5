/**
 * RFC 4180 record ends for CSV that ends its records with a bare LF, as Postgres's
 * `COPY … TO STDOUT (FORMAT csv)` writes it: each LF that ends a record becomes CRLF, chunk by
 * chunk, and a line break inside a quoted cell stays as it is. Such a writer quotes every cell
 * holding a quote, a CR or an LF, so outside quotes an LF can only end a record, and a CR never
 * appears; the one state carried from chunk to chunk is whether the last byte seen was inside
 * quotes (a doubled quote inside a cell closes and reopens them, which comes to the same).
 * UTF-8 is scanned as bytes: no byte of a multi-byte character is a quote or an LF.
 */
const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
const COMMA = 0x2c;

export class CsvRecordEnds {
  /** Records ended so far, over every chunk converted. */
  records = 0;
  private quoted = false;
  /** Whether the next chunk starts a record (the last one ended where its chunk did). */
  private atRecordStart = true;
  /** The last chunk converted and where its records end (the LFs' offsets in it). */
  private chunk: Buffer = Buffer.alloc(0);
  private ends: number[] = [];
  private chunkStartsRecord = true;

  /** `chunk` with its record-ending LFs as CRLF; a chunk that ends none comes back as it is. */
  convert(chunk: Buffer): Buffer {
    const ends = this.ends;
    ends.length = 0;
    this.chunk = chunk;
    this.chunkStartsRecord = this.atRecordStart;
    if (!this.quoted && chunk.indexOf(QUOTE) === -1) {
      // No quote in the chunk: every LF ends a record.
      for (let i = chunk.indexOf(LF); i !== -1; i = chunk.indexOf(LF, i + 1)) ends.push(i);
    } else {
      this.quoted = scanQuoted(chunk, this.quoted, ends);
    }
    const n = ends.length;
    this.records += n;
    if (chunk.length > 0) this.atRecordStart = !this.quoted && n > 0 && ends[n - 1] === chunk.length - 1;
    if (n === 0) return chunk;
    const out = Buffer.allocUnsafe(chunk.length + n);
    let from = 0;
    let at = 0;
    for (const end of ends) {
      at += chunk.copy(out, at, from, end);
      out[at++] = CR;
      out[at++] = LF;
      from = end + 1;
    }
    chunk.copy(out, at, from);
    return out;
  }

  /**
   * The last record ended in the chunk last converted, without its line end, when the whole of it
   * lies in that chunk; else undefined.
   */
  lastRecord(): Buffer | undefined {
    const n = this.ends.length;
    if (n === 0) return undefined;
    if (n >= 2) return this.chunk.subarray(this.ends[n - 2]! + 1, this.ends[n - 1]);
    return this.chunkStartsRecord ? this.chunk.subarray(0, this.ends[0]) : undefined;
  }
}

/** Cell `index` (from 0) of one whole record, unquoted; undefined when the record has fewer. */
export function csvCell(record: Buffer, index: number): string | undefined {
  let at = 0;
  for (let i = 0; ; i++) {
    let end: number;
    if (record[at] === QUOTE) {
      // The closing quote is the first one not doubled.
      let close = at;
      for (;;) {
        close = record.indexOf(QUOTE, close + 1);
        if (close === -1) return undefined;
        if (record[close + 1] !== QUOTE) break;
        close++;
      }
      if (i === index) return record.toString('utf8', at + 1, close).replaceAll('""', '"');
      end = close + 1;
    } else {
      end = record.indexOf(COMMA, at);
      if (end === -1) end = record.length;
      if (i === index) return record.toString('utf8', at, end);
    }
    if (end >= record.length) return undefined;
    at = end + 1;
  }
}

/**
 * The record-ending LFs of a chunk that has quotes, pushed to `ends`; returns whether the chunk
 * ends inside quotes. Jumps from quote to quote and line end to line end with indexOf, each
 * search's answer kept until the scan passes it.
 */
function scanQuoted(chunk: Buffer, quotedAtStart: boolean, ends: number[]): boolean {
  let quoted = quotedAtStart;
  let nextQuote = -2; // -2: not searched yet; -1: none from where it was last searched on
  let nextLf = -2;
  let at = 0;
  while (at < chunk.length) {
    if (nextQuote !== -1 && nextQuote < at) nextQuote = chunk.indexOf(QUOTE, at);
    if (quoted) {
      if (nextQuote === -1) break;
      quoted = false;
      at = nextQuote + 1;
      continue;
    }
    if (nextLf !== -1 && nextLf < at) nextLf = chunk.indexOf(LF, at);
    if (nextLf !== -1 && (nextQuote === -1 || nextLf < nextQuote)) {
      ends.push(nextLf);
      at = nextLf + 1;
    } else if (nextQuote !== -1) {
      quoted = true;
      at = nextQuote + 1;
    } else break;
  }
  return quoted;
}
