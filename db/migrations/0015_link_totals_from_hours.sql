-- A link's all-scans totals are read from its hour rows; its all-scans day rows are no longer
-- written (docs/decisions/0357-a-link-s-totals-from-its-hour-rows.md). An account's own day rows
-- (scope_id = the account's id) stay.
DELETE FROM "scan_rollups" r USING "links" l
WHERE r."scope_id" = l."id" AND r."dimension" = 0 AND r."grain" = 'day';
