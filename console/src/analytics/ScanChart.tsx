/**
 * Scans per hour or per day as bars, drawn by uPlot on a canvas (its CSS is bundled; it sizes elements through
 * the CSSOM, which the console's CSP allows). Colours are read from the page's computed styles, so
 * the chart follows the light or dark theme; the numbers are also in a table beside it for screen
 * readers, and the canvas is labelled by the panel's heading.
 */
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { ScanSeries } from './view.js';

const HEIGHT = 240;
const HOUR_S = 3600;
const DAY_S = 86_400;
const dayFormat = new Intl.DateTimeFormat(undefined, { timeZone: 'UTC', day: 'numeric', month: 'short' });
const hourFormat = new Intl.DateTimeFormat(undefined, { timeZone: 'UTC', hour: 'numeric', minute: '2-digit' });
/** A tick at a bucket's wall-clock start read as UTC (see tzDate): "26 Nov" at midnight, else "14:00". */
const tickLabel = (ts: number) => (ts % DAY_S === 0 ? dayFormat : hourFormat).format(new Date(ts * 1000));

/** Tick spacings, each a whole number of the chart's buckets. */
const INCREMENTS: Record<ScanSeries['unit'], number[]> = {
  hour: [HOUR_S, 2 * HOUR_S, 3 * HOUR_S, 6 * HOUR_S, 12 * HOUR_S, DAY_S, 2 * DAY_S],
  day: [DAY_S, 2 * DAY_S, 7 * DAY_S, 14 * DAY_S, 30 * DAY_S, 91 * DAY_S, 365 * DAY_S],
};

const COMPACT = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });

function options(el: HTMLElement, unit: ScanSeries['unit']): uPlot.Options {
  // `.scan-chart` has color: var(--accent) and its axes the text colour (CSS variables hold light-dark(), which a canvas cannot read).
  const accent = getComputedStyle(el).color;
  const text = getComputedStyle(el.parentElement!).color;
  const axis = { stroke: text, grid: { stroke: 'rgba(128,128,128,0.2)' }, ticks: { stroke: 'rgba(128,128,128,0.4)' } };
  const bucket = unit === 'hour' ? HOUR_S : DAY_S;
  return {
    width: Math.max(200, el.clientWidth),
    height: HEIGHT,
    // The x values are each bucket's local wall-clock start read as UTC: show them as UTC, whatever the browser's zone.
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    // Half a bucket either side, so the first and last bars are whole.
    scales: {
      x: { time: true, range: (_u, min, max) => [min - bucket / 2, max + bucket / 2] },
      y: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.1))] },
    },
    axes: [
      { ...axis, incrs: INCREMENTS[unit], values: (_u, ticks) => ticks.map(tickLabel) },
      {
        ...axis,
        incrs: [
          1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000, 1e6, 2e6, 5e6, 1e7,
        ],
        // "20K", "1.5M": at any magnitude the labels fit the axis's width instead of being cut ("0,000").
        values: (_u, ticks) => ticks.map((n) => COMPACT.format(n)),
        size: 48,
      },
    ],
    series: [{}, { label: 'Scans', stroke: accent, fill: accent, paths: uPlot.paths.bars!({ size: [0.7, 48] }), points: { show: false } }],
    // data-drawn: the buckets on the canvas, set once uPlot has drawn them ("0" before the data
    // came). The benchmark (bench/console-analytics.ts) waits for it.
    hooks: { draw: [(u) => el.setAttribute('data-drawn', String(u.data[0]?.length ?? 0))] },
  };
}

export function ScanChart({ series, labelledBy }: { series: ScanSeries; labelledBy: string }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  const { unit, xs, ys } = series;

  useEffect(() => {
    const el = box.current!;
    const build = () => {
      const data = chart.current?.data ?? [[], []];
      chart.current?.destroy();
      chart.current = new uPlot(options(el, unit), data, el);
    };
    build();
    const resize = new ResizeObserver(() => chart.current?.setSize({ width: Math.max(200, el.clientWidth), height: HEIGHT }));
    resize.observe(el);
    // The colours are read once per chart: a theme change (the toggle, or the system's) draws it anew.
    const themeChange = new MutationObserver(build);
    themeChange.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    const systemTheme = matchMedia('(prefers-color-scheme: dark)');
    systemTheme.addEventListener('change', build);
    return () => {
      resize.disconnect();
      themeChange.disconnect();
      systemTheme.removeEventListener('change', build);
      chart.current?.destroy();
      chart.current = null;
    };
  }, [unit]);

  useEffect(() => chart.current?.setData([xs, ys]), [xs, ys]);

  return <div ref={box} class="scan-chart" role="img" aria-labelledby={labelledBy} />;
}
