/**
 * Scans by country as a world map: Natural Earth's 1:110m countries (public domain, the
 * `world-atlas` package's TopoJSON, about 100 KB, 30 KB compressed), drawn as inline SVG in a plain
 * equirectangular projection. Loaded on demand with the dashboard (Analytics.tsx), never before.
 * Each country with scans is a link to the dashboard filtered by it, named by its name and count;
 * the others are drawn as decoration. The ranked list of countries beside it says the same in words.
 */
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import world from 'world-atlas/countries-110m.json';
import { countryCode, countryLabel, heatLevel, type RankedRow } from './view.js';

/** Natural Earth's short names that are not the English names the API stores, by the country's ISO code. */
const NAMED_OTHERWISE: Record<string, string> = {
  'W. Sahara': 'EH',
  'United States of America': 'US',
  'Dem. Rep. Congo': 'CD',
  'Dominican Rep.': 'DO',
  'Falkland Is.': 'FK',
  'Fr. S. Antarctic Lands': 'TF',
  "Côte d'Ivoire": 'CI',
  'Central African Rep.': 'CF',
  Congo: 'CG',
  'Eq. Guinea': 'GQ',
  eSwatini: 'SZ',
  Palestine: 'PS',
  Myanmar: 'MM',
  Turkey: 'TR',
  'Solomon Is.': 'SB',
  'Bosnia and Herz.': 'BA',
  Macedonia: 'MK',
  'Trinidad and Tobago': 'TT',
  'S. Sudan': 'SS',
  // Drawn apart in Natural Earth; the geo database places their addresses in these countries.
  'N. Cyprus': 'CY',
  Somaliland: 'SO',
};

/** The map's frame: longitude -180..180, latitude 84 N to 58 S (Antarctica left out). */
const TOP = 84;
const BOTTOM = -58;

interface Shape {
  code: string;
  /** The English name the API's rows use. */
  name: string;
  d: string;
}

let shapes: Shape[] | null = null;

type CountriesTopology = Topology<{ countries: GeometryCollection<{ name: string }> }>;

/**
 * world-atlas's JSON as TypeScript reads it (plain arrays of numbers) is not the topology type
 * topojson-client takes: checked once, where it matters (a topology whose countries are a
 * collection of geometries, each with a name, over arcs of positions).
 */
function isCountriesTopology(value: unknown): value is CountriesTopology {
  if (!isRecord(value) || value.type !== 'Topology' || !Array.isArray(value.arcs) || !isRecord(value.objects)) return false;
  const countries = value.objects.countries;
  if (!isRecord(countries) || countries.type !== 'GeometryCollection' || !Array.isArray(countries.geometries)) return false;
  return countries.geometries.every(
    (g: unknown) =>
      isRecord(g) &&
      typeof g.type === 'string' &&
      (g.properties === undefined || (isRecord(g.properties) && typeof g.properties.name === 'string')),
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Every country's outline as an SVG path, once. */
function countryShapes(): Shape[] {
  if (shapes) return shapes;
  const topology: unknown = world;
  if (!isCountriesTopology(topology)) throw new Error('world-atlas countries-110m.json is not a topology of countries');
  const english = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  const point = ([lon, lat]: number[]) => `${(lon! + 180).toFixed(1)},${(TOP - lat!).toFixed(1)}`;
  const ring = (coordinates: number[][]) => `M${coordinates.map(point).join('L')}Z`;
  shapes = feature(topology, topology.objects.countries).features.flatMap((f) => {
    const natural = f.properties?.name ?? '';
    const code = NAMED_OTHERWISE[natural] ?? countryCode(natural);
    const geometry = f.geometry;
    if (!code || natural === 'Antarctica' || !geometry) return [];
    const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.type === 'MultiPolygon' ? geometry.coordinates : [];
    const d = polygons.map((polygon) => polygon.map(ring).join('')).join('');
    return [{ code, name: english.of(code) ?? natural, d }];
  });
  return shapes;
}

export function WorldMap({ rows, hrefOf }: { rows: RankedRow[]; hrefOf: (name: string) => string }) {
  const scansOf = new Map(rows.map((r) => [r.name, r.scans]));
  const max = Math.max(1, ...rows.map((r) => r.scans));
  const all = countryShapes();
  // Countries with scans last, so their outlines are drawn over their neighbours'.
  const quiet = all.filter((s) => !scansOf.has(s.name));
  const scanned = all.filter((s) => scansOf.has(s.name));
  return (
    <svg
      class="world-map"
      viewBox={`0 0 360 ${TOP - BOTTOM}`}
      role="group"
      aria-label="Scans by country on a world map; each country with scans is a link that filters the dashboard by it"
    >
      <g aria-hidden="true">
        {quiet.map((s) => (
          <path key={s.code + s.d.length} d={s.d} class="map-country" />
        ))}
      </g>
      {scanned.map((s) => {
        const scans = scansOf.get(s.name)!;
        const label = `${countryLabel(s.name, navigator.language).name}: ${scans.toLocaleString('en')} scan${scans === 1 ? '' : 's'}`;
        return (
          <a key={s.code + s.d.length} href={hrefOf(s.name)} aria-label={label} data-country={s.name}>
            <title>{label}</title>
            <path d={s.d} class={`map-country heat-${heatLevel(scans, max)}`} />
          </a>
        );
      })}
    </svg>
  );
}
