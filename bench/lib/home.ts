import { chromium } from 'playwright-core';
import { cpuTbt, type CpuTbt } from './cpu-tbt';
import { scriptsBeforeInteractive, type ScriptsBeforeInteractive } from './home-js';
import { CHROME_FLAGS, runLighthouse, type LighthouseResult } from './lighthouse';

/** Lighthouse runs per measure: single runs on a shared machine move by several points. */
export const LIGHTHOUSE_RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);

export interface HomeResult {
  /** Per metric, the median of the runs. */
  lighthouse?: LighthouseResult;
  lighthouseRuns: LighthouseResult[];
  lighthouseError?: string;
  js?: ScriptsBeforeInteractive;
  jsError?: string;
  /** TBT re-counted from CPU time (lib/cpu-tbt.ts), median of LIGHTHOUSE_RUNS runs. */
  cpuTbt?: CpuTbt;
  cpuTbtRuns: CpuTbt[];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function medianOf(runs: LighthouseResult[]): LighthouseResult {
  const keys = Object.keys(runs[0]!) as (keyof LighthouseResult)[];
  return Object.fromEntries(
    keys.map((k) => [k, median(runs.map((r) => r[k]))]),
  ) as unknown as LighthouseResult;
}

/** The home's JavaScript, counted in a fresh Chromium profile (docs/decisions/017-server-rendering.md). */
export async function measureHomeJs(url: string): Promise<ScriptsBeforeInteractive> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: CHROME_FLAGS.split(' ').filter((f) => !f.startsWith('--headless')),
  });
  try {
    const page = await (await browser.newContext()).newPage();
    return await scriptsBeforeInteractive(page, url);
  } finally {
    await browser.close();
  }
}

/**
 * One Lighthouse run, tried once more when Lighthouse itself fails: on this loaded machine it
 * sometimes loses the page's trace ("NO_NAVSTART"), which says nothing about the page.
 */
function runLighthouseWithRetry(url: string, log: (s: string) => void): LighthouseResult {
  try {
    return runLighthouse(url);
  } catch (err) {
    log(`  Lighthouse run failed, once more: ${(err as Error).message.slice(0, 200)}`);
    return runLighthouse(url);
  }
}

/** Lighthouse mobile (LIGHTHOUSE_RUNS runs, medians) and the JavaScript count, for one URL. */
export async function measureHome(url: string, log: (s: string) => void): Promise<HomeResult> {
  const result: HomeResult = { lighthouseRuns: [], cpuTbtRuns: [] };
  if (process.env.BENCH_LIGHTHOUSE !== '0') {
    try {
      for (let i = 0; i < LIGHTHOUSE_RUNS; i++) {
        const r = runLighthouseWithRetry(url, log);
        result.lighthouseRuns.push(r);
        log(
          `  Lighthouse run ${i + 1}/${LIGHTHOUSE_RUNS}: performance ${r.performance}, LCP ${r.lcpMs} ms, FCP ${r.fcpMs} ms, TBT ${r.tbtMs} ms, CLS ${r.cls}`,
        );
      }
      result.lighthouse = medianOf(result.lighthouseRuns);
    } catch (err) {
      result.lighthouseError = (err as Error).message;
      log(`  Lighthouse failed: ${result.lighthouseError}`);
    }
  }
  try {
    for (let i = 0; i < Math.max(1, LIGHTHOUSE_RUNS); i++)
      result.cpuTbtRuns.push(await cpuTbt(url));
    const runs = result.cpuTbtRuns;
    result.cpuTbt = {
      tbtMs: median(runs.map((r) => r.tbtMs)),
      longestMs: median(runs.map((r) => r.longestMs)),
      moduleEvalMs: median(runs.map((r) => r.moduleEvalMs)),
    };
    log(
      `  TBT from CPU time (x4), ${runs.length} runs: ${runs.map((r) => r.tbtMs).join(', ')} ms; longest task ${result.cpuTbt.longestMs} ms, first-load module evaluation ${result.cpuTbt.moduleEvalMs} ms (medians)`,
    );
  } catch (err) {
    log(`  TBT from CPU time failed: ${(err as Error).message}`);
  }
  try {
    result.js = await measureHomeJs(url);
  } catch (err) {
    result.jsError = (err as Error).message;
    log(`  JavaScript count failed: ${result.jsError}`);
  }
  return result;
}
