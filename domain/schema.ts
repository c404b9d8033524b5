/**
 * The whole database, designed for all of the API at once so later features add code, not
 * tables. Every tenant-owned table carries account_id and every query filters on it.
 * Each domain declares its own tables (`<domain>/tables.ts`); this module gathers them for the
 * Drizzle handle (domain/database.ts) and drizzle-kit (drizzle.config.ts).
 * Generated SQL lives in db/migrations (drizzle-kit generate); never edit an applied migration.
 */
export { accounts, apiKeys, PLANS, type Plan } from './accounts/tables.js';
export { folders } from './folders/tables.js';
export { templates } from './templates/tables.js';
export { accountLinkUsage, linkCounters, links } from './links/tables.js';
export { fileBlobs, files } from './files/tables.js';
export { scans, linkScanHours, scanRollups, scanVisitorDays, scanBatchAcks, scanSpoolFolders } from './scans/tables.js';
export { jobs, JOB_STATES, type JobState } from './jobs/tables.js';
export { cafes, cafeGroups, cafeCategories, cafeItems, SPICE_LEVELS } from './cafes/tables.js';
export { idempotencyKeys } from './bulk/tables.js';
export { users, memberships, sessions, invitations, passwordResets, setupTokens } from './people/tables.js';
export { auditEvents } from './audit/tables.js';
export { domains, DOMAIN_STATES, type DomainState } from './domains/tables.js';
export { webhookEndpoints, webhookDeliveries, webhookAttempts, webhookScanQueue } from './webhooks/tables.js';
export { linkPlacements } from './placements/tables.js';
export { utmTemplates } from './utm/tables.js';
export { pageActionDays } from './page-actions/tables.js';
