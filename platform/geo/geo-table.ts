/**
 * The geo table: what the DB-IP files say, reduced to what scans record (country code, region,
 * city), as sorted range starts and one place per range; built by geo-table-build.ts. A look-up is
 * a binary search over typed arrays that point into the file's own bytes, so a process holds
 * the file and no object per range.
 *
 * Layout, little-endian: the magic, the format version (u32), the header's length (u32), the
 * header as JSON (which lists the sections: name, element type, length), then the sections, each
 * 4-byte aligned. Places are numbered from 1 in a table of "CC\0region\0city" UTF-8 strings
 * (placeOffsets, placeText); place 0 is "unknown".
 */
import { endianness } from 'node:os';
import { dottedQuad } from '../net/ip-ranges.js';

export const GEO_TABLE_MAGIC = 'QRLGEO\0\0';
/** Bumped whenever the layout or what a place holds changes: an older file is then rebuilt. */
export const GEO_TABLE_FORMAT = 1;

export type SectionType = 'u8' | 'u16' | 'u32';

export interface GeoTableHeader {
  format: number;
  source: {
    package: string;
    version: string;
    /** Byte sizes of the two .mmdb files, checked at load with the version (a stat, no read). */
    sizes: { ipv4: number; ipv6: number };
    /** sha256 of each .mmdb file, for who wants to know exactly what the table came from. */
    sha256: { ipv4: string; ipv6: string };
  };
  counts: {
    /** Ranges in the table, after merging neighbours that give the same place. */
    ipv4: number;
    ipv6: number;
    /** Leaves of each file's search tree, before merging. */
    ipv4Leaves: number;
    ipv6Leaves: number;
    places: number;
    /** IPv6 ranges that start inside a /64. */
    ipv6Inside64: number;
  };
  /** The sections after the header, in order, each 4-byte aligned. */
  sections: Array<{ name: keyof GeoTableSections; type: SectionType; length: number }>;
}

/**
 * One address family: its ranges sorted by start, grouped by the start's high word (the top 16
 * bits of an IPv4 address, the top 32 of an IPv6 one), so a range keeps only the next bits of its
 * start: 16 for IPv4, 32 for IPv6 (down to the /64). Places are 24-bit, split in two arrays.
 */
export interface FamilySections {
  groupKeys: Uint32Array;
  /** Index of each group's first range; one more entry than groups (the range count). */
  groupFirst: Uint32Array;
  lows: Uint16Array | Uint32Array;
  placeLow: Uint16Array;
  placeHigh: Uint8Array;
}

export interface GeoTableSections {
  v4GroupKeys: Uint32Array;
  v4GroupFirst: Uint32Array;
  v4Lows: Uint16Array;
  v4PlaceLow: Uint16Array;
  v4PlaceHigh: Uint8Array;
  v6GroupKeys: Uint32Array;
  v6GroupFirst: Uint32Array;
  v6Lows: Uint32Array;
  v6PlaceLow: Uint16Array;
  v6PlaceHigh: Uint8Array;
  /** IPv6 ranges whose start has bits below the /64: their indexes (sorted) and those bits. */
  v6DeepIndex: Uint32Array;
  v6DeepWord2: Uint32Array;
  v6DeepWord3: Uint32Array;
  placeOffsets: Uint32Array;
  placeText: Uint8Array;
}

/** A section's elements by index: a typed array in memory, or a file's pages (geo-table-file.ts). */
export interface Column {
  at(index: number): number | undefined;
}

/** The sections a look-up reads: the large ones through `Column`, the small ones always in memory. */
export interface GeoColumns {
  v4GroupKeys: Uint32Array;
  v4GroupFirst: Uint32Array;
  v4Lows: Column;
  v4PlaceLow: Column;
  v4PlaceHigh: Column;
  v6GroupKeys: Uint32Array;
  v6GroupFirst: Uint32Array;
  v6Lows: Column;
  v6PlaceLow: Column;
  v6PlaceHigh: Column;
  v6DeepIndex: Uint32Array;
  v6DeepWord2: Uint32Array;
  v6DeepWord3: Uint32Array;
  placeOffsets: Uint32Array;
}

/** What a GeoDatabase looks up in: the columns, and the bytes of placeText from `from` to `to`. */
export interface GeoTableReader {
  columns: GeoColumns;
  placeText(from: number, to: number): Uint8Array;
}

/** Bytes per element of each section type. */
export const SECTION_WIDTH: Record<SectionType, number> = { u8: 1, u16: 2, u32: 4 };

/**
 * A section's `length` elements as a typed array over `buffer` from `byteOffset` (no copy; the
 * offset aligned to the element's size). The arrays are read in the machine's order; every server
 * Node.js runs on is little-endian.
 */
export function sectionView(
  buffer: ArrayBufferLike,
  byteOffset: number,
  type: SectionType,
  length: number,
): Uint8Array | Uint16Array | Uint32Array {
  if (endianness() !== 'LE') throw new Error('the geo table is little-endian only');
  return type === 'u8'
    ? new Uint8Array(buffer, byteOffset, length)
    : type === 'u16'
      ? new Uint16Array(buffer, byteOffset, length)
      : new Uint32Array(buffer, byteOffset, length);
}

