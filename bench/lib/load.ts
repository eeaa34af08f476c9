import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

// autocannon ships no types; this is the part of its API the bench uses.
interface AutocannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (req: AutocannonRequest) => AutocannonRequest;
}
interface AutocannonOptions {
  url: string;
  connections: number;
  duration?: number;
  amount?: number;
  headers?: Record<string, string>;
  requests?: AutocannonRequest[];
  method?: string;
  body?: string;
}
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number; max: number };
  throughput: { average: number };
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
  statusCodeStats: Record<string, { count: number }>;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (
  opts: AutocannonOptions,
) => Promise<AutocannonResult>;

export const CONNECTIONS = 50;
// Overridable for quick trial runs; the published figures use the defaults.
export const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
export const WARMUP_S = Number(process.env.BENCH_WARMUP ?? 3);

export interface LoadResult {
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  /** 2xx responses received: for POST, the acknowledged pledges. */
  ok: number;
  total: number;
  durationS: number;
  kbPerReq: number;
  /**
   * Server CPU time (user + system) per request during the run, µs: unlike req/s, hardly moved by
   * other jobs on a shared machine, so baseline / app is a steadier ratio.
   */
  cpuUsPerReq?: number;
}

/** CPU time of a process so far, ms (/proc/<pid>/stat utime + stime, in clock ticks of 10 ms). */
export function cpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function withCpu(pid: number | undefined, run: () => Promise<LoadResult>) {
  const before = cpuMs(pid);
  const r = await run();
  const after = cpuMs(pid);
  if (before !== undefined && after !== undefined && r.total > 0)
    r.cpuUsPerReq = Math.round(((after - before) * 1000) / r.total);
  return r;
}

function summarise(r: AutocannonResult): LoadResult {
  const total = r['2xx'] + r.non2xx;
  return {
    reqPerSec: Math.round(total / r.duration),
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    ok: r['2xx'],
    total,
    durationS: r.duration,
    kbPerReq: total ? Math.round((r.throughput.average * r.duration) / total / 10.24) / 100 : 0,
  };
}

/** A GET measured for DURATION_S seconds after a WARMUP_S warm-up, at CONNECTIONS connections. */
export async function measureGet(
  baseUrl: string,
  path: string,
  headers: Record<string, string> = {},
  pid?: number,
): Promise<LoadResult> {
  const opts = { url: baseUrl + path, connections: CONNECTIONS, headers };
  await autocannon({ ...opts, duration: WARMUP_S });
  return withCpu(pid, async () => summarise(await autocannon({ ...opts, duration: DURATION_S })));
}

/** Distinct, valid pledges: every request body has its own name, e-mail and amount. */
export function pledgeBody(n: number, tag: string): string {
  return JSON.stringify({
    name: `Bench Donor ${tag}-${n}`,
    email: `donor-${tag}-${n}@bench.example`,
    amount: 1 + (n % 997),
    currency: n % 4 === 0 ? 'JMD' : 'USD',
    isAnonymous: n % 10 === 0,
  });
}

function pledgeRequests(tag: string): AutocannonRequest[] {
  let n = 0;
  return [
    {
      method: 'POST',
      path: '/api/pledges',
      headers: { 'content-type': 'application/json' },
      setupRequest: (req) => ({ ...req, body: pledgeBody(n++, tag) }),
    },
  ];
}

/** Exactly `amount` POST /api/pledges, each a new pledge; every response is waited for. */
export async function postPledges(baseUrl: string, amount: number, tag: string, pid?: number) {
  return withCpu(pid, async () =>
    summarise(
      await autocannon({
        url: baseUrl,
        connections: CONNECTIONS,
        amount,
        requests: pledgeRequests(tag),
      }),
    ),
  );
}

/**
 * POST /api/pledges under load. A duration-based run cuts the requests in flight when it stops,
 * and those may or may not be committed, which would make "stored = seeded + acknowledged"
 * uncheckable. So: a duration-based warm-up (its stragglers settle during `settle`, after which
 * the caller reads the stored count), then a run by count, sized from the warm-up's rate to last
 * about DURATION_S seconds, that waits for every answer.
 */
export async function measurePost(
  baseUrl: string,
  tag: string,
  settle: () => Promise<void> = async () => {},
  pid?: number,
) {
  const warm = summarise(
    await autocannon({
      url: baseUrl,
      connections: CONNECTIONS,
      duration: WARMUP_S,
      requests: pledgeRequests(`${tag}w`),
    }),
  );
  await new Promise((r) => setTimeout(r, 1000));
  await settle();
  const amount = Math.min(200_000, Math.max(2000, Math.round(warm.reqPerSec * DURATION_S)));
  const run = await postPledges(baseUrl, amount, tag, pid);
  return { warm, run };
}
