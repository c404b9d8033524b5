/**
 * The audit log's recorder, made from the route table: a route that declares
 * `config.audit = { entity, action }` (api/types.ts) gets hooks of its own, so routes without it
 * (every GET) pay nothing. Before the handler the entity is read (domain/audit/snapshots.ts);
 * after a 2xx answer has gone, it is read again, the fields that differ are found and one event
 * is written: who (the key, and the person once there is one), what, when, from which network
 * (a truncated address) and the request id. Nothing is written for an answer that is not a 2xx.
 *
 * Writing happens after the answer has left, so it adds nothing to the request's time and cannot
 * fail it: an event that could not be written is logged. The api waits for events still being
 * written when it closes.
 */
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { truncatedAddress } from '#domain/audit/address.js';
import { diffSnapshots, type AuditChange } from '#domain/audit/changes.js';
import { recordAuditEvent, type AuditActor } from '#domain/audit/events.js';
import { snapshotOf, type EntitySnapshot } from '#domain/audit/snapshots.js';
import type { AuditSpec } from '../../types.js';

interface AuditState {
  spec: AuditSpec;
  /** The id the request names (a path parameter, or what the answer names). */
  ref: string | null;
  before: EntitySnapshot | null;
  /** What the answer said of a change of many, or of the entity it made. */
  answered: { id?: string; count?: number; jobId?: string; dryRun?: true } | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    audit: AuditState | null;
  }
}

/** Answers bigger than this are not read for an id or a count (a job's file, a page). */
const ANSWER_READ_MAX = 64 * 1024;

/** Whether a route's audit declaration records anything. */
function specOf(route: RouteOptions): AuditSpec | null {
  const audit = route.config?.audit;
  return audit && 'entity' in audit ? audit : null;
}

/** The actor of a request: its person (a session's, or a key's maker) and its key. */
function actorOf(request: FastifyRequest): AuditActor {
  const { accountId, keyId, userId } = request.principal;
  return { accountId, keyId, userId };
}

function paramOf(request: FastifyRequest, name: string): string | null {
  const value = (request.params as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : null;
}

function readAnswer(payload: unknown): AuditState['answered'] {
  const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
  if (text === null || text.length > ANSWER_READ_MAX) return null;
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    const data = (body.data && typeof body.data === 'object' ? body.data : {}) as Record<string, unknown>;
    const id = [body.id, data.id, body.fileId].find((v): v is string => typeof v === 'string');
    const count = typeof body.count === 'number' ? body.count : typeof data.count === 'number' ? data.count : undefined;
    const jobId = typeof body.jobId === 'string' ? body.jobId : undefined;
    if (body.dryRun === true) return { dryRun: true };
    return { ...(id !== undefined && { id }), ...(count !== undefined && { count }), ...(jobId !== undefined && { jobId }) };
  } catch {
    return null;
  }
}

export default fp(async (app) => {
  const { db, logger } = app.ctx;
  app.decorateRequest('audit', null);

  const notWritten = (request: FastifyRequest, err: unknown) =>
    logger.warn({ err: err instanceof Error ? err.message : String(err), reqId: request.id }, 'audit event not written');

  async function before(request: FastifyRequest, spec: AuditSpec): Promise<void> {
    // No caller (a public route): nobody to record.
    if (!request.principal) return;
    const ref = spec.id === 'response' ? null : paramOf(request, spec.id?.param ?? 'id');
    try {
      // A change of many records counts, not fields.
      const snapshot = ref === null || spec.bulk ? null : await snapshotOf(db, spec.entity, request.principal.accountId, ref);
      request.audit = { spec, ref, before: snapshot, answered: null };
    } catch (err) {
      // Not a reason to refuse the change; without its before, no event (a wrong one would say everything was new).
      notWritten(request, err);
    }
  }

  async function write(request: FastifyRequest, state: AuditState): Promise<void> {
    const actor = actorOf(request);
    const { spec } = state;
    let changes: AuditChange[];
    let entityId: string;
    if (spec.bulk) {
      const counts = state.answered ?? {};
      changes = [
        ...(counts.count !== undefined ? [{ field: 'count', before: null, after: counts.count }] : []),
        ...(counts.jobId !== undefined ? [{ field: 'job_id', before: null, after: counts.jobId }] : []),
      ];
      entityId = state.ref ?? '';
    } else {
      const ref = state.ref ?? state.answered?.id ?? null;
      const after = ref === null ? null : await snapshotOf(db, spec.entity, actor.accountId, state.before?.id ?? ref);
      changes = diffSnapshots(state.before?.fields ?? null, after?.fields ?? null);
      entityId = state.before?.id ?? after?.id ?? ref ?? '';
    }
    await recordAuditEvent(db, {
      actor,
      entity: spec.entity,
      entityId,
      action: spec.action,
      changes,
      ip: truncatedAddress(request.ip),
      requestId: request.id,
    });
  }

  app.addHook('onRoute', (route) => {
    const spec = specOf(route);
    if (!spec) return;
    const hooks = <T>(existing: T | T[] | undefined, added: T): T[] => [
      ...(existing === undefined ? [] : ([existing].flat() as T[])),
      added,
    ];
    route.preHandler = hooks(route.preHandler, async (request: FastifyRequest) => before(request, spec));
    route.onSend = hooks(route.onSend, async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      const state = request.audit;
      // A 4xx changed nothing.
      if (!state || reply.statusCode < 200 || reply.statusCode > 299) return payload;
      if (spec.bulk || spec.id === 'response') state.answered = readAnswer(payload);
      // A dry run neither.
      if (state.answered?.dryRun) return payload;
      try {
        await write(request, state);
      } catch (err) {
        notWritten(request, err);
      }
      return payload;
    });
  });
});
