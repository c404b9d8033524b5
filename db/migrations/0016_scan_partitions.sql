-- Raw scans and the visitor keys of each day, partitioned by month (docs/decisions/0397): a month
-- past SCAN_RETENTION_DAYS is dropped whole instead of deleted row by row, and each month's indexes
-- stay a month's size. The rollups (scan_rollups, link_scan_hours, link_scan_days) stay as they are.
-- A partitioned table's unique key must hold its partition column: scans are keyed by
-- (id, created_at), which is as unique as id, since a scan's created_at comes with its id.
-- Each table also gets a default partition, so a scan of a month with no partition yet (a clock far
-- ahead, a spool of long ago) is kept, never failed; the maintenance job moves such rows into their
-- month's partition when it makes it (domain/scans/partitions.ts).
ALTER TABLE "scans" RENAME TO "scans_unpartitioned";--> statement-breakpoint
ALTER TABLE "scans_unpartitioned" RENAME CONSTRAINT "scans_pkey" TO "scans_unpartitioned_pkey";--> statement-breakpoint
ALTER INDEX "scans_account_created_idx" RENAME TO "scans_unpartitioned_account_created_idx";--> statement-breakpoint
ALTER INDEX "scans_link_created_idx" RENAME TO "scans_unpartitioned_link_created_idx";--> statement-breakpoint
CREATE TABLE "scans" (LIKE "scans_unpartitioned" INCLUDING DEFAULTS) PARTITION BY RANGE ("created_at");--> statement-breakpoint
ALTER TABLE "scans" ADD CONSTRAINT "scans_pkey" PRIMARY KEY ("id", "created_at");--> statement-breakpoint
CREATE INDEX "scans_account_created_idx" ON "scans" USING btree ("account_id", "created_at");--> statement-breakpoint
CREATE INDEX "scans_link_created_idx" ON "scans" USING btree ("link_id", "created_at");--> statement-breakpoint
CREATE TABLE "scans_default" PARTITION OF "scans" DEFAULT;--> statement-breakpoint
ALTER TABLE "scan_visitor_days" RENAME TO "scan_visitor_days_unpartitioned";--> statement-breakpoint
ALTER TABLE "scan_visitor_days_unpartitioned" RENAME CONSTRAINT "scan_visitor_days_pk" TO "scan_visitor_days_unpartitioned_pk";--> statement-breakpoint
CREATE TABLE "scan_visitor_days" (LIKE "scan_visitor_days_unpartitioned" INCLUDING DEFAULTS) PARTITION BY RANGE ("day");--> statement-breakpoint
ALTER TABLE "scan_visitor_days" ADD CONSTRAINT "scan_visitor_days_pk" PRIMARY KEY ("day", "scope_id", "visitor_key");--> statement-breakpoint
CREATE TABLE "scan_visitor_days_default" PARTITION OF "scan_visitor_days" DEFAULT;--> statement-breakpoint
-- A partition for every month that has rows, and for this month and the next three.
DO $$
DECLARE
  month date;
BEGIN
  FOR month IN
    SELECT DISTINCT m FROM (
      SELECT date_trunc('month', created_at, 'UTC')::date AS m FROM "scans_unpartitioned"
      UNION SELECT date_trunc('month', day)::date FROM "scan_visitor_days_unpartitioned"
      UNION SELECT (date_trunc('month', now(), 'UTC') + make_interval(months => n))::date FROM generate_series(0, 3) AS n
    ) AS months
  LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF "scans" FOR VALUES FROM (%L) TO (%L)',
      'scans_p' || to_char(month, 'YYYY_MM'), month::text || ' 00:00:00+00', (month + interval '1 month')::date::text || ' 00:00:00+00');
    EXECUTE format('CREATE TABLE %I PARTITION OF "scan_visitor_days" FOR VALUES FROM (%L) TO (%L)',
      'scan_visitor_days_p' || to_char(month, 'YYYY_MM'), month::text, (month + interval '1 month')::date::text);
  END LOOP;
END $$;--> statement-breakpoint
INSERT INTO "scans" SELECT * FROM "scans_unpartitioned";--> statement-breakpoint
INSERT INTO "scan_visitor_days" SELECT * FROM "scan_visitor_days_unpartitioned";--> statement-breakpoint
DROP TABLE "scans_unpartitioned";--> statement-breakpoint
DROP TABLE "scan_visitor_days_unpartitioned";
