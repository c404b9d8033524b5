import type { Principal } from '../domain/accounts/api-keys.js';
import type { PlanFeature } from '../domain/accounts/plans.js';
import type { Scope } from '../domain/accounts/scopes.js';
import type { AppContext } from '../domain/context.js';
import type { JobWaiter } from '../domain/jobs/wait.js';
import type { Redis } from '../platform/redis/client.js';

/**
 * What a route needs from its caller. `scope: 'any'` is "any valid active key" (analytics,
 * jobs); `plan` names a feature the account's plan must include.
 */
export interface AuthRequirement {
  scope: Scope | 'any';
  plan?: PlanFeature;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
    /** The request path's fail-fast Redis connection (plugins/app/request-redis.ts). */
    requestRedis: Redis;
    /** Waits for account jobs a request queued (api/job-reply.ts). */
    jobWaiter: JobWaiter;
  }
  interface FastifyRequest {
    principal: Principal;
  }
  interface FastifyContextConfig {
    /** Every route under /api/v1 must declare this; routes without it are public (health, docs). */
    auth?: AuthRequirement;
  }
}
