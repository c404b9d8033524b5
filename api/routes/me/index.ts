/**
 * `/me`: the caller (a person's session or a key) and, for a signed-in person, their own account
 * security: profile, password, two-factor sign-in.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import profileRoutes from './profile.js';
import passwordRoutes from './password.js';
import twoFactorRoutes from './two-factor.js';

const routes: FastifyPluginAsyncZod = async (app) => {
  await app.register(profileRoutes);
  await app.register(passwordRoutes, { prefix: '/password' });
  await app.register(twoFactorRoutes, { prefix: '/two-factor' });
};

export default routes;
