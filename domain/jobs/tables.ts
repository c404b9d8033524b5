/** Background jobs' durable records. */
import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt, tstz } from '../columns.js';
import { accountId } from '../accounts/tables.js';

export const JOB_STATES = ['queued', 'active', 'completed', 'failed'] as const;
export type JobState = (typeof JOB_STATES)[number];

/**
 * The durable record of an account's background job (GET /jobs/:jobId); BullMQ holds the work
 * itself. `payload` is the job's input until it ends, and `queuePrefix` the REDIS_NAMESPACE it was
 * queued under, so a job Redis lost (wiped, failed over to an empty replica) is queued again
 * from here, in its own install's queue (infra/jobs/lost-jobs.ts).
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey(),
    accountId: accountId(),
    type: text('type').notNull(),
    state: text('state').$type<JobState>().notNull().default('queued'),
    progress: integer('progress').notNull().default(0),
    payload: jsonb('payload'),
    queuePrefix: text('queue_prefix'),
    result: jsonb('result'),
    error: text('error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    finishedAt: tstz('finished_at'),
    /** Bytes of the file the job left in storage (an export, a ZIP), counted against the account's job-file quota; null: none. */
    fileBytes: bigint('file_bytes', { mode: 'number' }),
    /** Who started it (actorIdOf: the person, or the key of no person); null: before this was kept, or the system. A client sees only its own. */
    startedBy: uuid('started_by'),
  },
  (t) => [
    index('jobs_account_created_idx').on(t.accountId, t.createdAt.desc()),
    // The recovery sweep's read: the few jobs not finished, among a week of finished ones.
    index('jobs_unfinished_idx')
      .on(t.createdAt)
      .where(sql`${t.state} in ('queued', 'active')`),
    // An account's waiting and running jobs of one kind, read whenever one is queued or starts (infra/jobs/fair-turns.ts).
    index('jobs_account_unfinished_idx')
      .on(t.accountId, t.type, t.createdAt.desc())
      .where(sql`${t.state} in ('queued', 'active')`),
  ],
);
