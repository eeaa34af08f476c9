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

/** SOAK=1 (npm run test:soak): the long versions of the reliability runs. */
export const SOAK = Boolean(process.env.SOAK);
