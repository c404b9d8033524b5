import { eq } from 'drizzle-orm';
import type { Database } from '../database.js';
import { endUnfinishedJobs } from '../jobs/records.js';
import { cafes } from './tables.js';

/**
 * Deletes the cafe a link serves, and its menu (by cascade), in a statement of its own. The link's
 * deletion runs it before anything else: it waits for the menu write in progress (which holds the
 * cafe row), and no later write finds the cafe, so none can attach a file to the link or hold a
 * menu row while the link's files go. The foreign key's cascade alone would come too late, when
 * the link row goes. Bulk inserts still waiting for the cafe end as failed, their menus (up to
 * 16 MiB each) deleted with them rather than kept until a worker gets to them.
 */
export async function deleteCafeOfLink(db: Database, linkId: string): Promise<void> {
  const deleted = await db.delete(cafes).where(eq(cafes.linkId, linkId)).returning({ id: cafes.id, accountId: cafes.accountId });
  for (const cafe of deleted) {
    await endUnfinishedJobs(
      db,
      { accountId: cafe.accountId, type: 'cafe-bulk-insert', payloadField: ['cafeId', cafe.id] },
      'The cafe was deleted',
    );
  }
}
