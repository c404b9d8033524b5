-- No two links may have slugs that differ only in letter case (`A-SITE` vs `a-site` across
-- accounts are look-alikes). Resolution stays exact; the unique index on lower(slug) refuses the
-- look-alike at creation. Links that already share a slug ignoring case keep theirs (printed
-- codes must keep working): all but the oldest of each such group are marked and left out of the
-- index, so every new slug is still checked against the oldest.
ALTER TABLE "links" ADD COLUMN "slug_case_duplicate" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "links" SET "slug_case_duplicate" = true WHERE "id" IN (
  SELECT "id" FROM (
    SELECT "id", row_number() OVER (PARTITION BY lower("slug") ORDER BY "created_at", "id") AS "rank" FROM "links"
  ) AS "ranked" WHERE "rank" > 1
);--> statement-breakpoint
CREATE UNIQUE INDEX "links_slug_lower_idx" ON "links" USING btree (lower("slug")) WHERE NOT "slug_case_duplicate";
