import { z } from 'zod';
import { CLIENT_ACCESS, ROLES } from '../../../domain/people/roles.js';

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
