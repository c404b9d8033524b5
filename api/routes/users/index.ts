/** Sign-up (decision 0409): with REGISTRATION=open anyone makes a sign-in and an account of their own. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { signUp } from '#domain/people/setup.js';
import { signUpBody } from './schemas.js';
import { signedInResponse, signInAs } from '../../sign-in.js';
import { errorResponses } from '../../schemas.js';

const routes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.ctx;

  app.post('', {
    config: { auth: { scope: 'public', signsIn: true }, audit: { none: 'signing up makes a new account of its own' } },
    schema: {
      tags: ['people'],
      summary: 'Sign up: a new person with an account of their own (owner), signed in (sets the session cookie)',
      description:
        'Only with REGISTRATION=open; otherwise 403 `registration_closed` (people come in by invitation). An address already used here is a 409 `email_taken`.',
      body: signUpBody,
      response: { 200: signedInResponse, ...errorResponses(403, 409, 429) },
    },
    handler: async (request, reply) => {
      const { user, accountId } = await signUp(db, config.REGISTRATION, request.body, config.REGISTRATION_PLAN);
      return signInAs(app.ctx, request, reply, user, accountId);
    },
  });
};

export default routes;
