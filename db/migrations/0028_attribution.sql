CREATE TABLE "link_placements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"link_id" uuid NOT NULL,
	"name" text NOT NULL,
	"code" text NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "page_action_days" (
	"link_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"day" date NOT NULL,
	"action" text NOT NULL,
	"taps" integer NOT NULL,
	CONSTRAINT "page_action_days_pk" PRIMARY KEY("link_id","day","action")
);
--> statement-breakpoint
CREATE TABLE "utm_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"name" text NOT NULL,
	"utm" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Links made before QR codes carried a source marker have codes printed without one (hand-written: drizzle-kit cannot say it).
ALTER TABLE "links" ADD COLUMN "unmarked_codes" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "links" ALTER COLUMN "unmarked_codes" SET DEFAULT false;--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN "utm" jsonb;--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN "query_policy" text DEFAULT 'drop' NOT NULL;--> statement-breakpoint
ALTER TABLE "scans" ADD COLUMN "source" text;--> statement-breakpoint
ALTER TABLE "scans" ADD COLUMN "placement_id" uuid;--> statement-breakpoint
ALTER TABLE "scans" ADD COLUMN "referrer_host" text;--> statement-breakpoint
ALTER TABLE "scans" ADD COLUMN "utm_campaign" text;--> statement-breakpoint
ALTER TABLE "link_placements" ADD CONSTRAINT "link_placements_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "link_placements" ADD CONSTRAINT "link_placements_link_id_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "page_action_days" ADD CONSTRAINT "page_action_days_link_id_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "page_action_days" ADD CONSTRAINT "page_action_days_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "utm_templates" ADD CONSTRAINT "utm_templates_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "link_placements_link_code_key" ON "link_placements" USING btree ("link_id","code");--> statement-breakpoint
CREATE UNIQUE INDEX "link_placements_link_name_key" ON "link_placements" USING btree ("link_id",lower("name")) WHERE "link_placements"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "utm_templates_account_name_key" ON "utm_templates" USING btree ("account_id",lower("name"));