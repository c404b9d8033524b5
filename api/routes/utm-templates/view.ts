import type { UtmTemplateRow } from '#domain/utm/utm-templates.js';

/** A UTM template as the API answers it (utmTemplateResponse), dates ISO 8601. */
export function utmTemplateView(row: UtmTemplateRow) {
  return {
    id: row.id,
    name: row.name,
    utm: row.utm,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
