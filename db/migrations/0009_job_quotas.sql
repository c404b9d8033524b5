-- Bytes of the file a job left (an export, a ZIP), counted against the account's job-file quota.
ALTER TABLE "jobs" ADD COLUMN "file_bytes" bigint;--> statement-breakpoint
-- An account's waiting jobs of one kind, read whenever it starts one (fair turns, JOB_ACCOUNT_QUEUE).
CREATE INDEX "jobs_account_queued_idx" ON "jobs" USING btree ("account_id","type","created_at" DESC NULLS LAST) WHERE "jobs"."state" = 'queued';
