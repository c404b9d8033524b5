const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The API contract's `<Mon DD, YYYY>`: English month, zero-padded day, in UTC (`Nov 05, 2026`). */
export function formatListDate(date: Date): string {
  const day = String(date.getUTCDate()).padStart(2, '0');
  return `${MONTHS[date.getUTCMonth()]} ${day}, ${date.getUTCFullYear()}`;
}

export type DateStyle = 'iso' | 'list';

/** Create answers carry ISO 8601 timestamps; lists and gets carry `Mon DD, YYYY` (API contract). */
export function dateFormatter(style: DateStyle): (date: Date) => string {
  return style === 'iso' ? (d) => d.toISOString() : formatListDate;
}
