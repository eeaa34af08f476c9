import http from 'node:http';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { cpuMs } from './load';
import { readMemory, sleep } from './servers';

/**
 * The live-progress scenario: many open home pages (Server-Sent Events clients on
 * GET /api/progress/stream) while pledges arrive at a steady rate. Reports, for every pledge and
 * every client, the time from sending the pledge to the first event that carries it (the "event
 * delay" a visitor sees), and the server's memory with the clients connected.
 */
export interface LiveResult {
  clients: number;
  connected: number;
  refused: number;
  /** Phases: pledges per second, how many, and the event delays over all clients. */
  phases: LivePhase[];
  memory: { beforeMb: number; connectedMb: number; afterPledgesMb: number; peakMb: number };
  /** RSS with the clients connected and after the pledges, minus RSS before they connected. */
  rssIncreaseMb: number;
  /** Clients whose stream ended or failed during the run. */
  dropped: number;
  connectMs: number;
}

export interface LivePhase {
  ratePerSec: number;
  pledges: number;
  /** (pledge, client) pairs seen, and those never seen. */
  samples: number;
  missing: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Events the busiest client received per second of the phase (the server sends at most 2). */
  maxEventsPerSec: number;
  /**
   * The server's CPU time per event sent (its pledges included), ms: the fan-out's cost, which,
   * unlike the delays, hardly depends on what else runs on the machine.
   */
  serverCpuMsPerEvent: number;
  /** p99 of this process's own event-loop delay: the part of the delays spent in the clients. */
  clientLoopDelayP99Ms: number;
}

interface Client {
  /** The pledge count of the last event: a higher one shows the pledges in between. */
  count: number;
  events: number;
  ended: boolean;
  req: http.ClientRequest;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]! : 0;
const round = (n: number) => Math.round(n * 10) / 10;

/**
 * The delay of pledge k at one client: from sending the k-th pledge of the run to the first event
 * whose pledgeCount includes it, i.e. when that page's numbers show it. (In a burst the newest
 * eight pledges of an event may no longer list it, but the numbers do.)
 */
