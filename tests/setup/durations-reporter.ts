import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import { DURATIONS_FILE, readDurations } from './sequencer';

/**
 * `npm run test:durations`: runs the suite and records how long each file took (its import, hooks
 * and tests, in seconds) for the longest-first order of tests/setup/sequencer.ts. Files that did
 * not run keep their old entry; files that no longer exist are dropped.
 */
export default class DurationsReporter implements Reporter {
  onTestRunEnd(modules: readonly TestModule[]) {
    const durations: Record<string, number> = {};
    for (const [key, seconds] of Object.entries(readDurations()))
      if (existsSync(path.join(process.cwd(), key.slice(key.indexOf(':') + 1))))
        durations[key] = seconds;
    for (const m of modules) {
      const d = m.diagnostic();
      const ms = d.duration + d.collectDuration + d.setupDuration + d.environmentSetupDuration;
      durations[`${m.project.name}:${path.relative(process.cwd(), m.moduleId)}`] =
        Math.round(ms / 100) / 10;
    }
    const sorted = Object.fromEntries(
      Object.entries(durations).sort(([a], [b]) => (a < b ? -1 : 1)),
    );
    writeFileSync(DURATIONS_FILE, `${JSON.stringify(sorted, null, 2)}\n`);
  }
}
