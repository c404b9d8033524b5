-- Cafes (digital menus). A cafe is made with its link (type menu) in one transaction and lives
-- exactly as long as it: no cafe row was ever written before this migration (no endpoint made
-- one), so link_id can become required.
ALTER TABLE "cafes" DROP CONSTRAINT "cafes_link_id_links_id_fk";--> statement-breakpoint
ALTER TABLE "cafes" ADD CONSTRAINT "cafes_link_id_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cafes" ALTER COLUMN "link_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "cafes" ADD COLUMN "timezone" text DEFAULT 'UTC' NOT NULL;--> statement-breakpoint
-- Three decimals: every ISO 4217 minor unit (KWD, BHD, OMR … have three).
ALTER TABLE "cafe_items" ALTER COLUMN "price" SET DATA TYPE numeric(12, 3);--> statement-breakpoint
ALTER TABLE "cafe_items" ADD CONSTRAINT "cafe_items_spice_level_check" CHECK ("cafe_items"."spice_level" in ('none', 'mild', 'medium', 'hot', 'extra_hot'));--> statement-breakpoint
ALTER TABLE "cafe_items" ADD CONSTRAINT "cafe_items_price_check" CHECK ("cafe_items"."price" >= 0);