export async function benchLive(opts: {
  baseUrl: string;
  pid: number;
  clients: number;
  /** [pledges per second, seconds] per phase. */
  phases: [number, number][];
  log: (s: string) => void;
}): Promise<LiveResult> {
  const { baseUrl, pid, log } = opts;
  const url = new URL('/api/progress/stream', baseUrl);
  /** sentAt[n]: when the pledge that makes the count base + n was sent. */
  let sentAt: number[] = [];
  let base = Infinity;
  // Every client receives the same bytes per event: read each distinct event once.
  const counts = new Map<string, number>();
  let samples: number[] = [];
  let refused = 0;
  let dropped = 0;

  const countOf = (data: string): number => {
    let count = counts.get(data);
    if (count === undefined) {
      count = (JSON.parse(data) as { progress: { pledgeCount: number } }).progress.pledgeCount;
      if (counts.size > 1000) counts.clear();
      counts.set(data, count);
    }
    return count;
  };

  const clients: Client[] = [];
  const open = () =>
    new Promise<void>((resolve) => {
      const req = http.get(url, { agent: false, headers: { accept: 'text/event-stream' } });
      const client: Client = { count: 0, events: 0, ended: false, req };
      req.on('response', (res) => {
        if (res.statusCode !== 200) {
          refused += 1;
          res.resume();
          resolve();
          return;
        }
        clients.push(client);
        resolve();
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          const at = performance.now();
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const dataAt = block.indexOf('data: ');
            if (dataAt < 0) continue; // retry: or a heartbeat comment
            const count = countOf(block.slice(dataAt + 6));
            client.events += 1;
            for (let n = Math.max(client.count, base) + 1; n <= count; n++) {
              const sent = sentAt[n - base];
              if (sent !== undefined) samples.push(at - sent);
            }
            client.count = Math.max(client.count, count);
          }
        });
        res.on('close', () => {
          if (!client.ended) dropped += 1;
          client.ended = true;
        });
      });
      req.on('error', () => {
        refused += 1;
        resolve();
      });
    });

  await sleep(1000);
  const before = readMemory(pid);
  log(`[live] server RSS before the clients: ${before.rssMb} MB`);
  const connectStart = performance.now();
  // In batches, as page loads arrive, so the accept queue is not the thing measured.
  for (let i = 0; i < opts.clients; i += 100)
    await Promise.all(Array.from({ length: Math.min(100, opts.clients - i) }, open));
  const connectMs = Math.round(performance.now() - connectStart);
  await sleep(2000);
  const connected = readMemory(pid);
  log(
    `[live] ${clients.length} clients connected in ${connectMs} ms (${refused} refused); server RSS ${connected.rssMb} MB`,
  );

  const phases: LivePhase[] = [];
  let seq = 0;
  for (const [rate, seconds] of opts.phases) {
    const progress = (await (await fetch(`${baseUrl}/api/progress`)).json()) as {
      pledgeCount: number;
    };
    base = progress.pledgeCount;
    sentAt = [];
    samples = [];
    const eventsBefore = clients.map((c) => c.events);
    const cpuBefore = cpuMs(pid) ?? 0;
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const count = rate * seconds;
    const started = performance.now();
    const posts: Promise<void>[] = [];
    for (let i = 1; i <= count; i++) {
      // A steady rate: each pledge at its own moment, not in bursts.
      const due = started + ((i - 1) * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      seq += 1;
      sentAt[i] = performance.now();
      posts.push(
        fetch(`${baseUrl}/api/pledges`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            name: `Live bench ${seq}`,
            email: `live-${seq}@bench.example`,
            amount: 11,
            currency: 'USD',
          }),
        }).then(async (r) => {
          if (r.status !== 201) throw new Error(`pledge: ${r.status} ${await r.text()}`);
        }),
      );
    }
    await Promise.all(posts);
    const postedS = (performance.now() - started) / 1000;
    await sleep(1500); // the last coalesced event, and stragglers
    loop.disable();
    const cpu = (cpuMs(pid) ?? 0) - cpuBefore;
    const live = clients.filter((c) => !c.ended);
    const sent = Math.max(...clients.map((c, i) => c.events - eventsBefore[i]!));
    const sorted = samples.slice().sort((a, b) => a - b);
    const phase: LivePhase = {
      ratePerSec: rate,
      pledges: count,
      samples: sorted.length,
      missing: Math.max(0, live.length * count - sorted.length),
      p50Ms: round(percentile(sorted, 50)),
      p90Ms: round(percentile(sorted, 90)),
      p99Ms: round(percentile(sorted, 99)),
      maxMs: round(sorted.at(-1) ?? 0),
      // Over the time pledges were arriving (+1: an event may fall just after the last one).
      maxEventsPerSec: round((sent - 1) / postedS),
      serverCpuMsPerEvent: round(cpu / Math.max(1, sent)),
      clientLoopDelayP99Ms: round(loop.percentile(99) / 1e6),
    };
    phases.push(phase);
    log(
      `[live] ${rate} pledges/s for ${seconds} s: event delay p50 ${phase.p50Ms} ms, p90 ${phase.p90Ms} ms, p99 ${phase.p99Ms} ms, max ${phase.maxMs} ms over ${phase.samples} (pledge, client) pairs, ${phase.missing} missing; at most ${phase.maxEventsPerSec} events/s per client; server CPU ${phase.serverCpuMsPerEvent} ms per event; bench client event-loop delay p99 ${phase.clientLoopDelayP99Ms} ms`,
    );
  }
  const after = readMemory(pid);
  log(`[live] server RSS after the pledges: ${after.rssMb} MB (peak ${after.peakMb} MB)`);
  for (const c of clients) {
    c.ended = true;
    c.req.destroy();
  }
  return {
    clients: opts.clients,
    connected: clients.length,
    refused,
    phases,
    memory: {
      beforeMb: before.rssMb,
      connectedMb: connected.rssMb,
      afterPledgesMb: after.rssMb,
      peakMb: after.peakMb,
    },
    rssIncreaseMb: Math.max(connected.rssMb, after.rssMb) - before.rssMb,
    dropped,
    connectMs,
  };
}
