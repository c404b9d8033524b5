/**
 * The console's pages and what a key needs to use each. A page the key cannot use stays in the
 * navigation, disabled, with the reason in words; pages not built yet say so.
 */
import type { Me } from './api/client.js';

export interface Page {
  path: string;
  label: string;
  /** The scope the page's reads need; 'any' for what every valid key may see. */
  scope: string | 'any';
  /** Key management also needs a plan that includes it (and the `all` scope). */
  needsKeyManagement?: boolean;
  /** Where the page's work is done over the API until the console has it. */
  apiPath: string;
  built: boolean;
}

export const PAGES: readonly Page[] = [
  { path: '/links', label: 'Links', scope: 'links.read', apiPath: '/api/v1/links', built: true },
  { path: '/templates', label: 'Templates', scope: 'templates.read', apiPath: '/api/v1/templates', built: true },
  { path: '/bulk', label: 'Bulk', scope: 'bulk.create', apiPath: '/api/v1/bulk-generate', built: true },
  { path: '/jobs', label: 'Jobs', scope: 'any', apiPath: '/api/v1/jobs', built: true },
  { path: '/keys', label: 'API keys', scope: 'all', needsKeyManagement: true, apiPath: '/api/v1/api-keys', built: true },
  { path: '/analytics', label: 'Analytics', scope: 'any', apiPath: '/api/v1/analytics/general', built: true },
  { path: '/cafes', label: 'Cafes', scope: 'cafe.read', apiPath: '/api/v1/cafes', built: true },
];

/** The page a path belongs to: its own path, or one beneath it (`/links/new` is the Links page's). */
export function pageOf(path: string): Page | undefined {
  return PAGES.find((p) => path === p.path || path.startsWith(`${p.path}/`));
}

export type Access = { allowed: true } | { allowed: false; reason: string };

export function pageAccess(page: Page, me: Me): Access {
  if (page.needsKeyManagement && !me.plan.apiKeyManagement) {
    return {
      allowed: false,
      reason: `The ${me.account.plan} plan does not include managing keys here; the operator issues them with the CLI (npm run cli -- key create).`,
    };
  }
  const scopes = me.key.scopes;
  if (page.scope === 'any' || scopes.includes('all') || scopes.includes(page.scope)) return { allowed: true };
  return { allowed: false, reason: `This key lacks the ${page.scope} scope.` };
}
