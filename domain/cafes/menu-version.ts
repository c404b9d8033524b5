/**
 * A cafe's menu version: its `updated_at` in microseconds, as text. Every menu write marks the
 * cafe updated (see writeMenu), so the version changes whenever the menu does. The redirect's
 * menu page cache is keyed by the version the link resolver loads and checked against the one
 * the published menu is read with, so both read it through this one expression.
 */

/** The SQL expression of the menu version of the `cafes` row aliased `cafe` in a query. */
export function menuVersionSql(cafe: string): string {
  return `(extract(epoch from ${cafe}.updated_at) * 1000000)::bigint::text`;
}