const align4 = (n: number) => (n + 3) & ~3;
const typeOf = (a: ArrayBufferView): SectionType => (a instanceof Uint8Array ? 'u8' : a instanceof Uint16Array ? 'u16' : 'u32');

/** The file's bytes for a header (its `sections` filled in here) and its sections. */
export function encodeGeoTable(header: Omit<GeoTableHeader, 'sections'>, s: GeoTableSections): Buffer {
  const entries = Object.entries(s) as Array<[keyof GeoTableSections, Uint8Array | Uint16Array | Uint32Array]>;
  const full: GeoTableHeader = { ...header, sections: entries.map(([name, a]) => ({ name, type: typeOf(a), length: a.length })) };
  const json = Buffer.from(JSON.stringify(full));
  const start = align4(16 + json.length);
  let size = start;
  for (const [, a] of entries) size = align4(size + a.byteLength);
  const out = Buffer.alloc(size);
  out.write(GEO_TABLE_MAGIC, 0, 'latin1');
  out.writeUInt32LE(full.format, 8);
  out.writeUInt32LE(json.length, 12);
  json.copy(out, 16);
  let at = start;
  for (const [, a] of entries) {
    out.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), at);
    at = align4(at + a.byteLength);
  }
  return out;
}

/** The header of a table file, or null if the bytes are not a table of this format. */
export function readGeoTableHeader(bytes: Uint8Array): GeoTableHeader | null {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.length < 16 || view.toString('latin1', 0, 8) !== GEO_TABLE_MAGIC) return null;
  if (view.readUInt32LE(8) !== GEO_TABLE_FORMAT) return null;
  const length = view.readUInt32LE(12);
  if (16 + length > view.length) return null;
  return JSON.parse(view.toString('utf8', 16, 16 + length)) as GeoTableHeader;
}

/**
 * Where each section starts in the file, its element count and its size (bytes);
 * `headerLength` is the JSON's length in bytes.
 */
export function sectionLayout(
  header: GeoTableHeader,
  headerLength: number,
): Array<{ name: keyof GeoTableSections; type: SectionType; offset: number; length: number; bytes: number }> {
  let at = align4(16 + headerLength);
  return header.sections.map(({ name, type, length }) => {
    const offset = at;
    const bytes = length * SECTION_WIDTH[type];
    at = align4(at + bytes);
    return { name, type, offset, length, bytes };
  });
}

/** A reader over a whole table in memory: for a process that built the table and could not save it. */
export function readerOverBytes(bytes: Buffer): GeoTableReader {
  const { sections } = decodeGeoTable(bytes);
  return { columns: sections, placeText: (from, to) => sections.placeText.subarray(from, to) };
}

/** Typed-array views over a table file's bytes (no copy). */
export function decodeGeoTable(bytes: Buffer): { header: GeoTableHeader; sections: GeoTableSections } {
  const header = readGeoTableHeader(bytes);
  if (!header) throw new Error('not a geo table of this format');
  // Views need their start aligned to their element size; a pooled small Buffer might not be.
  if (bytes.byteOffset % 4 !== 0) bytes = Buffer.from(bytes);
  const views = new Map<keyof GeoTableSections, ArrayBufferView>();
  for (const { name, type, offset, length, bytes: size } of sectionLayout(header, bytes.readUInt32LE(12))) {
    if (offset + size > bytes.length) throw new Error('geo table truncated');
    views.set(name, sectionView(bytes.buffer, bytes.byteOffset + offset, type, length));
  }
  const u8 = sectionOf(views, Uint8Array);
  const u16 = sectionOf(views, Uint16Array);
  const u32 = sectionOf(views, Uint32Array);
  const sections: GeoTableSections = {
    v4GroupKeys: u32('v4GroupKeys'),
    v4GroupFirst: u32('v4GroupFirst'),
    v4Lows: u16('v4Lows'),
    v4PlaceLow: u16('v4PlaceLow'),
    v4PlaceHigh: u8('v4PlaceHigh'),
    v6GroupKeys: u32('v6GroupKeys'),
    v6GroupFirst: u32('v6GroupFirst'),
    v6Lows: u32('v6Lows'),
    v6PlaceLow: u16('v6PlaceLow'),
    v6PlaceHigh: u8('v6PlaceHigh'),
    v6DeepIndex: u32('v6DeepIndex'),
    v6DeepWord2: u32('v6DeepWord2'),
    v6DeepWord3: u32('v6DeepWord3'),
    placeOffsets: u32('placeOffsets'),
    placeText: u8('placeText'),
  };
  return { header, sections };
}

/** A section of the kind the format gives it, or a clear error for a table that lacks it. */
export function sectionOf<V, T>(views: ReadonlyMap<keyof GeoTableSections, V>, kind: new (...args: never[]) => T) {
  return (name: keyof GeoTableSections): T => {
    const view = views.get(name);
    if (!(view instanceof kind)) throw new Error(`geo table: section ${name} missing or not a ${kind.name}`);
    return view;
  };
}

