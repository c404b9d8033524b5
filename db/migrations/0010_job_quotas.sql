-- Bytes of the file a job left (an export, a ZIP), counted against the account's job-file quota.
ALTER TABLE "jobs" ADD COLUMN "file_bytes" bigint;--> statement-breakpoint
-- An account's waiting and running jobs of one kind, read whenever one is queued or starts (domain/jobs/turns.ts).
CREATE INDEX "jobs_account_unfinished_idx" ON "jobs" USING btree ("account_id","type","created_at" DESC NULLS LAST) WHERE "jobs"."state" in ('queued', 'active');
