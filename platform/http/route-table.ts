import fp from 'fastify-plugin';
import type { FastifyContextConfig, FastifySchema } from 'fastify';

/** One method of one route, as it was registered. */
export interface RouteEntry {
  method: string;
  url: string;
  config: FastifyContextConfig;
  schema: FastifySchema | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered on the app, with its config and schemas (platform/http/route-table.ts). */
    routeTable: ReadonlyArray<RouteEntry>;
  }
}

/**
 * The app's own route table (`app.routeTable`), filled by an onRoute hook as routes are added:
 * Fastify has no way to list routes with their options afterwards. Tests walk it so a route added
 * later is fuzzed and checked for tenancy and scopes (the api), or its path kept from custom slugs
 * (the redirect), without being listed anywhere.
 */
export default fp(async (app) => {
  const table: RouteEntry[] = [];
  app.decorate('routeTable', table as ReadonlyArray<RouteEntry>);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      table.push({ method, url: route.url ?? route.path, config: route.config ?? {}, schema: route.schema });
    }
  });
});
