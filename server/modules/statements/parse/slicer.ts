import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Long work on the main thread in slices: `await slicer.pause()` between steps yields to the event
 * loop once the current slice has run for `budgetMs`, so other requests (GET /api/progress) are
 * answered while a 5 MB statement is read and stored. Chosen over a worker thread: the server is
 * one esbuild bundle (scripts/build-server.mjs) and a worker needs a file of its own in the build,
 * while slicing needs nothing (docs/decisions/013-statement-matching.md).
 */
export class Slicer {
  private since = performance.now();
  private cpuSince = process.cpuUsage();
  /** The longest slice so far in ms: wall time, and CPU time (what a loaded machine does not inflate). */
  longest = 0;
  longestCpu = 0;
  constructor(private readonly budgetMs = 8) {}

  async pause(): Promise<void> {
    const ran = performance.now() - this.since;
    if (ran < this.budgetMs) return;
    const cpu = process.cpuUsage(this.cpuSince);
    this.longest = Math.max(this.longest, ran);
    this.longestCpu = Math.max(this.longestCpu, (cpu.user + cpu.system) / 1000);
    await nextTurn();
    this.since = performance.now();
    this.cpuSince = process.cpuUsage();
  }
}
