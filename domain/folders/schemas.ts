import { z } from 'zod';

export const folderName = z.string().trim().min(1, 'Name is required').max(255, 'Name must be at most 255 characters');

export const createFolderBody = z.strictObject({ name: folderName });
export const renameFolderBody = z.strictObject({ name: folderName });
