/** The folders endpoints' request and response schemas. */
import { z } from 'zod';

const folderName = z.string().trim().min(1, 'Name is required').max(255, 'Name must be at most 255 characters');

export const createFolderBody = z.strictObject({ name: folderName });
export const renameFolderBody = z.strictObject({ name: folderName });

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
