-- A link's scan counters move to a table of their own (docs/decisions/0356-scan-counters-in-a-table-of-their-own.md):
-- in `links`, scan_count's sort index made every counter update write all twelve of its indexes.
CREATE TABLE "link_counters" (
	"link_id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"scan_count" bigint DEFAULT 0 NOT NULL,
	"human_scan_count" bigint DEFAULT 0 NOT NULL,
	"last_scanned_at" timestamp with time zone
);
--> statement-breakpoint
INSERT INTO "link_counters" ("link_id", "account_id", "scan_count", "human_scan_count", "last_scanned_at")
SELECT "id", "account_id", "scan_count", "human_scan_count", "last_scanned_at" FROM "links";--> statement-breakpoint
ALTER TABLE "link_counters" ADD CONSTRAINT "link_counters_link_id_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "link_counters" ADD CONSTRAINT "link_counters_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "link_counters_account_visited_idx" ON "link_counters" USING btree ("account_id","scan_count" DESC NULLS LAST,"link_id" DESC NULLS LAST);--> statement-breakpoint
-- Every link has its counters row from the statement that inserts it, whichever code inserts it
-- (one API call, a bulk job's thousands, a hand-written INSERT): ingestion only updates rows.
CREATE FUNCTION "link_counters_for_new_links"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "link_counters" ("link_id", "account_id") SELECT "id", "account_id" FROM "new_links";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "links_counters_row" AFTER INSERT ON "links" REFERENCING NEW TABLE AS "new_links"
FOR EACH STATEMENT EXECUTE FUNCTION "link_counters_for_new_links"();--> statement-breakpoint
DROP INDEX "links_account_visited_idx";--> statement-breakpoint
ALTER TABLE "links" DROP COLUMN "scan_count";--> statement-breakpoint
ALTER TABLE "links" DROP COLUMN "human_scan_count";--> statement-breakpoint
ALTER TABLE "links" DROP COLUMN "last_scanned_at";