/** The last index in [from, to) whose value is <= key, or from - 1. */
function lastAtMost(array: Column, from: number, to: number, key: number): number {
  let lo = from - 1;
  let hi = to - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (array.at(mid)! <= key) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The index of the last range whose start's (high, low) is <= (high, low). */
function rangeAtMost(keys: Uint32Array, first: Uint32Array, lows: Column, high: number, low: number): number {
  const g = lastAtMost(keys, 0, keys.length, high);
  // The first range starts at address 0, so group 0 has key 0 and g >= 0.
  if (keys[g]! < high) return first[g + 1]! - 1;
  return lastAtMost(lows, first[g]!, first[g + 1]!, low);
}

const placeAt = (low: Column, high: Column, i: number) => low.at(i)! | (high.at(i)! << 16);

/** The place of an IPv4 address given as an unsigned 32-bit number (0: unknown). */
export function placeOfV4(s: GeoColumns, address: number): number {
  const i = rangeAtMost(s.v4GroupKeys, s.v4GroupFirst, s.v4Lows, address >>> 16, address & 0xffff);
  return placeAt(s.v4PlaceLow, s.v4PlaceHigh, i);
}

/** The bits below the /64 of range i's start: [word2, word3], zeros for most ranges. */
function deepBits(s: GeoColumns, i: number): [number, number] {
  const k = lastAtMost(s.v6DeepIndex, 0, s.v6DeepIndex.length, i);
  return k >= 0 && s.v6DeepIndex[k] === i ? [s.v6DeepWord2[k]!, s.v6DeepWord3[k]!] : [0, 0];
}

/** The place of an IPv6 address given as four unsigned 32-bit words, most significant first. */
export function placeOfV6(s: GeoColumns, a0: number, a1: number, a2: number, a3: number): number {
  let i = rangeAtMost(s.v6GroupKeys, s.v6GroupFirst, s.v6Lows, a0, a1);
  if (s.v6Lows.at(i) === a1 && startHigh(s, i) === a0) {
    // Ranges starting in the address's own /64: the last whose lower bits are <= the address's.
    // Ranges with the same top 64 bits are neighbours, and the first of them may start above it.
    while (i >= 0 && s.v6Lows.at(i) === a1 && startHigh(s, i) === a0) {
      const [b2, b3] = deepBits(s, i);
      if (b2 < a2 || (b2 === a2 && b3 <= a3)) break;
      i--;
    }
  }
  return placeAt(s.v6PlaceLow, s.v6PlaceHigh, i);
}

/** The top 32 bits of IPv6 range i's start. */
function startHigh(s: GeoColumns, i: number): number {
  return s.v6GroupKeys[lastAtMost(s.v6GroupFirst, 0, s.v6GroupKeys.length, i)]!;
}

/**
 * An IPv6 address (the textual forms of RFC 4291: hex groups, one "::", a trailing dotted quad; a
 * zone id is ignored) as four 32-bit words in `out`; false if it is not one.
 */
export function parseV6(ip: string, out: Uint32Array): boolean {
  const zone = ip.indexOf('%');
  const text = zone >= 0 ? ip.slice(0, zone) : ip;
  const groups = new Array<number>(8).fill(0);
  const head: number[] = [];
  const tail: number[] = [];
  let target = head;
  let gap = false;
  let i = 0;
  if (text.startsWith('::')) {
    gap = true;
    target = tail;
    i = 2;
    if (i === text.length) {
      out.fill(0);
      return true;
    }
  }
  while (i < text.length) {
    let j = i;
    let value = 0;
    while (j < text.length && j - i < 5) {
      const c = text.charCodeAt(j);
      const d = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1;
      if (d < 0) break;
      value = value * 16 + d;
      j++;
    }
    if (j < text.length && text.charCodeAt(j) === 46) {
      const v4 = dottedQuad(text.slice(i));
      if (v4 < 0) return false;
      target.push(v4 >>> 16, v4 & 0xffff);
      i = text.length;
      break;
    }
    if (j === i || j - i > 4) return false;
    target.push(value);
    if (j === text.length) {
      i = j;
      break;
    }
    if (text.charCodeAt(j) !== 58) return false;
    if (text.charCodeAt(j + 1) === 58) {
      if (gap) return false;
      gap = true;
      target = tail;
      i = j + 2;
      if (i === text.length) break;
    } else {
      i = j + 1;
      if (i === text.length) return false;
    }
  }
  const total = head.length + tail.length;
  if (gap ? total > 7 : total !== 8) return false;
  for (let k = 0; k < head.length; k++) groups[k] = head[k]!;
  for (let k = 0; k < tail.length; k++) groups[8 - tail.length + k] = tail[k]!;
  for (let k = 0; k < 4; k++) out[k] = ((groups[2 * k]! << 16) | groups[2 * k + 1]!) >>> 0;
  return true;
}
