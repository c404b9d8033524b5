import { describe, expect, it } from 'vitest';
import { groupedTimeZoneOptions, timeZoneOptions, zoneOptionLabel } from '#console/src/links/zones.js';

describe('time zone choices', () => {
  it('puts the chosen zone and the browser’s first, then common zones, then every zone by region, each once', () => {
    const groups = groupedTimeZoneOptions('Asia/Kathmandu', 'Europe/Lisbon');
    expect(groups[0]).toEqual({ label: 'Chosen and yours', zones: ['Asia/Kathmandu', 'Europe/Lisbon'] });
    expect(groups[1]!.label).toBe('Common');
    expect(groups[1]!.zones.slice(0, 3)).toEqual(['UTC', 'Europe/London', 'Europe/Paris']);
    expect(groups.map((g) => g.label)).toEqual(expect.arrayContaining(['Africa', 'America', 'Asia', 'Europe', 'Pacific']));
    const offered = groups.flatMap((g) => g.zones);
    expect(new Set(offered).size).toBe(offered.length);
    expect([...offered].sort()).toEqual(timeZoneOptions('Asia/Kathmandu'));
    expect(groupedTimeZoneOptions('Europe/Lisbon', 'Europe/Lisbon')[0]).toEqual({ label: 'Yours', zones: ['Europe/Lisbon'] });
  });

  it('labels a zone by its city first, so typing the city in the select finds it', () => {
    expect(zoneOptionLabel('Europe/Lisbon')).toBe('Lisbon · Europe');
    expect(zoneOptionLabel('America/Argentina/Buenos_Aires')).toBe('Buenos Aires, Argentina · America');
    expect(zoneOptionLabel('UTC')).toBe('UTC');
  });
});
