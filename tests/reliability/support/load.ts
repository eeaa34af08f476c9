/** Runs `task` with at most `concurrency` in flight; returns the results in order. */
export async function pool<T>(
  count: number,
  concurrency: number,
  task: (i: number) => Promise<T>,
): Promise<T[]> {
  const results = new Array<T>(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await task(i);
      }
    }),
  );
  return results;
}

/**
 * SOAK=1 (npm run test:soak, which CI runs after npm test): the full sizes of the soak-sized
 * checks (R3's kills, the fuzzer's requests, the backup round trip's pledges). `npm test` runs the
 * same checks at a smaller size, so that it stays within five minutes on a 2-core machine.
 */
export const SOAK = Boolean(process.env.SOAK);

/**
 * The time limit of a test whose size follows SOAK: the full size does ten times the work, and
 * next to the other soak files on a slow 2-core machine 5,000 pledges took more than the default
 * 30 s (R1 and R8, 2026-11-27).
 */
export const SIZED_TEST_TIMEOUT_MS = SOAK ? 180_000 : 30_000;
