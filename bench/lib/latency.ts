import { sleep } from './servers';

/** Latencies of one series of requests, in ms (rounded to 0.1). */
export type Latency = { count: number; p50Ms: number; p99Ms: number; maxMs: number };

export function stats(samples: number[]): Latency {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const r = (n: number) => Math.round(n * 10) / 10;
  return {
    count: sorted.length,
    p50Ms: r(at(0.5)),
    p99Ms: r(at(0.99)),
    maxMs: r(sorted.at(-1) ?? 0),
  };
}

/**
 * GET /api/progress one after another (10 ms apart), as the home pages ask, until `done` settles;
 * the latencies.
 */
export async function probeProgress(baseUrl: string, done: Promise<unknown>): Promise<number[]> {
  let finished = false;
  void done.finally(() => (finished = true)).catch(() => undefined);
  const samples: number[] = [];
  while (!finished) {
    const t0 = performance.now();
    const res = await fetch(`${baseUrl}/api/progress`);
    await res.arrayBuffer();
    samples.push(performance.now() - t0);
    await sleep(10);
  }
  return samples;
}
