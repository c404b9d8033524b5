/**
 * A tiny line of counts (oldest first), drawn to scale between zero and the largest; decoration
 * beside a number that says the total, so it is hidden from assistive technology.
 */
export function Sparkline({ values, width = 56, height = 18 }: { values: readonly number[]; width?: number; height?: number }) {
  if (values.length < 2) return null;
  const top = Math.max(1, ...values);
  const step = width / (values.length - 1);
  const points = values.map((v, i) => `${(i * step).toFixed(1)},${(height - 1 - (v / top) * (height - 2)).toFixed(1)}`).join(' ');
  return (
    <svg
      class={values.some((v) => v > 0) ? 'sparkline' : 'sparkline sparkline-flat'}
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      aria-hidden="true"
      focusable="false"
    >
      <polyline points={points} fill="none" stroke="currentColor" stroke-width="1.5" stroke-linejoin="round" stroke-linecap="round" />
    </svg>
  );
}
