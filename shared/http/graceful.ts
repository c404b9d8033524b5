import type { FastifyInstance } from 'fastify';

/**
 * Once the server starts closing, answers to requests still in flight say `Connection: close`,
 * so their keep-alive sockets end with the answer instead of holding shutdown open until the
 * keep-alive timeout. Shared by the api and redirect servers.
 */
export function closeConnectionsOnShutdown(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
}
