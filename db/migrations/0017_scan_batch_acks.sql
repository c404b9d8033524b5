-- Batches of scans written to Postgres, by batch id: a redirect keeps a batch's write-ahead file
-- until its row is here (docs/decisions/0385-write-ahead-kept-until-postgres-has-the-scans.md).
CREATE TABLE "scan_batch_acks" (
	"batch_id" uuid PRIMARY KEY NOT NULL,
	"acked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "scan_batch_acks_acked_at_idx" ON "scan_batch_acks" USING btree ("acked_at");