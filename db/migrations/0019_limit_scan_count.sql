ALTER TABLE "link_counters" ADD COLUMN "limit_scan_count" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Scans made before a limit counted visitors keep counting as they did: a link whose limit was
-- reached stays so (docs/decisions/0371-a-scan-limit-counts-visitors.md).
UPDATE "link_counters" SET "limit_scan_count" = "human_scan_count";
