import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script shared with `npm run docker:dry-run`
import { dockerDryRun, parseDockerfile } from '../../scripts/docker-dry-run.mjs';

interface Step {
  op: string;
  args: string;
}
interface Stage {
  name: string;
  from: string;
  steps: Step[];
}

const stages = parseDockerfile(readFileSync('Dockerfile', 'utf8')) as Stage[];

describe('Dockerfile', () => {
  it('builds in one stage and runs as a non-root user with production dependencies only', () => {
    expect(stages.map((s) => s.name)).toEqual(['build', 'runtime']);
    const runtime = stages[1].steps.map((s) => `${s.op} ${s.args}`);
    // Only the build's external packages, from the manifest it wrote, pinned by the lockfile.
    expect(runtime).toContain('COPY --from=build /app/dist/package.runtime.json ./package.json');
    expect(runtime).toContain('COPY package-lock.json ./');
    expect(runtime.some((s) => /^RUN .*npm install --omit=dev/.test(s))).toBe(true);
    expect(runtime.some((s) => /^COPY .*\bpackage\.json\b/.test(s) && !s.includes('--from'))).toBe(
      false,
    );
    expect(runtime.some((s) => /^USER node$/.test(s))).toBe(true);
    expect(runtime.some((s) => s.startsWith('HEALTHCHECK') && s.includes('/api/health'))).toBe(
      true,
    );
    expect(runtime.some((s) => s.startsWith('ENV') && s.includes('NODE_ENV=production'))).toBe(
      true,
    );
    // Nothing from the build stage but its output: no dev dependencies in the image.
    const fromBuild = runtime.filter((s) => s.includes('--from=build'));
    expect(fromBuild).toEqual([
      'COPY --from=build /app/dist/package.runtime.json ./package.json',
      'COPY --from=build /app/dist ./dist',
    ]);
    // Stack traces name the TypeScript sources.
    expect(runtime.at(-1)).toBe('CMD ["node", "--enable-source-maps", "dist/server.js"]');
  });

  it("its commands run in order on a clean checkout and the image's CMD passes the HEALTHCHECK", async () => {
    const log: string[] = [];
    const result = (await dockerDryRun({
      reuseFullInstall: true,
      reuseBuild: true,
      log: (l: string) => log.push(l),
    })) as {
      output: string;
    };
    expect(log.join('\n')).toMatch(/\[runtime\] RUN .*npm install --omit=dev[\s\S]*done in/);
    expect(log.join('\n')).toContain('[runtime] healthy; GET / 200');
    expect(log.join('\n')).toContain('[runtime] stopped cleanly on SIGTERM');
    // Production mode and the embedded database came up from the image's files only.
    expect(result.output).not.toMatch(/Cannot find module/);
  }, 240_000);
});
