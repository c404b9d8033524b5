/** Response schemas of the folders endpoints (request schemas: domain/folders/schemas.ts). */
import { z } from 'zod';

const folderFields = {
  id: z.string(),
  name: z.string(),
  account_id: z.string(),
  created_by: z.string().nullable(),
  updated_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
};
/** Create answers with ISO timestamps, list/get/update with `Mon DD, YYYY` (API contract). */
export const folderResponse = z.object(folderFields);
