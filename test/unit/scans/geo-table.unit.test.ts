/**
 * The geo table against the DB-IP files read by the maxmind reader, the look-up it replaced:
 * 20,000 addresses, random and at range boundaries (test/support/geo-addresses.ts), must get the
 * same country, region and city, or the same "unknown". The table is read from its cache, or
 * built there first (once per DB-IP version: tens of seconds).
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { geoDatabase, openGeoTable, type GeoDatabase } from '#domain/scans/geo.js';
import { decodeGeoTable, parseV6, readerOverBytes, readGeoTableHeader } from '#platform/geo/geo-table.js';
import { defaultGeoTablePath, geoSource, sourceMatches } from '#platform/geo/geo-table-build.js';
import { mmdbLookup, sampleAddresses, type Place } from '../../support/geo-addresses.js';

let bytes: Buffer;
let geo: GeoDatabase;

beforeAll(() => {
  // Read from its file a page at a time, as every process does; the bytes only for the sample.
  geo = geoDatabase(openGeoTable());
  bytes = readFileSync(defaultGeoTablePath());
}, 180_000);

const place = (ip: string): Place | null => {
  const found = geo.lookup(ip);
  return found && { countryCode: found.countryCode, region: found.region, city: found.city };
};

describe('geo table', () => {
  it('answers 20,000 addresses as the mmdb reader does', () => {
    const expected = mmdbLookup();
    const addresses = sampleAddresses(20_000, Date.now() % 2 ** 31, decodeGeoTable(bytes).sections);
    const differences = addresses.filter((ip) => JSON.stringify(place(ip)) !== JSON.stringify(expected(ip)));
    expect(differences.slice(0, 10).map((ip) => ({ ip, table: place(ip), mmdb: expected(ip) }))).toEqual([]);
    // The sample must reach known places, or the comparison would prove little.
    expect(addresses.filter((ip) => expected(ip)).length).toBeGreaterThan(10_000);
  }, 120_000);

  it('answers the same from the file as from the whole table in memory', () => {
    const inMemory = geoDatabase(readerOverBytes(bytes));
    const addresses = sampleAddresses(5_000, (Date.now() + 1) % 2 ** 31, decodeGeoTable(bytes).sections);
    const differences = addresses.filter((ip) => JSON.stringify(geo.lookup(ip)) !== JSON.stringify(inMemory.lookup(ip)));
    expect(differences.slice(0, 10)).toEqual([]);
  });

  it('gives the same frozen object for two addresses of one place', () => {
    const first = geo.lookup('8.8.8.8');
    expect(first?.countryCode).toMatch(/^[A-Z]{2}$/);
    expect(Object.isFrozen(first)).toBe(true);
    expect(geo.lookup('8.8.8.8')).toBe(first);
    expect(geo.lookup('::ffff:8.8.8.8')).toBe(first);
  });

  it('knows nothing of private or malformed addresses', () => {
    for (const ip of ['10.1.2.3', '192.168.0.1', '::1', 'fe80::1', 'not an address', '1.2.3', '2001:db8::1']) {
      expect(geo.lookup(ip)).toBeNull();
    }
  });

  it('is taken as current only when made from the installed DB-IP package', () => {
    const header = readGeoTableHeader(bytes)!;
    const source = geoSource();
    expect(sourceMatches(header, source)).toBe(true);
    expect(sourceMatches({ ...header, source: { ...header.source, version: '0.0.1' } }, source)).toBe(false);
    const sizes = { ...header.source.sizes, ipv6: header.source.sizes.ipv6 + 1 };
    expect(sourceMatches({ ...header, source: { ...header.source, sizes } }, source)).toBe(false);
    expect(readGeoTableHeader(Buffer.from('not a table at all'))).toBeNull();
  });

  it('reads IPv6 in its textual forms', () => {
    const words = new Uint32Array(4);
    const read = (ip: string) => (parseV6(ip, words) ? [...words].map((w) => w.toString(16)) : null);
    expect(read('2a00:1450:4001:82a::200e')).toEqual(['2a001450', '4001082a', '0', '200e']);
    expect(read('::')).toEqual(['0', '0', '0', '0']);
    expect(read('1::')).toEqual(['10000', '0', '0', '0']);
    expect(read('::ffff:1.2.3.4')).toEqual(['0', '0', 'ffff', '1020304']);
    expect(read('fe80::1%eth0')).toEqual(['fe800000', '0', '0', '1']);
    expect(read('1:2:3:4:5:6:7:8')).toEqual(['10002', '30004', '50006', '70008']);
    for (const bad of ['1::2::3', '1:2:3:4:5:6:7', '1:2:3:4:5:6:7:8:9', '12345::', ':1', '1:', 'g::']) expect(read(bad)).toBeNull();
  });
});
