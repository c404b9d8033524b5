import { eq } from 'drizzle-orm';
import type { Database } from '../database.js';
import { cafes } from './tables.js';

/**
 * Deletes the cafe a link serves, and its menu (by cascade), in a statement of its own. The link's
 * deletion runs it before anything else: it waits for the menu write in progress (which holds the
 * cafe row), and no later write finds the cafe, so none can attach a file to the link or hold a
 * menu row while the link's files go. The foreign key's cascade alone would come too late, when
 * the link row goes.
 */
export async function deleteCafeOfLink(db: Database, linkId: string): Promise<void> {
  await db.delete(cafes).where(eq(cafes.linkId, linkId));
}
