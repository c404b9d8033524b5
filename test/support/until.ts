/** Polls `check` every few milliseconds until it holds; throws past `timeoutMs`. */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Reads `probe` every `everyMs` until `ok` holds of its value, or `timeoutMs` passed; the last value either way (the test asserts on it). */
export async function probeUntil<T>(probe: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 20_000, everyMs = 50): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (ok(value) || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
