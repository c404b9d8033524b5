import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { authenticateApiKey } from '../../../shared/accounts/api-keys.js';
import { planAllows } from '../../../shared/accounts/plans.js';
import { hasScope } from '../../../shared/accounts/scopes.js';
import { ForbiddenError, UnauthorizedError } from '../../../shared/http/errors.js';

/**
 * `Authorization: Basic <key>` with the raw key (not base64, not user:password). Runs before
 * body parsing and validation, so an unauthenticated caller learns nothing about the payload
 * rules. Order of answers: no/bad key 401, plan without the feature 401, missing scope 403.
 */
export default fp(async (app) => {
  app.decorateRequest('principal', null as never);
  app.addHook('onRequest', async (request) => {
    const requirement = request.routeOptions.config.auth;
    if (!requirement) return;
    const key = readKey(request);
    if (!key) throw new UnauthorizedError();
    const principal = await authenticateApiKey(app.ctx.db, key);
    if (!principal) throw new UnauthorizedError();
    if (requirement.plan && !planAllows(principal.plan, requirement.plan)) throw new UnauthorizedError();
    if (requirement.scope !== 'any' && !hasScope(principal.scopes, requirement.scope)) throw new ForbiddenError();
    request.principal = principal;
  });
});

function readKey(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Basic ([^\s]+)$/.exec(header.trim());
  return match ? match[1]! : null;
}
