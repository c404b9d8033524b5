/**
 * Addresses to compare the geo table against the DB-IP files read by the maxmind reader (the look-up
 * the table replaced), and that reader's answers: random public IPv4 and IPv6 (in the blocks the
 * registries hand out) and addresses at and beside range boundaries, both the files' own (the
 * leaf an address falls in, from the reader) and the table's (each merged range's first address
 * and the one before it, every IPv6 range that starts inside a /64 among them).
 */
import { readFileSync } from 'node:fs';
import ipaddr from 'ipaddr.js';
import { Reader, type Response } from 'maxmind';
import { geoSource } from '#platform/geo/geo-table-build.js';
import type { GeoTableSections } from '#platform/geo/geo-table.js';
import { isPublicAddress } from '#platform/net/ip-ranges.js';
import { BoundedCache } from '#platform/bounded-cache.js';
import { random32 } from './seeded-random.js';

export interface Place {
  countryCode: string | null;
  region: string | null;
  city: string | null;
}

interface DbipCityRecord {
  country_code?: string;
  state1?: string;
  city?: string;
}

/**
 * The old look-up: the maxmind reader over the two files read whole, with (when `cacheEntries` is
 * given) the decoded-record cache and one object per record that production kept.
 */
export function mmdbLookup({ cacheEntries }: { cacheEntries?: number } = {}): (ip: string) => Place | null {
  const { files } = geoSource();
  const open = (file: string) =>
    new Reader<Response>(readFileSync(file), cacheEntries ? { cache: new BoundedCache<string | number, unknown>(cacheEntries) } : {});
  const ipv4 = open(files.ipv4);
  const ipv6 = open(files.ipv6);
  const places = new WeakMap<DbipCityRecord, Place>();
  return (ip) => {
    const address = /^::ffff:(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/i.exec(ip)?.[1] ?? ip;
    if (!isPublicAddress(address)) return null;
    const record = (address.includes(':') ? ipv6 : ipv4).get(address) as DbipCityRecord | null;
    if (!record?.country_code) return null;
    let place = places.get(record);
    if (!place) {
      place = Object.freeze({ countryCode: record.country_code.toUpperCase(), region: record.state1 || null, city: record.city || null });
      places.set(record, place);
    }
    return place;
  };
}

/** `count` distinct-ish addresses as scans bring them: 80% random IPv4, 20% IPv6 in the registries' blocks. */
export function scanAddresses(count: number, seed: number): string[] {
  const next = random32(seed);
  return Array.from({ length: count }, (_, i) => (i % 5 === 4 ? v6Text(randomV6(next), i % 2 === 0) : v4Text(next())));
}

const v4Text = (n: number) => `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;

function v6Text(words: ArrayLike<number>, compressed: boolean): string {
  const bytes: number[] = [];
  for (let w = 0; w < 4; w++) bytes.push(words[w]! >>> 24, (words[w]! >>> 16) & 255, (words[w]! >>> 8) & 255, words[w]! & 255);
  const ip = ipaddr.fromByteArray(bytes);
  return compressed ? ip.toString() : ip.toNormalizedString();
}

/** 128-bit value plus delta (-1, 0 or +1), as four words. */
function add(words: number[], delta: -1 | 0 | 1): number[] {
  const out = [...words];
  for (let w = 3; w >= 0 && delta !== 0; w--) {
    const next = out[w]! + delta;
    out[w] = next >>> 0;
    if (next >= 0 && next <= 0xffffffff) break;
  }
  return out;
}

/** The registries' IPv6 blocks (2001::/16, 2400::/12, 2600::/12, 2800::/12, 2a00::/12, 2c00::/12). */
const V6_BLOCKS = [0x2001, 0x2400, 0x2600, 0x2800, 0x2a00, 0x2c00];

function randomV6(next: () => number): number[] {
  const block = V6_BLOCKS[next() % V6_BLOCKS.length]!;
  const high = block === 0x2001 ? 0x2001 : block | (next() % 256);
  return [((high << 16) | (next() & 0xffff)) >>> 0, next(), next(), next()];
}

/** `count` addresses, seeded; `table` gives the merged ranges' starts. */
export function sampleAddresses(count: number, seed: number, table: GeoTableSections): string[] {
  const next = random32(seed);
  const pick = (n: number) => next() % n;
  const out: string[] = [];
  const { files } = geoSource();
  const ipv4 = new Reader<Response>(readFileSync(files.ipv4));
  const ipv6 = new Reader<Response>(readFileSync(files.ipv6));
  const tableV4Start = (i: number) => {
    const g = lastAtMost(table.v4GroupFirst, i);
    return ((table.v4GroupKeys[g]! << 16) | table.v4Lows[i]!) >>> 0;
  };
  const tableV6Start = (i: number): number[] => {
    const g = lastAtMost(table.v6GroupFirst, i);
    const k = table.v6DeepIndex.indexOf(i);
    return [table.v6GroupKeys[g]!, table.v6Lows[i]!, k >= 0 ? table.v6DeepWord2[k]! : 0, k >= 0 ? table.v6DeepWord3[k]! : 0];
  };
  while (out.length < count) {
    const kind = out.length % 10;
    if (kind === 0 || kind === 1) out.push(v4Text(next()));
    else if (kind === 2 || kind === 3) out.push(v6Text(randomV6(next), next() % 2 === 0));
    else if (kind === 4) {
      // The file's own leaf around a random address: its first and last address and their neighbours.
      const n = next();
      const [, length] = ipv4.getWithPrefixLength(v4Text(n));
      const size = 2 ** (32 - length);
      const start = n - (n % size);
      for (const a of [start - 1, start, start + size - 1, start + size]) if (a >= 0 && a <= 0xffffffff) out.push(v4Text(a));
    } else if (kind === 5) {
      const words = randomV6(next);
      const [, length] = ipv6.getWithPrefixLength(v6Text(words, false));
      const start = words.map((w, i) => {
        const keep = Math.max(0, Math.min(32, length - 32 * i));
        return keep === 0 ? 0 : keep === 32 ? w : (w & (0xffffffff << (32 - keep))) >>> 0;
      });
      out.push(v6Text(start, true), v6Text(add(start, -1), false));
    } else if (kind === 6 || kind === 7) {
      const start = tableV4Start(pick(table.v4Lows.length));
      out.push(v4Text(start));
      if (start > 0) out.push(v4Text(start - 1));
    } else if (kind === 8) {
      const start = tableV6Start(pick(table.v6Lows.length));
      out.push(v6Text(start, true), v6Text(add(start, -1), false), v6Text(add(start, 1), true));
    } else {
      // Ranges that start inside a /64, and a mapped IPv4 address now and then.
      const start = tableV6Start(table.v6DeepIndex[pick(table.v6DeepIndex.length)]!);
      out.push(v6Text(start, false), v6Text(add(start, -1), true), `::ffff:${v4Text(next())}`);
    }
  }
  return out.slice(0, count);
}

function lastAtMost(array: Uint32Array, key: number): number {
  let lo = 0;
  let hi = array.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (array[mid]! <= key) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
