import type { Plan } from '../schema.js';

export { PLANS, type Plan } from '../schema.js';

/** Features that depend on the account's plan. A plan without one answers 401, not 403 (API contract). */
export type PlanFeature = 'api-key-management';

const FEATURES: Record<Plan, ReadonlySet<PlanFeature>> = {
  starter: new Set(),
  pro: new Set(['api-key-management']),
  business: new Set(['api-key-management']),
  // The API contract lists enterprise with starter as lacking HTTP key management: enterprise keys are
  // issued by the operator (CLI), not self-served.
  enterprise: new Set(),
};

export function planAllows(plan: Plan, feature: PlanFeature): boolean {
  return FEATURES[plan].has(feature);
}

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

/**
 * Bytes of stored files an account may hold: unique contents (a file uploaded twice, or shared by
 * a duplicated link, counts once), including uploads no link uses yet until the sweep removes
 * them. Sized for the plans' use: a starter account fits a few menus and galleries (about twenty
 * files at the 25 MB upload limit); each plan up holds several times the one below.
 */
export const STORAGE_QUOTA_BYTES: Record<Plan, number> = {
  starter: 500 * MIB,
  pro: 5 * GIB,
  business: 25 * GIB,
  enterprise: 100 * GIB,
};

/**
 * Brand domains an account may add (decision 0425): one for a cafe's own name on the starter
 * plan, a handful for a marketing team, one per client for an agency.
 */
export const DOMAINS_PER_PLAN: Record<Plan, number> = {
  starter: 1,
  pro: 5,
  business: 25,
  enterprise: 100,
};
