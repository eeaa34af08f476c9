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
