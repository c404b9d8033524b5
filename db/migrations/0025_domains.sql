CREATE TABLE "domains" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"hostname" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"token" text NOT NULL,
	"root_url" text,
	"not_found_url" text,
	"expired_url" text,
	"observed" jsonb,
	"verified_at" timestamp with time zone,
	"checked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "domains" ADD CONSTRAINT "domains_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "domains_hostname_key" ON "domains" USING btree ("hostname");--> statement-breakpoint
CREATE INDEX "domains_account_created_idx" ON "domains" USING btree ("account_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "domains_due_idx" ON "domains" USING btree ("checked_at") WHERE "domains"."state" <> 'disabled';