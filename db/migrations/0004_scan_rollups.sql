-- Analytics rollups, kept by the scans worker in the statement that inserts the scans
-- (domain/scans/ingest.ts, domain/analytics/rollups.ts), so they never drift from the raw rows.
ALTER TABLE "scans" ADD COLUMN "visitor_firsts" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE TABLE "link_scan_hours" (
	"link_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"is_bot" boolean NOT NULL,
	"browser_name" text NOT NULL,
	"os_name" text NOT NULL,
	"country_name" text NOT NULL,
	"city" text NOT NULL,
	"scans" integer NOT NULL,
	"visitors" integer NOT NULL,
	CONSTRAINT "link_scan_hours_pk" PRIMARY KEY("link_id","hour","is_bot","browser_name","os_name","country_name","city")
);--> statement-breakpoint
CREATE TABLE "scan_rollups" (
	"scope_id" uuid NOT NULL,
	"dimension" smallint NOT NULL,
	"grain" text NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"is_bot" boolean NOT NULL,
	"value" text NOT NULL,
	"scans" integer NOT NULL,
	"visitors" integer NOT NULL,
	CONSTRAINT "scan_rollups_pk" PRIMARY KEY("scope_id","dimension","grain","bucket","is_bot","value") INCLUDE ("scans", "visitors")
);--> statement-breakpoint
CREATE TABLE "scan_visitor_days" (
	"day" date NOT NULL,
	"scope_id" uuid NOT NULL,
	"visitor_key" text NOT NULL,
	CONSTRAINT "scan_visitor_days_pk" PRIMARY KEY("day","scope_id","visitor_key")
);--> statement-breakpoint
-- Scans recorded before this migration: their rollups, from the rows (no visitor keys were kept, so no visitors).
INSERT INTO "link_scan_hours"
SELECT link_id, date_trunc('hour', created_at, 'UTC'), is_bot, coalesce(browser_name, ''), coalesce(os_name, ''),
  coalesce(country_name, ''), coalesce(city, ''), count(*), 0
FROM "scans" GROUP BY 1, 2, 3, 4, 5, 6, 7;--> statement-breakpoint
-- Account rows: every dimension per hour and per day.
INSERT INTO "scan_rollups"
SELECT s.account_id, d.dimension, g.grain, date_trunc(g.grain, s.created_at, 'UTC'), s.is_bot, d.value, count(*), 0
FROM "scans" s
CROSS JOIN (VALUES ('hour'), ('day')) AS g(grain)
CROSS JOIN LATERAL (VALUES (0, ''), (1, coalesce(s.browser_name, '')), (2, coalesce(s.os_name, '')), (3, coalesce(s.country_name, '')),
  (4, coalesce(s.city, '')), (5, s.link_id::text)) AS d(dimension, value)
GROUP BY 1, 2, 3, 4, 5, 6;--> statement-breakpoint
-- Link rows: all scans per hour; every dimension per day.
INSERT INTO "scan_rollups"
SELECT s.link_id, 0, 'hour', date_trunc('hour', s.created_at, 'UTC'), s.is_bot, '', count(*), 0
FROM "scans" s GROUP BY 1, 4, 5;--> statement-breakpoint
INSERT INTO "scan_rollups"
SELECT s.link_id, d.dimension, 'day', date_trunc('day', s.created_at, 'UTC'), s.is_bot, d.value, count(*), 0
FROM "scans" s
CROSS JOIN LATERAL (VALUES (0, ''), (1, coalesce(s.browser_name, '')), (2, coalesce(s.os_name, '')), (3, coalesce(s.country_name, '')),
  (4, coalesce(s.city, ''))) AS d(dimension, value)
GROUP BY 1, 2, 4, 5, 6;
