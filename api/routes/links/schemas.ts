/** Response schemas of the links endpoints (request schemas are the domain's: domain/links/schemas.ts). */
import { z } from 'zod';
import { LINK_STATUSES } from '../../../domain/links/status.js';

const fileView = z.object({ fileId: z.string(), url: z.string(), contentType: z.string(), size: z.number() });

/** A link as answered by get, list and update (view.ts). */
export const linkResponse = z.object({
  id: z.string(),
  dynamic_link_id: z.string(),
  full_dynamic_url: z.string(),
  name: z.string(),
  type: z.string(),
  meta_data: z.record(z.string(), z.unknown()),
  qr_options: z.record(z.string(), z.unknown()),
  page_style: z
    .record(z.string(), z.unknown())
    .nullable()
    .meta({ description: 'The pageStyle set on the link (brand and language of its page), or null' }),
  folder_id: z.string().nullable(),
  menu: z.string().nullable(),
  favorite: z.boolean(),
  paused: z.boolean(),
  status: z.enum(LINK_STATUSES),
  url_active: z.boolean(),
  custom_url: z.string().nullable(),
  schedule_active: z.boolean(),
  start_date: z.string().nullable(),
  end_date: z.string().nullable(),
  schedule_timezone: z.string().nullable(),
  scan_limit_active: z.boolean(),
  scan_limit: z.number().nullable(),
  password_protected_active: z.boolean(),
  password: z.string().nullable().describe('bcrypt hash when password protection is on; never plaintext'),
  scan_count: z.number(),
  human_scan_count: z.number(),
  limit_scan_count: z.number().describe('human scans counted against scan_limit: each visitor once per UTC day'),
  last_scanned_at: z.string().nullable(),
  files: z.array(fileView),
  created_at: z.string(),
  updated_at: z.string(),
});
