/** The request schemas of sign-up (POST /users) and of the first start (POST /setup, setup/index.ts). */
import { z } from 'zod';
import { accountName, email, linkToken, password, personName } from '../invitations/schemas.js';

export const signUpBody = z.strictObject({ email, password, name: personName.optional(), accountName });
export const setupBody = signUpBody.extend({ token: linkToken });
