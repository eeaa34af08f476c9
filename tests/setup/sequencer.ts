import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Where `npm run test:durations` writes how long each file took (committed with the tests). */
export const DURATIONS_FILE = path.join(import.meta.dirname, 'durations.json');
/** A file not in the list yet: about the median of the suite's files. */
const UNKNOWN_SECONDS = 5;

/** `project:path` → seconds, from the last recorded run. */
function readDurations(): Record<string, number> {
  if (!existsSync(DURATIONS_FILE)) return {};
  return JSON.parse(readFileSync(DURATIONS_FILE, 'utf8')) as Record<string, number>;
}

/**
 * Longest file first, across projects. Vitest's own order runs the projects one after the other
 * and, on a clean clone (no results cache, as in CI), each project's files largest first: the
 * 37-second Dockerfile dry run (project `ops`) then started when the other workers were nearly
 * done, and the two cores sat half idle at the end. Handing out the longest work first is the
 * classic fix (the tail is at most one short file). The crash and timing projects still come
 * after the parallel group (`sequence.groupOrder`), in Vitest's order.
 */
export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const durations = readDurations();
    const root = this.ctx.config.root;
    const seconds = (f: TestSpecification) =>
      durations[`${f.project.name}:${path.relative(root, f.moduleId)}`] ?? UNKNOWN_SECONDS;
    const byVitest = await super.sort(files);
    const rank = new Map(byVitest.map((f, i) => [f, i]));
    return [...files].sort((a, b) => {
      const group = a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder;
      if (group !== 0) return group;
      if (a.project.config.sequence.groupOrder > 0) return rank.get(a)! - rank.get(b)!;
      return seconds(b) - seconds(a);
    });
  }
}
