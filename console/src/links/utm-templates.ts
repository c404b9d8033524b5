/** The account's UTM templates as the API answers them. */
import type { paths } from '../api/schema.js';
import { UTM_FIELDS } from '#domain/links/utm-fields.js';

export type UtmTemplate = paths['/api/v1/utm-templates']['get']['responses'][200]['content']['application/json']['data'][number];

/** A template's parameters in one line: `source=flyer · medium=print`. */
export function utmSummary(utm: UtmTemplate['utm']): string {
  return UTM_FIELDS.flatMap((f) => (utm[f] ? [`${f}=${utm[f]}`] : [])).join(' · ');
}
