/**
 * The api half of the "answer now or 202" contract (infra/jobs/job-waiter.ts): a heavy endpoint queues
 * its job, waits as the client's `Prefer` header and JOB_WAIT_MS allow, and answers the finished
 * job itself, or 202 `{jobId, state, statusUrl}` with `Location` so the client polls
 * GET /jobs/:jobId. A job that failed is a 503 with its one-line error, never a stack.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { JOB_STATES } from '#domain/schema.js';
import { IDEMPOTENCY_HEADER, idempotencyKeyOf, requestHash, startIdempotentJob } from '#infra/jobs/bulk-idempotency.js';
import { jobStatusUrl, type JobFile } from '#domain/jobs/files.js';
import type { AccountJobPayload, AccountQueueName, JobResults } from '#domain/jobs/job-kinds.js';
import { type JobView } from '#domain/jobs/records.js';
import { enqueueAccountJob } from '#infra/jobs/account-jobs.js';
import { actorIdOf } from '#domain/accounts/api-keys.js';
import { JobFailedError, parsePrefer, waitMsFor } from '#infra/jobs/job-waiter.js';

export const acceptedJobResponse = z
  .object({
    jobId: z.string(),
    state: z.enum(JOB_STATES),
    statusUrl: z.string().meta({ description: 'GET it (with the same kind of key) for the state, progress and result' }),
  })
  .describe('The job runs on: with Prefer: respond-async, or when it takes longer than the server waits (JOB_WAIT_MS)');

export const preferHeaders = z.object({
  prefer: z
    .string()
    .optional()
    .describe('`respond-async`: answer 202 at once instead of waiting for the job; `wait=<seconds>`: wait at most this long'),
});

/** preferHeaders and `Idempotency-Key`, for endpoints a client must be able to retry without starting a second job. */
export const idempotentJobHeaders = preferHeaders.extend({
  'idempotency-key': z
    .string()
    .optional()
    .describe('1-255 visible ASCII characters; a retry with the same key returns the first request’s job and result'),
});

/** What the endpoints taking idempotentJobHeaders say of the key. */
export const IDEMPOTENCY_DESCRIPTION =
  `\`${IDEMPOTENCY_HEADER}\`: a retry with the same key (same account, same request) answers the first request’s job; ` +
  'the same key with another request is a 409. Keys are kept 24 h.';

/**
 * The request's job: queued now, or, when the request carries an Idempotency-Key, the job the key
 * already started (infra/jobs/bulk-idempotency.ts). `request` is what the key's request is compared by.
 */
export async function startRequestJob<N extends AccountQueueName>(
  httpRequest: FastifyRequest,
  job: { queue: N; payload: AccountJobPayload<N> },
  request: unknown,
): Promise<string> {
  const { ctx } = httpRequest.server;
  const queue = ctx.queues[job.queue];
  const { principal } = httpRequest;
  const key = idempotencyKeyOf(httpRequest.headers['idempotency-key']);
  const input = { accountId: principal.accountId, type: job.queue, payload: job.payload, startedBy: actorIdOf(principal) };
  // A client's keys are its own: another person's batch under the same key is not replayed to it
  // (it would answer another's job), nor is a client's to them (docs/decisions/0412).
  const scopedKey = key !== null && principal.folderIds !== null ? `${principal.userId ?? principal.keyId}/${key}` : key;
  return scopedKey
    ? (await startIdempotentJob(ctx.db, queue, scopedKey, requestHash(request), input, ctx.config.JOB_ACCOUNT_QUEUE)).jobId
    : enqueueAccountJob(ctx.db, queue, input, ctx.config.JOB_ACCOUNT_QUEUE);
}

/** A job that has its result: completed, or `ready` to answer before it ends. */
type JobWithResult<N extends AccountQueueName> = JobView<JobResults[N]> & { result: JobResults[N] };

/**
 * Runs an account job for a request: the finished job's view goes to `onCompleted`, which
 * answers; otherwise 202 (or the failure).
 */
export async function answerJob<N extends AccountQueueName>(
  request: FastifyRequest,
  reply: FastifyReply,
  job: { queue: N; payload: AccountJobPayload<N> },
  onCompleted: (job: JobWithResult<N>) => Promise<FastifyReply>,
): Promise<FastifyReply> {
  const { ctx } = request.server;
  const input = { accountId: request.principal.accountId, type: job.queue, payload: job.payload, startedBy: actorIdOf(request.principal) };
  const id = await enqueueAccountJob(ctx.db, ctx.queues[job.queue], input, ctx.config.JOB_ACCOUNT_QUEUE);
  return answerQueuedJob(request, reply, job.queue, id, onCompleted);
}

/**
 * Waits for a job already queued for this request's account (as the client's `Prefer` and
 * JOB_WAIT_MS allow) and answers it: `onCompleted` gets its view once it has completed, or once
 * `ready` says its result can be answered before it ends; otherwise 202 (or the failure).
 */
export async function answerQueuedJob<N extends AccountQueueName>(
  request: FastifyRequest,
  reply: FastifyReply,
  queue: N,
  id: string,
  onCompleted: (job: JobWithResult<N>) => Promise<FastifyReply>,
  ready?: (view: JobView<JobResults[N]>) => boolean,
): Promise<FastifyReply> {
  const { ctx, jobWaiter } = request.server;
  const preferences = parsePrefer(request.headers.prefer);
  const view = await jobWaiter.wait(queue, request.principal.accountId, id, waitMsFor(preferences, ctx.config.JOB_WAIT_MS), ready);
  if (hasResult(view) && (view.state === 'completed' || ready?.(view))) return onCompleted(view);
  if (view.state === 'failed') throw new JobFailedError(view);
  const statusUrl = jobStatusUrl(ctx.config, id);
  reply.code(202).header('location', statusUrl);
  if (preferences.respondAsync) reply.header('preference-applied', 'respond-async');
  return reply.send({ jobId: id, state: view.state, statusUrl });
}

function hasResult<R>(view: JobView<R>): view is JobView<R> & { result: R } {
  return view.result !== undefined;
}

/** A job's stored file as the answer: its content type, length and a download name. */
export function sendJobFile(reply: FastifyReply, file: JobFile): FastifyReply {
  return reply
    .header('content-type', file.info.contentType)
    .header('content-length', String(file.info.size))
    .header('content-disposition', `attachment; filename="${file.fileName}"`)
    .send(file.body);
}
