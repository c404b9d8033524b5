/**
 * The geo table read from its file as look-ups need it, instead of held whole: the small sections
 * (group keys, the deep IPv6 bits, place offsets: ~2.3 MB) are read at open, the large ones
 * (range starts and their places: ~45 MB) a page at a time with pread, the recently read pages
 * kept, and a place's text when the place is first met. The file's bytes then sit once in the operating system's page cache, shared by every
 * process on the machine, not in each redirect's heap.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import {
  readGeoTableHeader,
  SECTION_WIDTH,
  sectionLayout,
  sectionView,
  type Column,
  type GeoColumns,
  type GeoTableHeader,
  type GeoTableReader,
  type GeoTableSections,
  sectionOf,
} from './geo-table.js';

/** Bytes per page read: a range's search mostly stays within one (a group holds ~30–80 ranges). */
const PAGE_BYTES = 512;
/**
 * Pages kept per section, direct-mapped: 512 KB a section, 3 MB for the six. Over 10,000
 * scattered addresses a look-up then takes ~2.9 µs against 1.8 µs with the whole table in memory.
 */
const PAGES_KEPT = 1024;

/** The sections read whole at open; the others are paged. */
const RESIDENT = new Set<keyof GeoColumns>([
  'v4GroupKeys',
  'v4GroupFirst',
  'v6GroupKeys',
  'v6GroupFirst',
  'v6DeepIndex',
  'v6DeepWord2',
  'v6DeepWord3',
  'placeOffsets',
]);

/** One section's elements, read from the file a page at a time. */
class PagedColumn implements Column {
  private readonly pages: Array<Buffer | undefined> = new Array(PAGES_KEPT);
  private readonly pageNumbers = new Int32Array(PAGES_KEPT).fill(-1);

  constructor(
    private readonly fd: number,
    private readonly offset: number,
    private readonly width: number,
    private readonly length: number,
  ) {}

  at(index: number): number | undefined {
    if (index < 0 || index >= this.length) return undefined;
    const byte = index * this.width;
    const page = Math.floor(byte / PAGE_BYTES);
    const slot = page % PAGES_KEPT;
    let bytes = this.pages[slot];
    if (bytes === undefined || this.pageNumbers[slot] !== page) {
      bytes = this.pages[slot] ?? Buffer.allocUnsafeSlow(PAGE_BYTES);
      readSync(this.fd, bytes, 0, PAGE_BYTES, this.offset + page * PAGE_BYTES);
      this.pages[slot] = bytes;
      this.pageNumbers[slot] = page;
    }
    const at = byte - page * PAGE_BYTES;
    return this.width === 1 ? bytes[at] : this.width === 2 ? bytes.readUInt16LE(at) : bytes.readUInt32LE(at);
  }
}

function readExactly(fd: number, length: number, position: number): Buffer {
  const bytes = Buffer.allocUnsafeSlow(length);
  let read = 0;
  while (read < length) {
    const n = readSync(fd, bytes, read, length - read, position + read);
    if (n === 0) throw new Error('geo table truncated');
    read += n;
  }
  return bytes;
}

/**
 * The header at the start of an open table file and its JSON's length in bytes, or null if it is
 * not a table of this format (readGeoTableHeader decides, over the bytes the header spans).
 */
function readHeader(fd: number): { header: GeoTableHeader; length: number } | null {
  const start = Buffer.alloc(16);
  if (readSync(fd, start, 0, 16, 0) < 16) return null;
  const length = start.readUInt32LE(12);
  // Not a table, or a cut one: the length read is then no header's.
  if (16 + length > fstatSync(fd).size) return null;
  const header = readGeoTableHeader(readExactly(fd, 16 + length, 0));
  return header && { header, length };
}

/** The header of the table file at `path`, or null if it is not a table of this format (throws ENOENT if missing). */
export function readGeoTableFileHeader(path: string): GeoTableHeader | null {
  const fd = openSync(path, 'r');
  try {
    return readHeader(fd)?.header ?? null;
  } finally {
    closeSync(fd);
  }
}

/** A reader over the table file at `path`, open until the process ends; null if it is not a table of this format. */
export function openGeoTableFile(path: string): GeoTableReader | null {
  const fd = openSync(path, 'r');
  const found = readHeader(fd);
  if (!found) {
    closeSync(fd);
    return null;
  }
  const views = new Map<keyof GeoTableSections, Column>();
  let placeText = { offset: 0, length: 0 };
  for (const { name, type, offset, length, bytes } of sectionLayout(found.header, found.length)) {
    if (name === 'placeText') placeText = { offset, length };
    else if (RESIDENT.has(name)) views.set(name, sectionView(readExactly(fd, bytes, offset).buffer, 0, type, length));
    else views.set(name, new PagedColumn(fd, offset, SECTION_WIDTH[type], length));
  }
  const resident = sectionOf(views, Uint32Array);
  const paged = sectionOf(views, PagedColumn);
  const columns: GeoColumns = {
    v4GroupKeys: resident('v4GroupKeys'),
    v4GroupFirst: resident('v4GroupFirst'),
    v4Lows: paged('v4Lows'),
    v4PlaceLow: paged('v4PlaceLow'),
    v4PlaceHigh: paged('v4PlaceHigh'),
    v6GroupKeys: resident('v6GroupKeys'),
    v6GroupFirst: resident('v6GroupFirst'),
    v6Lows: paged('v6Lows'),
    v6PlaceLow: paged('v6PlaceLow'),
    v6PlaceHigh: paged('v6PlaceHigh'),
    v6DeepIndex: resident('v6DeepIndex'),
    v6DeepWord2: resident('v6DeepWord2'),
    v6DeepWord3: resident('v6DeepWord3'),
    placeOffsets: resident('placeOffsets'),
  };
  return {
    columns,
    placeText(from, to) {
      if (from < 0 || to > placeText.length || to < from) throw new RangeError('place text out of the table');
      return readExactly(fd, to - from, placeText.offset + from);
    },
  };
}
