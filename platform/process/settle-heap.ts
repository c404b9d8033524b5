/**
 * One garbage collection that gives memory back, once a role has started (docs/decisions/0349).
 *
 * Starting grows V8's heap past what an idle role keeps: loading the modules passes some 20 MB of
 * long-lived objects through the young generation, which grows for them (to 2 × 16 MB where
 * `--max-semi-space-size` does not cap it, as in the redirect) and keeps that size. V8's memory
 * reducer shrinks it once the allocation rate has looked low for long enough: anywhere from under
 * 15 s to over 40 s after start, differently each time. Asking now brings an idle role to the size
 * it would reach anyway; under load the young generation grows back as it always did.
 *
 * The collection is the one DevTools' "Collect garbage" asks for (`HeapProfiler.collectGarbage`,
 * over an in-process inspector session, which opens no port): V8's low-memory collection, which
 * also shrinks the young generation and returns emptied pages. A plain full collection
 * (`global.gc()`, which needs `--expose-gc`) leaves the young generation as it is in Node 20's V8 and in Node 24's
 * (where it even stays at 64 MB, docs/decisions/0416).
 */

/** Long enough for the last of start (connections, the first timers) to be done. */
const AFTER_START_MS = 1000;

/** Collects once, AFTER_START_MS from now, without keeping the process alive for it. */
export function settleHeapAfterStart(): void {
  setTimeout(() => void settleHeap(), AFTER_START_MS).unref();
}

/** Resolves once V8 has collected; a Node built without the inspector skips it. */
export async function settleHeap(): Promise<void> {
  const inspector = await import('node:inspector').catch(() => null);
  if (!inspector) return;
  const session = new inspector.Session();
  session.connect();
  await new Promise<void>((resolve) =>
    session.post('HeapProfiler.collectGarbage', () => {
      // Not from within the answer's callback: Node 20's session blocks if disconnected there.
      setImmediate(() => {
        session.disconnect();
        resolve();
      });
    }),
  );
}
