import type { Principal } from '#domain/accounts/api-keys.js';
import type { PlanFeature } from '#domain/accounts/plans.js';
import type { AuditEntity } from '#domain/audit/snapshots.js';
import type { Scope } from '#domain/accounts/scopes.js';
import type { Role } from '#domain/people/roles.js';
import type { AppContext } from '#infra/context.js';
import type { JobWaiter } from '#infra/jobs/job-waiter.js';
import type { Redis } from '#platform/redis/client.js';

/**
 * What a route needs from its caller. `scope: 'any'` is "any valid active key or session"
 * (analytics, jobs); `scope: 'public'` is no caller at all (signing in, accepting an invitation);
 * `plan` names a feature the account's plan must include; `role` the least role of the person
 * (for a key, of its maker) for what no scope names: people, keys, the audit log.
 */
export interface AuthRequirement {
  scope: Scope | 'any' | 'public';
  plan?: PlanFeature;
  role?: Role;
  /**
   * A public route that signs someone in (or mails them a way to): refused with 403
   * `csrf_rejected` when another site sent it, before its body is read (login CSRF, decision 0402).
   */
  signsIn?: true;
}

/**
 * What a state-changing route records in the audit log (api/plugins/app/audit.ts). The entity is
 * read before the handler and after a 2xx answer, and the fields that differ are recorded.
 * `id`: where the entity's id is, a path parameter (default `id`), or `response` for one the
 * answer names (a create: its `id`, or `data.id`). `bulk`: one event for a change of many,
 * recording the answer's `count` and `jobId` instead of fields.
 */
export interface AuditSpec {
  entity: AuditEntity;
  action: string;
  id?: { param: string } | 'response';
  bulk?: true;
}

/** A state-changing route that records nothing, and why (it changes nothing that is the account's, or only starts a read). */
export interface NoAudit {
  none: string;
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
    /** Every POST, PUT, PATCH and DELETE under /api/v1 must declare this (test/integration/audit/audit.test.ts). */
    audit?: AuditSpec | NoAudit;
  }
}
