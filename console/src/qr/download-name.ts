/**
 * A downloaded code's file name: the design's name made safe for file systems, its size and type.
 * Apart from the renderer, so a screen that only downloads codes does not load it.
 */
export function downloadName(name: string, size: number | string, format: 'png' | 'svg' | 'pdf'): string {
  const base =
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .toLowerCase()
      .slice(0, 60) || 'qr-code';
  return `${base}-${size}.${format}`;
}
