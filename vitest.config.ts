import { defineConfig, mergeConfig } from 'vitest/config';
import { MODULE_CACHE_DIR } from './tests/setup/module-cache.ts';
import { LongestFirstSequencer } from './tests/setup/sequencer.ts';
import viteConfig from './vite.config.ts';

// The test set-up, apart from vite.config.ts so that a production build (the Dockerfile's, which
// has no tests/ folder) never reads it.

/** Tests that run against both databases: every server test and the security and reliability suites. */
const API_TESTS = [
  'server/**/*.test.ts',
  'tests/security/**/*.test.ts',
  'tests/reliability/**/*.test.ts',
];
/**
 * API files about HTTP alone (headers, cross-site checks, address decoding, the OpenAPI document,
 * the configuration, a 413 to a client still sending, the https cookie's attributes): they read
 * or write nothing a database driver could answer differently, so they run on PGlite only. Every
 * file that touches the database still runs on both.
 */
const PGLITE_ONLY = [
  'server/config.test.ts',
  'server/plugins/security.test.ts',
  'server/plugins/bad-address.test.ts',
  'server/modules/docs/routes.test.ts',
  'tests/security/oversized-body.test.ts',
  'tests/security/session-cookie-https.test.ts',
];
/**
 * Timing tests: R7 (graceful shutdown) times a SIGTERM against requests in flight; R4 (database
 * outage), R6 (slow clients) and 9.1 (public lists at 100,000 pledges) assert latencies. They run
 * in the reliability-* projects, after the rest, two files at a time. The other reliability tests assert
 * no timing and run with the rest: R1 load, R2 races, R3 kill -9 and R9 crash during upload (a
 * kill that lands a little later is still a kill at a random moment), R5 disk full, R8 two instances.
 */
const SERIAL_TESTS = [
  'tests/reliability/{pg-outage.postgres,slow-clients,graceful-shutdown,public-list-load}.test.ts',
];
/** Files at a time in the parallel group: much of their time is spent waiting on PostgreSQL, child servers or Chromium. */
const PARALLEL_WORKERS = Number(process.env.TEST_WORKERS ?? 3);
/** Timing files at a time, after the parallel group (no more than the parallel group's). */
const TIMING_WORKERS = Math.min(2, PARALLEL_WORKERS);

export default defineConfig((env) =>
  mergeConfig(viteConfig(env), {
    test: {
      root: '.',
      globalSetup: ['tests/setup/global-setup.ts'],
      testTimeout: 30_000,
      hookTimeout: 120_000,
      // Two groups (docs/decisions/011-test-suite-speed.md): first everything that may share the
      // machine, several files at a time; then the timing tests, two at a time.
      maxWorkers: PARALLEL_WORKERS,
      sequence: { sequencer: LongestFirstSequencer },
      experimental: { fsModuleCache: true, fsModuleCachePath: MODULE_CACHE_DIR },
      projects: [
        {
          extends: true,
          test: {
            name: 'unit',
            include: [
              'shared/**/*.test.ts',
              'client/**/*.test.{ts,tsx}',
              'server/**/*.unit.test.ts',
            ],
            // A browser-like DOM only for the files that render (their first line says
            // `@vitest-environment jsdom`): setting one up cost ~1 CPU-s per file.
            environment: 'node',
            isolate: false,
            setupFiles: ['tests/setup/console-errors.ts'],
          },
        },
        ...(['pglite', 'postgres'] as const).map((db) => ({
          extends: true as const,
          test: {
            name: `api-${db}`,
            // The test harness's own checks (PGlite only): tests/support/*.test.ts.
            include: db === 'pglite' ? [...API_TESTS, 'tests/support/**/*.test.ts'] : API_TESTS,
            exclude: [
              'server/**/*.unit.test.ts',
              ...SERIAL_TESTS,
              // *.postgres.test.ts: PostgreSQL only (two instances, a database outage through a proxy).
              ...(db === 'pglite' ? ['tests/**/*.postgres.test.ts'] : PGLITE_ONLY),
            ],
            env: { TEST_DB: db },
            environment: 'node',
            // Files in a worker share the imported modules (the server, Fastify, Drizzle, PGlite):
            // importing them again for every file cost more than the tests (docs/decisions/011).
            // Each file still starts its own app on its own database.
            isolate: false,
            setupFiles: ['tests/setup/reset-fixtures.ts', 'tests/setup/error-logs.ts'],
          },
        })),
        {
          extends: true,
          test: {
            name: 'e2e',
            include: ['tests/e2e/**/*.test.ts'],
            environment: 'node',
            // Each file starts its own server and browser; the modules (Playwright, axe) are shared.
            isolate: false,
            testTimeout: 60_000,
          },
        },
        {
          extends: true,
          // Deployment checks (the Dockerfile dry run): slow, disk-bound, no database of their own.
          test: { name: 'ops', include: ['tests/ops/**/*.test.ts'], environment: 'node' },
        },
        ...(['pglite', 'postgres'] as const).map((db) => ({
          extends: true as const,
          test: {
            name: `reliability-${db}`,
            include: SERIAL_TESTS,
            exclude: db === 'pglite' ? ['tests/**/*.postgres.test.ts'] : [],
            env: { TEST_DB: db },
            environment: 'node',
            // After the parallel group, two files at a time: their assertions are about timing
            // (timeouts, latency under load, kills in flight), so they must not share the CPUs
            // with the busy parallel group, but two of them (one core each on this 2-core machine)
            // leave every bound its margin: most of their time is spent waiting (timeouts,
            // outages). Both projects are one group (the same groupOrder and maxWorkers).
            maxWorkers: TIMING_WORKERS,
            // One worker for the project's files, as in the API projects: a fresh one per file spent
            // seconds importing the server again between two timing tests.
            isolate: false,
            setupFiles: ['tests/setup/reset-fixtures.ts', 'tests/setup/error-logs.ts'],
            sequence: { groupOrder: 1 },
          },
        })),
      ],
    },
  }),
);
