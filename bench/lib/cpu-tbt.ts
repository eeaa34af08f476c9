import { readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROME_FLAGS } from './lighthouse';

/**
 * Lighthouse's TBT, re-counted from CPU time. Lighthouse times the page's main-thread tasks by the
 * wall clock on this machine and multiplies them by four (its simulated slow phone); on a machine
 * that other jobs share, a task's wall time includes the time the thread waited for a core, so its
 * TBT moves with the load average (600–2,900 ms for the same build in one afternoon). Here each task
 * counts its thread time (the trace's `tdur`) times four instead: the same rule (the part of each
 * task beyond 50 ms, from the app's script until 3 s after the page is interactive), without the
 * load.
 */
export interface CpuTbt {
  /** Sum over main-thread tasks of max(0, 4 × CPU time − 50 ms). */
  tbtMs: number;
  /** The longest of them (4 × CPU time), and the module evaluation of the first-load script. */
  longestMs: number;
  moduleEvalMs: number;
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
}

export async function cpuTbt(url: string): Promise<CpuTbt> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: CHROME_FLAGS.split(' ').filter((f) => !f.startsWith('--headless')),
  });
  const file = path.join(os.tmpdir(), `relief-trace-${process.pid}.json`);
  try {
    const page = await (
      await browser.newContext({ viewport: { width: 412, height: 823 } })
    ).newPage();
    await browser.startTracing(page, {
      path: file,
      categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute'],
    });
    await page.goto(url);
    await page.waitForFunction(() => document.documentElement.dataset.interactive === 'true');
    await page.waitForTimeout(3000);
    await browser.stopTracing();
    const events = (JSON.parse(readFileSync(file, 'utf8')) as { traceEvents: TraceEvent[] })
      .traceEvents;
    // The renderer's main thread: the one that evaluated the page's first module script.
    const firstEval = events.find((e) => e.name === 'v8.evaluateModule' && e.ph === 'X');
    if (!firstEval) throw new Error('no module script evaluated in the trace');
    const main = `${firstEval.pid}:${firstEval.tid}`;
    const onMain = (e: TraceEvent) => `${e.pid}:${e.tid}` === main && e.ph === 'X';
    // Lighthouse's window starts at the first paint, which its slow network puts before the
    // script arrives; unthrottled here, the script may run first. So: from the task that
    // evaluates the script on, leaving out only the parsing and first layout before it.
    const from =
      events.find(
        (e) =>
          e.name === 'RunTask' &&
          onMain(e) &&
          e.ts <= firstEval.ts &&
          e.ts + (e.dur ?? 0) >= firstEval.ts + (firstEval.dur ?? 0),
      )?.ts ?? firstEval.ts;
    let tbtMs = 0;
    let longestMs = 0;
    for (const e of events) {
      if (e.name !== 'RunTask' || !onMain(e) || e.ts < from) continue;
      const ms = (4 * (e.tdur ?? e.dur ?? 0)) / 1000;
      longestMs = Math.max(longestMs, ms);
      tbtMs += Math.max(0, ms - 50);
    }
    const moduleEvalMs = events
      .filter((e) => e.name === 'v8.evaluateModule' && onMain(e))
      .reduce((max, e) => Math.max(max, (4 * (e.tdur ?? e.dur ?? 0)) / 1000), 0);
    return {
      tbtMs: Math.round(tbtMs),
      longestMs: Math.round(longestMs),
      moduleEvalMs: Math.round(moduleEvalMs),
    };
  } finally {
    await browser.close();
    rmSync(file, { force: true });
  }
}
