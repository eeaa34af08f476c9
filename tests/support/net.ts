export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls `check` until it holds; fails after `limitMs` (for changes that arrive asynchronously). */
export async function eventually(check: () => Promise<boolean>, limitMs = 5_000, everyMs = 50) {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > limitMs) throw new Error(`not within ${limitMs} ms`);
    await sleep(everyMs);
  }
  return Date.now() - started;
}

/**
 * Reads `read()` until `ok` says the value is the one awaited, and returns it; fails after
 * `timeoutMs` with the last value read (what was there instead).
 */
export async function until<T>(
  read: () => Promise<T> | T,
  ok: (v: T) => boolean,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out; last value ${JSON.stringify(v)}`);
    await sleep(25);
  }
}
