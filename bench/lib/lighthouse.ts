import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './servers';

export const CHROME_FLAGS =
  '--headless=new --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync';

export interface LighthouseResult {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  fcpMs: number;
  cls: number;
  tbtMs: number;
  speedIndexMs: number;
}

interface LhAudit {
  numericValue?: number;
}
interface LhReport {
  categories: Record<string, { score: number | null }>;
  audits: Record<string, LhAudit>;
  runtimeError?: { message: string };
}

/**
 * Lighthouse's default run: mobile form factor, simulated slow 4G and 4x CPU slowdown. Run as a
 * child process so Chrome and Lighthouse stay out of the bench's own memory.
 */
export function runLighthouse(url: string): LighthouseResult {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'relief-lh-'));
  const out = path.join(dir, 'report.json');
  try {
    const res = spawnSync(
      process.execPath,
      [
        path.join(ROOT, 'node_modules/lighthouse/cli/index.js'),
        url,
        '--output=json',
        `--output-path=${out}`,
        `--chrome-flags=${CHROME_FLAGS}`,
        '--only-categories=performance,accessibility,best-practices,seo',
        '--quiet',
      ],
      {
        env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? '/usr/bin/chromium' },
        encoding: 'utf8',
        timeout: 180_000,
      },
    );
    if (res.status !== 0) throw new Error(`lighthouse failed: ${res.stderr || res.error}`);
    const report = JSON.parse(readFileSync(out, 'utf8')) as LhReport;
    if (report.runtimeError) throw new Error(`lighthouse: ${report.runtimeError.message}`);
    const score = (k: string) => Math.round((report.categories[k]?.score ?? 0) * 100);
    const num = (k: string) => report.audits[k]?.numericValue ?? NaN;
    return {
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      seo: score('seo'),
      lcpMs: Math.round(num('largest-contentful-paint')),
      fcpMs: Math.round(num('first-contentful-paint')),
      cls: Math.round(num('cumulative-layout-shift') * 1000) / 1000,
      tbtMs: Math.round(num('total-blocking-time')),
      speedIndexMs: Math.round(num('speed-index')),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
