/**
 * A package loaded when it is first needed rather than when the process starts (docs/decisions/0348):
 * what a role imports it holds, resident, for as long as it runs, and an idle role needs none of the
 * packages behind one kind of job or request (sharp, archiver, minio, …). `onFirstUse(load)` gives a
 * function that calls `load` once, on its first call, and hands every caller the same promise.
 */
export function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => (loaded ??= load());
}
