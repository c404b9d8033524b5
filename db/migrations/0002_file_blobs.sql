CREATE TABLE "file_blobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"sha256" text,
	"storage_key" text NOT NULL,
	"content_type" text NOT NULL,
	"size" bigint NOT NULL,
	"ref_count" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "file_blobs_ref_count_check" CHECK ("file_blobs"."ref_count" >= 0)
);
--> statement-breakpoint
DROP INDEX "files_storage_key_idx";--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "blob_id" uuid;--> statement-breakpoint
-- Hand-written backfill (drizzle-kit cannot know it): every existing file becomes its own blob,
-- with the blob id equal to the file id, its object where it already is, and no hash (SQL cannot
-- read the objects), so it is never matched by a later upload; new uploads are hashed.
INSERT INTO "file_blobs" ("id", "account_id", "sha256", "storage_key", "content_type", "size", "ref_count", "created_at")
  SELECT "id", "account_id", NULL, "storage_key", "content_type", "size", 1, "created_at" FROM "files";--> statement-breakpoint
UPDATE "files" SET "blob_id" = "id";--> statement-breakpoint
ALTER TABLE "files" ALTER COLUMN "blob_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "file_blobs" ADD CONSTRAINT "file_blobs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "file_blobs_account_sha256_idx" ON "file_blobs" USING btree ("account_id","sha256");--> statement-breakpoint
CREATE UNIQUE INDEX "file_blobs_storage_key_idx" ON "file_blobs" USING btree ("storage_key");--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_blob_id_file_blobs_id_fk" FOREIGN KEY ("blob_id") REFERENCES "public"."file_blobs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "files_blob_idx" ON "files" USING btree ("blob_id");--> statement-breakpoint
ALTER TABLE "files" DROP COLUMN "storage_key";