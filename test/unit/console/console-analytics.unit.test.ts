/** The analytics dashboard's pure parts: the view kept in the URL, the API queries it makes, the period it is compared with, and answers turned into chart data. */
import { describe, expect, it } from 'vitest';
import {
  activeFilters,
  apiQuery,
  barWidth,
  changeText,
  countryLabel,
  bucketLabel,
  deviceLabel,
  exportBody,
  heatLevel,
  previousPeriod,
  routeOfView,
  scanSeries,
  slugOfSubpath,
  viewFromQuery,
  weekGrid,
  withFilter,
} from '#console/src/analytics/view.js';

const ZONE = 'Europe/Berlin';
// 26 Nov 2026 00:30 in Berlin, still the 25th in UTC: "today" is the zone's day.
const NOW = new Date('2026-11-25T23:30:00Z');

describe('analytics view in the URL', () => {
  it('the default is the last 7 days in the browser zone, humans only, at the bare route', () => {
    const view = viewFromQuery('', ZONE);
    expect(view).toEqual({ duration: '7_days', from: '', to: '', timezone: ZONE, bots: false, filters: {} });
    expect(routeOfView(view, ZONE, null)).toBe('/analytics');
    expect(routeOfView(view, ZONE, 'my link')).toBe('/analytics/my%20link');
  });

  it('a view survives the round trip through its route', () => {
    const view = {
      duration: 'custom' as const,
      from: '2026-10-01',
      to: '2026-10-31',
      timezone: 'America/New_York',
      bots: true,
      filters: {},
    };
    const route = routeOfView(view, ZONE, 'abc');
    expect(route).toBe('/analytics/abc?duration=custom&from=2026-10-01&to=2026-10-31&tz=America%2FNew_York&bots=1');
    expect(viewFromQuery(route.split('?')[1]!, ZONE)).toEqual(view);
  });

  it('filters are kept in the route, reach the API and the export, and come off one at a time', () => {
    const view = withFilter(withFilter(viewFromQuery('', ZONE), 'country', 'Côte d’Ivoire'), 'os', 'iOS');
    const route = routeOfView(view, ZONE, null);
    expect(route).toBe('/analytics?country=C%C3%B4te+d%E2%80%99Ivoire&os=iOS');
    expect(viewFromQuery(route.split('?')[1]!, ZONE)).toEqual(view);
    expect(apiQuery(view)).toMatchObject({ country: 'Côte d’Ivoire', os: 'iOS' });
    expect(exportBody(view, NOW)).toMatchObject({ country: 'Côte d’Ivoire', os: 'iOS' });
    expect(activeFilters(view).map((f) => `${f.label}: ${f.value}`)).toEqual(['Country: Côte d’Ivoire', 'System: iOS']);
    expect(routeOfView(withFilter(view, 'country', undefined), ZONE, null)).toBe('/analytics?os=iOS');
    expect(viewFromQuery('country=&browser=Chrome', ZONE).filters).toEqual({ browser: 'Chrome' });
  });

  it('unknown presets and malformed dates fall back instead of reaching the API', () => {
    expect(viewFromQuery('duration=forever&from=2026-02-30&to=soon', ZONE)).toEqual(viewFromQuery('', ZONE));
  });

  it('the subpath names the link, or the account; anything deeper is no page', () => {
    expect(slugOfSubpath('')).toBeNull();
    expect(slugOfSubpath('/a%20b')).toBe('a b');
    expect(slugOfSubpath('/a/b')).toBeUndefined();
    expect(slugOfSubpath('/%E0')).toBeUndefined();
  });
});

describe('what the dashboard asks the API', () => {
  it('a preset with its zone, bots left out unless asked for; custom dates only with custom', () => {
    expect(apiQuery(viewFromQuery('duration=30_days&from=2026-01-01', ZONE))).toEqual({
      duration: '30_days',
      exclude_bots: 'true',
      timezone: ZONE,
    });
    expect(apiQuery(viewFromQuery('duration=custom&from=2026-01-01&to=2026-01-31&bots=1', ZONE), 10)).toEqual({
      duration: 'custom',
      date_from: '2026-01-01',
      date_to: '2026-01-31',
      exclude_bots: 'false',
      timezone: ZONE,
      limit: 10,
    });
  });

  it('compares with the period of the same length before, in the zone’s days', () => {
    const view = (q: string) => viewFromQuery(q, ZONE);
    expect(previousPeriod(view(''), NOW)).toEqual({ from: '2026-11-13', to: '2026-11-19', label: 'the 7 days before' });
    expect(previousPeriod(view('duration=today'), NOW)).toEqual({ from: '2026-11-25', to: '2026-11-25', label: 'yesterday' });
    expect(previousPeriod(view('duration=yesterday'), NOW)).toEqual({ from: '2026-11-24', to: '2026-11-24', label: 'the day before' });
    expect(previousPeriod(view('duration=48_hours'), NOW)).toEqual({ from: '2026-11-22', to: '2026-11-23', label: 'the two days before' });
    expect(previousPeriod(view('duration=1_year'), NOW).from).toBe('2024-11-27');
    expect(previousPeriod(view('duration=custom&from=2026-03-01&to=2026-03-31'), NOW)).toEqual({
      from: '2026-01-29',
      to: '2026-02-28',
      label: 'the 31 days before',
    });
    // In UTC it is still the 25th.
    expect(previousPeriod(viewFromQuery('duration=today&tz=UTC', ZONE), NOW).from).toBe('2026-11-24');
  });

  it('exports the same local days in the same zone; the last 48 hours are the export’s own default', () => {
    expect(exportBody(viewFromQuery('', ZONE), NOW)).toEqual({ startDate: '2026-11-20', endDate: '2026-11-26', timezone: ZONE });
    expect(exportBody(viewFromQuery('duration=48_hours', ZONE), NOW)).toEqual({ timezone: ZONE });
    expect(exportBody(viewFromQuery('duration=yesterday', ZONE), NOW)).toEqual({
      startDate: '2026-11-25',
      endDate: '2026-11-25',
      timezone: ZONE,
    });
    expect(exportBody(viewFromQuery('duration=custom&to=2026-11-10', ZONE), NOW)).toEqual({
      startDate: '2026-11-01',
      endDate: '2026-11-10',
      timezone: ZONE,
    });
  });

  it('exports bot scans too when the dashboard counts them', () => {
    expect(exportBody(viewFromQuery('bots=1', ZONE), NOW)).toEqual({
      startDate: '2026-11-20',
      endDate: '2026-11-26',
      timezone: ZONE,
      includeBots: true,
    });
    expect(exportBody(viewFromQuery('duration=48_hours&bots=1', ZONE), NOW)).toEqual({ timezone: ZONE, includeBots: true });
  });
});

