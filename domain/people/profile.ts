/**
 * A person's own profile: their name. A name is shown to everyone in their accounts (members,
 * invitations, mails), so it is refused when it could pass for something else: control characters
 * (line breaks, tabs, escape sequences) and the invisible marks that reverse or embed text
 * direction (U+202A–U+202E, U+2066–U+2069) are a 400, not silently removed (like any text we
 * store: a changed name is worse than an error). Trimmed; an empty name clears it.
 */
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../database.js';
import { users } from '../schema.js';

export const PERSON_NAME_MAX_CHARS = 100;

const HIDDEN = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

/** A person's name as a request gives it: null or blank clears it. */
export const personName = z
  .string()
  .max(PERSON_NAME_MAX_CHARS * 2)
  .refine((v) => !HIDDEN.test(v), 'A name cannot contain control characters (line breaks, tabs, …) or text-direction marks')
  .transform((v) => v.trim())
  .refine((v) => [...v].length <= PERSON_NAME_MAX_CHARS, `Use at most ${PERSON_NAME_MAX_CHARS} characters`)
  .nullable()
  .meta({ description: `Up to ${PERSON_NAME_MAX_CHARS} characters, shown to the other members; null or blank clears it` });

/** Sets the person's name (already checked by `personName`); an empty one clears it. */
export async function renameUser(db: Database, userId: string, name: string | null): Promise<void> {
  await db
    .update(users)
    .set({ name: name || null, updatedAt: sql`now()` })
    .where(eq(users.id, userId));
}
