import type { DomainRow } from '#domain/domains/domains.js';
import { domainRecords, type DomainTargets } from '#domain/domains/checks.js';

/** A domain as the API answers it (domainResponse): ISO times, the records to set beside what was seen. */
export function domainView(row: DomainRow, targets: DomainTargets) {
  return {
    id: row.id,
    hostname: row.hostname,
    state: row.state,
    token: row.token,
    // The addresses the last check compared with, else the configured ones.
    records: domainRecords(
      row.hostname,
      row.token,
      row.observed ? { addresses: row.observed.targets, cname: targets.cname } : targets,
      row.observed,
    ),
    errors: row.observed?.errors ?? {},
    is_default: row.isDefault,
    root_url: row.rootUrl,
    not_found_url: row.notFoundUrl,
    expired_url: row.expiredUrl,
    verified_at: row.verifiedAt?.toISOString() ?? null,
    checked_at: row.checkedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