describe('answers as the screen draws them', () => {
  it('the change in words, with nothing to compare said so', () => {
    expect(changeText(150, 100, 'the 7 days before')).toBe('+50% vs the 7 days before (100)');
    expect(changeText(50, 100, 'yesterday')).toBe('−50% vs yesterday (100)');
    expect(changeText(100, 100, 'yesterday')).toBe('±0% vs yesterday (100)');
    expect(changeText(3, 0, 'yesterday')).toBe('none in yesterday');
  });

  it('day buckets become UTC-midnight seconds with their counts when the answer has no hours', () => {
    const series = scanSeries({
      Year: { x: [2026], y: [5] },
      Month: { x: ['November'], y: [5] },
      Day: { x: ['2026-11-24', '2026-11-25'], y: [2, 3] },
    });
    expect(series).toEqual({
      unit: 'day',
      labels: ['2026-11-24', '2026-11-25'],
      xs: [Date.UTC(2026, 10, 24) / 1000, Date.UTC(2026, 10, 25) / 1000],
      ys: [2, 3],
    });
    expect(bucketLabel(series.labels[0]!)).toBe('2026-11-24');
  });

  it('hour buckets, when the answer has them, become their wall-clock start as UTC seconds', () => {
    const series = scanSeries({
      Year: { x: [2026], y: [5] },
      Month: { x: ['October'], y: [5] },
      Day: { x: ['2026-10-25'], y: [5] },
      Hour: { x: ['2026-10-25T01:00', '2026-10-25T02:00', '2026-10-25T23:00'], y: [0, 4, 1] },
    });
    expect(series.unit).toBe('hour');
    expect(series.xs).toEqual([Date.UTC(2026, 9, 25, 1) / 1000, Date.UTC(2026, 9, 25, 2) / 1000, Date.UTC(2026, 9, 25, 23) / 1000]);
    expect(series.ys).toEqual([0, 4, 1]);
    expect(bucketLabel(series.labels[1]!)).toBe('2026-10-25 02:00');
  });

  it('device types in words; names the console does not know stay as they are', () => {
    expect(['mobile', 'desktop', 'smarttv', 'Unknown', 'hologram'].map(deviceLabel)).toEqual([
      'Mobile',
      'Desktop',
      'Smart TV',
      'Unknown',
      'hologram',
    ]);
  });

  it('the weekday-hour answer as 7 rows of 24, Monday first, with shading levels', () => {
    const { rows, max } = weekGrid({ 'Mon-0': 4, 'Sun-23': 10, 'Wed-12': 1 });
    expect(rows).toHaveLength(7);
    expect(rows.every((r) => r.length === 24)).toBe(true);
    expect([rows[0]![0], rows[6]![23], rows[2]![12], rows[1]![5]]).toEqual([4, 10, 1, 0]);
    expect(max).toBe(10);
    expect([0, 1, 4, 10].map((n) => heatLevel(n, max))).toEqual([0, 1, 2, 5]);
    expect(weekGrid({}).max).toBe(1);
  });

  it('countries get their flag and a name in the reader’s language; an unknown name stays as it is', () => {
    expect(countryLabel('Germany', 'de')).toEqual({ flag: '🇩🇪', name: 'Deutschland' });
    expect(countryLabel('United States', 'en')).toEqual({ flag: '🇺🇸', name: 'United States' });
    expect(countryLabel('Unknown', 'en')).toEqual({ flag: '', name: 'Unknown' });
  });

  it('bars are a share of the top row, never vanishing for a non-zero row', () => {
    expect(barWidth({ scans: 50 }, 200)).toBe(25);
    expect(barWidth({ scans: 1 }, 100_000)).toBe(1);
    expect(barWidth({ scans: 0 }, 0)).toBe(0);
  });
});
