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
