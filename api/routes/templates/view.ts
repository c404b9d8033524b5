import type { TemplateRow } from '#domain/templates/templates.js';
import { dateFormatter, type DateStyle } from '../../dates.js';

/** A template as the API answers it (templateResponse): `iso` dates on create, `list` ones elsewhere. */
export function templateView(row: TemplateRow, dates: DateStyle) {
  const fmt = dateFormatter(dates);
  return {
    id: row.id,
    account_id: row.accountId,
    name: row.name,
    qr_options: row.qrOptions,
    created_at: fmt(row.createdAt),
    updated_at: fmt(row.updatedAt),
  };
}
