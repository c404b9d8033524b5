/** The real redirect process's app on a random port, over the same context as a test api. */
import type { FastifyInstance } from 'fastify';
import { buildRedirectApp } from '../../redirect/app.js';
import type { AppContext } from '../../shared/context.js';

export interface TestRedirect {
  app: FastifyInstance;
  base: string;
  /** fetch against the redirect process; never follows redirects. */
  get(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

export async function startTestRedirect(ctx: AppContext): Promise<TestRedirect> {
  const app = await buildRedirectApp(ctx);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    app,
    base,
    get: (path, init) => fetch(`${base}${path}`, { redirect: 'manual', ...init }),
    close: () => app.close(),
  };
}
