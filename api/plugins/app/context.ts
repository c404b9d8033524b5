import fp from 'fastify-plugin';
import type { AppContext } from '#infra/context.js';

/** Makes the process's context (db, redis, queues, storage, config) reachable from every route as `app.ctx`. */
export default fp<{ ctx: AppContext }>(async (app, { ctx }) => {
  app.decorate('ctx', ctx);
});
