-- Device type as an analytics dimension (6 in scan_rollups; a column of link_scan_hours).
-- link_scan_hours is rebuilt from the scans: its rows gain a key column, and each old row splits by
-- device type. Visitors come from scans.visitor_firsts, as ingestion counts them.
ALTER TABLE "link_scan_hours" DROP CONSTRAINT "link_scan_hours_pk";--> statement-breakpoint
TRUNCATE "link_scan_hours";--> statement-breakpoint
ALTER TABLE "link_scan_hours" ADD COLUMN "device_type" text NOT NULL;--> statement-breakpoint
INSERT INTO "link_scan_hours" (link_id, hour, is_bot, browser_name, os_name, country_name, city, device_type, scans, visitors)
SELECT link_id, date_trunc('hour', created_at, 'UTC'), is_bot, coalesce(browser_name, ''), coalesce(os_name, ''),
  coalesce(country_name, ''), coalesce(city, ''), coalesce(device_type, ''), count(*), count(*) FILTER (WHERE visitor_firsts & 1 <> 0)
FROM "scans" GROUP BY 1, 2, 3, 4, 5, 6, 7, 8;--> statement-breakpoint
ALTER TABLE "link_scan_hours" ADD CONSTRAINT "link_scan_hours_pk" PRIMARY KEY("link_id","hour","is_bot","browser_name","os_name","country_name","city","device_type");--> statement-breakpoint
-- The device rows of scans recorded before: an account's per hour and per day, a link's per day
-- (visitors are counted on dimension 0 only).
INSERT INTO "scan_rollups" (scope_id, dimension, grain, bucket, is_bot, value, scans, visitors)
SELECT s.account_id, 6, g.grain, date_trunc(g.grain, s.created_at, 'UTC'), s.is_bot, coalesce(s.device_type, ''), count(*), 0
FROM "scans" s CROSS JOIN (VALUES ('hour'), ('day')) AS g(grain)
GROUP BY 1, 3, 4, 5, 6;--> statement-breakpoint
INSERT INTO "scan_rollups" (scope_id, dimension, grain, bucket, is_bot, value, scans, visitors)
SELECT s.link_id, 6, 'day', date_trunc('day', s.created_at, 'UTC'), s.is_bot, coalesce(s.device_type, ''), count(*), 0
FROM "scans" s GROUP BY 1, 4, 5, 6;
