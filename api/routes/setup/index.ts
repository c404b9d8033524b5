/**
 * First start (decision 0409): while nobody signs in here, the one-time setup link (printed by
 * `npm start` and `npm run cli -- setup-link`) makes the first owner and account.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { completeSetup, setupNeeded } from '#domain/people/setup.js';
import { setupBody } from '../users/schemas.js';
import { signedInResponse, signInAs } from '../../sign-in.js';
import { errorResponses } from '../../schemas.js';

const tags = ['people'];
const PUBLIC = { scope: 'public' } as const;
const SIGNS_IN = { scope: 'public', signsIn: true } as const;

const routes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.ctx;

  app.get('', {
    config: { auth: PUBLIC },
    schema: {
      tags,
      summary: 'Whether this service still waits for its first owner (then the console asks for the setup link)',
      response: { 200: z.object({ needed: z.boolean() }) },
    },
    handler: async () => ({ needed: await setupNeeded(db) }),
  });

  app.post('', {
    config: { auth: SIGNS_IN, audit: { none: 'makes the first person and account, before anyone can read a log' } },
    schema: {
      tags,
      summary: 'Make the first owner and account with the setup link, and sign in (sets the session cookie)',
      description:
        'Only while nobody signs in here (else 409 `setup_done`); the link works once (else 404 `setup_link_invalid`). The account gets the SETUP_PLAN plan.',
      body: setupBody,
      response: { 200: signedInResponse, ...errorResponses(403, 404, 409, 429) },
    },
    handler: async (request, reply) => {
      const { user, accountId } = await completeSetup(db, request.body, config.SETUP_PLAN);
      return signInAs(app.ctx, request, reply, user, accountId);
    },
  });
};

export default routes;
