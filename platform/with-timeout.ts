/**
 * `promise`'s value, or `late` when it has not settled within `ms`: how a request that needs
 * Redis goes on while Redis is away (its client queues commands until it is back). A rejection
 * before the time is thrown; one after it is dropped, the caller having moved on.
 */
export async function within<T, L>(promise: Promise<T>, ms: number, late: L): Promise<T | L> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<L>((resolve) => (timer = setTimeout(() => resolve(late), ms)));
  promise.catch(() => {});
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
