/**
 * The invitations endpoints' request and response schemas, and the fields every body about people
 * shares (members/schemas.ts and users/schemas.ts build theirs from them).
 */
import { z } from 'zod';
import { CLIENT_ACCESS, ROLES } from '#domain/people/roles.js';

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
export const email = z.string().max(254, 'An email address has at most 254 characters');
/** The rules of a new password are checked when it is hashed (passwords.ts); this only bounds the body. */
export const password = z.string().min(1, 'Password is required').max(1000);
export const linkToken = z.string().max(200);
export const role = z.enum(ROLES, { error: `Must be one of: ${ROLES.join(', ')}` });
export const clientAccess = z
  .enum(CLIENT_ACCESS, { error: `Must be one of: ${CLIENT_ACCESS.join(', ')}` })
  .nullable()
  .optional()
  .meta({ description: "A client's access inside its folders (default view); only for the client role" });
export const folderIds = z
  .array(z.string().max(64))
  .max(1000)
  .nullable()
  .optional()
  .meta({ description: "A client's folders (this account's); only for the client role" });

export const inviteBody = z.strictObject({ email, role, clientAccess, folderIds });
export const tokenBody = z.strictObject({ token: linkToken });
export const acceptInvitationBody = z.strictObject({
  token: linkToken,
  password,
  name: personName.optional(),
  totp: z
    .string()
    .max(20)
    .optional()
    .meta({ description: 'When the address already signs in with two-factor on: the authenticator code, or a recovery code' }),
});

const access = {
  role: z.enum(ROLES),
  clientAccess: z.enum(CLIENT_ACCESS).nullable().meta({ description: "A client's access inside its folders; null for other roles" }),
  folderIds: z.array(z.string()).nullable().meta({ description: "A client's folders; null for other roles" }),
};

export const invitationCreated = z.object({
  id: z.string(),
  email: z.string(),
  ...access,
  expiresAt: z.string(),
  link: z.string().meta({ description: 'The one-time link the invited person opens (also mailed); valid until expiresAt' }),
  mailed: z.boolean().meta({ description: 'Whether the mail server took the mail; false: hand the link over yourself' }),
});

export const invitationResponse = z.object({
  id: z.string(),
  email: z.string(),
  ...access,
  invitedBy: z.object({ id: z.string(), email: z.string(), name: z.string().nullable() }).nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
  status: z.enum(['pending', 'accepted', 'expired', 'revoked']),
});

export const invitationPreview = z.object({
  email: z.string(),
  accountName: z.string(),
  role: z.enum(ROLES),
  inviterName: z.string().nullable(),
  userExists: z.boolean().meta({ description: 'Whether this address already signs in here: then accepting asks for its password' }),
});
