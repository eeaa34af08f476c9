import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Where `npm run test:durations` writes how long each file took (committed with the tests). */
export const DURATIONS_FILE = path.join(import.meta.dirname, 'durations.json');
/** A file not in the list yet: about the median of the suite's files. */
const UNKNOWN_SECONDS = 5;

/** `project:path` → seconds, from the last recorded run. */
export function readDurations(): Record<string, number> {
  if (!existsSync(DURATIONS_FILE)) return {};
  return JSON.parse(readFileSync(DURATIONS_FILE, 'utf8')) as Record<string, number>;
}

/**
 * The order of the parallel group's projects: the short unit files first, then the two long
 * deployment checks, so that the end of the run is not one long file with the other workers idle.
 * The unit project goes first, not last: the workers that moved on to it at the end spent ~6 s
 * setting up jsdom and importing React while the other cores idled (timeline of a clean-clone
 * run, 2026-11-26); at the start, that set-up shares the cores with the other projects' work.
 */
const PROJECT_ORDER = ['unit', 'ops', 'api-pglite', 'api-postgres', 'e2e'];

/**
 * Longest file first. Vitest's own order on a clean clone (no results cache, as in CI) is each
 * project's files largest first, projects by name: the 37-second Dockerfile dry run (`ops`) then
 * started when the other workers were nearly done, and the two cores sat half idle at the end.
 * Handing out the longest work first is the classic fix. The projects stay one after the other:
 * interleaving them was measured slower (a worker that changes project imports everything again,
 * +150 CPU-seconds). The timing projects still come after the parallel group
 * (`sequence.groupOrder`).
 */
export class LongestFirstSequencer extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const durations = readDurations();
    const root = this.ctx.config.root;
    const seconds = (f: TestSpecification) =>
      durations[`${f.project.name}:${path.relative(root, f.moduleId)}`] ?? UNKNOWN_SECONDS;
    const projectRank = (f: TestSpecification) => {
      const i = PROJECT_ORDER.indexOf(f.project.name);
      return i === -1 ? PROJECT_ORDER.length : i;
    };
    return Promise.resolve(
      [...files].sort((a, b) => {
        const group = a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder;
        if (group !== 0) return group;
        // The timing group (both projects, two files at a time): longest file first as well.
        if (a.project.config.sequence.groupOrder > 0) return seconds(b) - seconds(a);
        return projectRank(a) - projectRank(b) || seconds(b) - seconds(a);
      }),
    );
  }
}
