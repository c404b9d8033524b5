-- The first UTC day whose per-dimension day rows of an account's links are not written yet
-- (docs/decisions/0352-a-link-s-day-rows-once-the-day-is-closed.md). Existing accounts had every
-- day's rows written by ingestion, today's included, so theirs is tomorrow; a new account's is the
-- day it is made.
ALTER TABLE "accounts" ADD COLUMN "link_days_from" date DEFAULT ((now() at time zone 'UTC')::date + 1) NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ALTER COLUMN "link_days_from" SET DEFAULT ((now() at time zone 'UTC')::date);
