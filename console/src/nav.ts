/**
 * The console's pages and what a key needs to use each. A page the key cannot use stays in the
 * navigation, disabled, with the reason in words; pages not built yet say so.
 */
import { roleBlock } from './access.js';
import type { Me } from './api/client.js';
import type { IconName } from './ui/icons.js';

export interface Page {
  path: string;
  label: string;
  icon: IconName;
  /** The scope the page's reads need; 'any' for what every valid key may see. */
  scope: string | 'any';
  /** Why a client may not use the page (the account's own numbers and people, decision 0412); absent: it may. */
  notForClients?: string;
  /** Key management also needs a plan that includes it (and the `all` scope). */
  needsKeyManagement?: boolean;
  /** Where the page's work is done over the API until the console has it. */
  apiPath: string;
  built: boolean;
  /** An admin's or owner's page, with the `all` scope (the audit log, webhooks): what it lets them do, in words. */
  needsAdmin?: string;
  /** A person's own page (their profile): a key has no person to show. */
  needsPerson?: boolean;
  /** Reached from elsewhere (the person menu), not listed in the navigation. */
  unlisted?: boolean;
}

const ACCOUNT_NUMBERS = "The account's numbers are not a client's; each of your links shows its own.";

export const PAGES: readonly Page[] = [
  {
    path: '/',
    icon: 'home',
    label: 'Home',
    scope: 'any',
    notForClients: ACCOUNT_NUMBERS,
    apiPath: '/api/v1/analytics/general',
    built: true,
  },
  { path: '/links', icon: 'link', label: 'Links', scope: 'links.read', apiPath: '/api/v1/links', built: true },
  { path: '/templates', icon: 'palette', label: 'Templates', scope: 'templates.read', apiPath: '/api/v1/templates', built: true },
  {
    path: '/utm-templates',
    icon: 'send',
    label: 'UTM templates',
    scope: 'templates.read',
    apiPath: '/api/v1/utm-templates',
    built: true,
  },
  { path: '/bulk', icon: 'stack', label: 'Bulk', scope: 'bulk.create', apiPath: '/api/v1/bulk-generate', built: true },
  { path: '/jobs', icon: 'list-check', label: 'Jobs', scope: 'any', apiPath: '/api/v1/jobs', built: true },
  { path: '/keys', icon: 'key', label: 'API keys', scope: 'all', needsKeyManagement: true, apiPath: '/api/v1/api-keys', built: true },
  {
    path: '/analytics',
    icon: 'chart-bar',
    label: 'Analytics',
    scope: 'any',
    notForClients: ACCOUNT_NUMBERS,
    apiPath: '/api/v1/analytics/general',
    built: true,
  },
  { path: '/cafes', icon: 'coffee', label: 'Cafes', scope: 'cafe.read', apiPath: '/api/v1/cafes', built: true },
  {
    path: '/domains',
    icon: 'world',
    label: 'Domains',
    scope: 'any',
    notForClients: "The account's domains are its team's to manage; your links show their own addresses.",
    apiPath: '/api/v1/domains',
    built: true,
  },
  {
    path: '/webhooks',
    icon: 'webhook',
    label: 'Webhooks',
    scope: 'any',
    needsAdmin: 'manage webhooks',
    apiPath: '/api/v1/webhooks',
    built: true,
  },
  {
    path: '/members',
    icon: 'users',
    label: 'Members',
    scope: 'any',
    notForClients: "Who works in this account is its team's to see; ask the person who invited you.",
    apiPath: '/api/v1/members',
    built: true,
  },
  {
    path: '/activity',
    icon: 'history',
    label: 'Activity',
    scope: 'any',
    needsAdmin: 'read the activity log',
    apiPath: '/api/v1/audit-events',
    built: true,
  },
  { path: '/profile', icon: 'user', label: 'Profile', scope: 'any', needsPerson: true, unlisted: true, apiPath: '/api/v1/me', built: true },
];

/** The page a path belongs to: its own path, or one beneath it (`/links/new` is the Links page's). */
export function pageOf(path: string): Page | undefined {
  return PAGES.find((p) => path === p.path || (p.path !== '/' && path.startsWith(`${p.path}/`)));
}

export type Access = { allowed: true } | { allowed: false; reason: string };

export function pageAccess(page: Page, me: Me): Access {
  if (page.needsKeyManagement && !me.plan.apiKeyManagement) {
    return {
      allowed: false,
      reason: `The ${me.account.plan} plan does not include managing keys here; the operator issues them with the CLI (npm run cli -- key create).`,
    };
  }
  if (page.notForClients && me.role === 'client') {
    return { allowed: false, reason: page.notForClients };
  }
  if (page.needsPerson && (me.key || !me.user)) {
    return { allowed: false, reason: 'A key has no profile of its own; sign in with your email address and password to see yours.' };
  }
  const adminBlock = page.needsAdmin ? roleBlock(me, 'admin', page.needsAdmin) : null;
  if (adminBlock) return { allowed: false, reason: adminBlock };
  const scopes = me.scopes;
  if (page.scope === 'any' || scopes.includes('all') || scopes.includes(page.scope)) return { allowed: true };
  return {
    allowed: false,
    reason: me.key ? `This key lacks the ${page.scope} scope.` : `Your role (${me.role}) does not allow ${page.scope}.`,
  };
}
