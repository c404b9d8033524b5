/** The members endpoints' request and response schemas. */
import { z } from 'zod';
import { CLIENT_ACCESS, ROLES } from '#domain/people/roles.js';
import { clientAccess, folderIds, role } from '../invitations/schemas.js';

export const changeMemberBody = z.strictObject({ role: role.optional(), clientAccess, folderIds });

export const memberResponse = z.object({
  userId: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  role: z.enum(ROLES),
  clientAccess: z.enum(CLIENT_ACCESS).nullable(),
  folderIds: z.array(z.string()).nullable(),
  joinedAt: z.string(),
  twoFactor: z.boolean(),
  lastSeenAt: z.string().nullable().meta({ description: 'The latest request of any of their sessions in this account' }),
});
