/** Request bodies about people: invitations, members, first start and sign-up. */
import { z } from 'zod';
import { CLIENT_ACCESS, ROLES } from './roles.js';

const CONTROL = /[\p{Cc}\u2028\u2029]/u;

export const personName = z
  .string()
  .trim()
  .max(200, 'Name must be at most 200 characters')
  .refine((v) => !CONTROL.test(v), 'A name cannot contain control characters (line breaks, tabs, …)');
export const accountName = z
  .string()
  .trim()
  .min(1, 'Name is required')
  .max(255, 'Name must be at most 255 characters')
  .refine((v) => !CONTROL.test(v), 'A name cannot contain control characters (line breaks, tabs, …)');
const email = z.string().max(254, 'An email address has at most 254 characters');
/** The rules of a new password are checked when it is hashed (passwords.ts); this only bounds the body. */
const password = z.string().min(1, 'Password is required').max(1000);
const linkToken = z.string().max(200);
const role = z.enum(ROLES, { error: `Must be one of: ${ROLES.join(', ')}` });
const clientAccess = z
  .enum(CLIENT_ACCESS, { error: `Must be one of: ${CLIENT_ACCESS.join(', ')}` })
  .nullable()
  .optional()
  .meta({ description: "A client's access inside its folders (default view); only for the client role" });
const folderIds = z
  .array(z.string().max(64))
  .max(1000)
  .nullable()
  .optional()
  .meta({ description: "A client's folders (this account's); only for the client role" });

export const inviteBody = z.strictObject({ email, role, clientAccess, folderIds });
export const changeMemberBody = z.strictObject({ role: role.optional(), clientAccess, folderIds });
export const tokenBody = z.strictObject({ token: linkToken });
export const acceptInvitationBody = z.strictObject({ token: linkToken, password, name: personName.optional() });
export const signUpBody = z.strictObject({ email, password, name: personName.optional(), accountName });
export const setupBody = signUpBody.extend({ token: linkToken });
