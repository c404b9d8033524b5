/**
 * Keeps one of Node's `process.nextTick` tick objects alive for the life of the process, so that
 * every later one keeps the same hidden class (V8 map) and nextTick stays fast.
 *
 * Why: every HTTP request runs several nextTicks (Node's stream and HTTP code), and each builds
 * its tick object with an object literal. V8 compiles that literal into a few inline stores only
 * while all tick objects it has seen share one map. A full garbage collection at a moment when no
 * tick object is alive frees that map; the next tick object gets a new one, the literal has now
 * seen two, and from then on every nextTick builds its object in V8's runtime
 * (`Runtime_DefineKeyedOwnPropertyInLiteral`): 7–12% of the redirect's CPU in the processes where
 * it happened (perf). It happened in about a quarter of redirect starts under load, and in a bare
 * Fastify server every time three full GCs were forced while it was idle; with one tick object
 * kept it did not happen in either (docs/benchmarks.md). Node 20, V8 11.3; on Node 24 (V8 13.6) the
 * same idle GCs make nextTick 6–9 times slower without it, and not with it (docs/decisions/0416).
 *
 * The tick object is caught with an async hook that is enabled only for the one `nextTick` below
 * (its init callback runs within that call), so no later async operation pays for a hook.
 */
import { createHook } from 'node:async_hooks';
import { nodeInternalsVerified } from './node-internals.js';

let kept: object | null = null;

/** Returns whether it keeps one (on the Node majors where it was measured, node-internals.ts; elsewhere it does nothing). */
export function keepTickObjectShape(nodeVersion: string = process.versions.node): boolean {
  if (!nodeInternalsVerified(nodeVersion)) return false;
  if (kept) return true;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === 'TickObject') kept ??= resource;
    },
  });
  hook.enable();
  process.nextTick(() => {});
  hook.disable();
  return true;
}

/** The tick object kept (tests). */
export function keptTickObject(): object | null {
  return kept;
}
