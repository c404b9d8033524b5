-- A job's input and queue prefix kept with its record until it ends, so a job Redis lost can be queued again.
ALTER TABLE "jobs" ADD COLUMN "payload" jsonb;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "queue_prefix" text;--> statement-breakpoint
CREATE INDEX "jobs_unfinished_idx" ON "jobs" USING btree ("created_at") WHERE "jobs"."state" in ('queued', 'active');