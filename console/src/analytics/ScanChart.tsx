/**
 * Scans per day as bars, drawn by uPlot on a canvas (its CSS is bundled; it sizes elements through
 * the CSSOM, which the console's CSP allows). Colours are read from the page's computed styles, so
 * the chart follows the light or dark theme; the numbers are also in a table beside it for screen
 * readers, and the canvas is labelled by the panel's heading.
 */
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

const HEIGHT = 240;

export function ScanChart({ xs, ys, labelledBy }: { xs: number[]; ys: number[]; labelledBy: string }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);

  useEffect(() => {
    const el = box.current!;
    const styles = getComputedStyle(el);
    // `.scan-chart` has color: var(--accent) and its axes the text colour (CSS variables hold light-dark(), which a canvas cannot read).
    const accent = styles.color;
    const text = getComputedStyle(el.parentElement!).color;
    const plot = new uPlot(
      {
        width: Math.max(200, el.clientWidth),
        height: HEIGHT,
        // The x values are each local day's UTC midnight: show them as UTC, whatever the browser's zone.
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        legend: { show: false },
        cursor: { show: true, drag: { x: false, y: false } },
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.1))] } },
        axes: [
          { stroke: text, grid: { stroke: 'rgba(128,128,128,0.2)' }, ticks: { stroke: 'rgba(128,128,128,0.4)' } },
          { stroke: text, grid: { stroke: 'rgba(128,128,128,0.2)' }, ticks: { stroke: 'rgba(128,128,128,0.4)' } },
        ],
        series: [{}, { label: 'Scans', stroke: accent, fill: accent, paths: uPlot.paths.bars!({ size: [0.7, 48] }), points: { show: false } }],
      },
      [[], []],
      el,
    );
    chart.current = plot;
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(200, el.clientWidth), height: HEIGHT }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
      chart.current = null;
    };
  }, []);

  useEffect(() => chart.current?.setData([xs, ys]), [xs, ys]);

  return <div ref={box} class="scan-chart" role="img" aria-labelledby={labelledBy} />;
}
