-- Links on brand domains (decision 0426). Every existing link stays on the default domain
-- (domain_id null), under the same unique slug as before: every printed code keeps working.
DROP INDEX "links_slug_idx";--> statement-breakpoint
DROP INDEX "links_slug_lower_idx";--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "is_default" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN "domain_id" uuid;--> statement-breakpoint
ALTER TABLE "links" ADD CONSTRAINT "links_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "domains_account_default_key" ON "domains" USING btree ("account_id") WHERE "domains"."is_default";--> statement-breakpoint
CREATE UNIQUE INDEX "links_domain_slug_lower_idx" ON "links" USING btree ("domain_id",lower("slug")) WHERE "links"."domain_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "links_account_slug_key" ON "links" USING btree ("account_id","slug");--> statement-breakpoint
CREATE UNIQUE INDEX "links_slug_idx" ON "links" USING btree ("slug") WHERE "links"."domain_id" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "links_slug_lower_idx" ON "links" USING btree (lower("slug")) WHERE not "links"."slug_case_duplicate" and "links"."domain_id" is null;