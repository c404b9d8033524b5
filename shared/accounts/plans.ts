import type { Plan } from '../../db/schema.js';

export { PLANS, type Plan } from '../../db/schema.js';

/** Features that depend on the account's plan. A plan without one answers 401, not 403 (spec). */
export type PlanFeature = 'api-key-management';

const FEATURES: Record<Plan, ReadonlySet<PlanFeature>> = {
  starter: new Set(),
  pro: new Set(['api-key-management']),
  business: new Set(['api-key-management']),
  // The spec lists enterprise with starter as lacking HTTP key management: enterprise keys are
  // issued by the operator (CLI), not self-served.
  enterprise: new Set(),
};

export function planAllows(plan: Plan, feature: PlanFeature): boolean {
  return FEATURES[plan].has(feature);
}
