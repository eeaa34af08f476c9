import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vitest/config';

const apiPort = Number(process.env.API_PORT ?? 5001);

/** Tests that run against both databases: every server test and the security and reliability suites. */
const API_TESTS = [
  'server/**/*.test.ts',
  'tests/security/**/*.test.ts',
  'tests/reliability/**/*.test.ts',
];
/**
 * Crash and timing tests: R3 kill -9, R7 graceful shutdown and R9 crash during upload kill servers
 * at chosen moments; R4 (database outage), R6 (slow clients) and 9.1 (public lists at 100,000
 * pledges) assert latencies. They run in the reliability-* projects, alone and one file at a time. R1 load, R2 races, R5 disk full and R8
 * two instances assert no timing and run with the rest.
 */
const SERIAL_TESTS = [
  'tests/reliability/{kill9,pg-outage.postgres,slow-clients,graceful-shutdown,upload-crash,public-list-load}.test.ts',
];
/** Files at a time in the parallel group: much of their time is spent waiting on PostgreSQL, child servers or Chromium. */
const PARALLEL_WORKERS = Number(process.env.TEST_WORKERS ?? 3);

export default defineConfig({
  root: 'client',
  publicDir: 'public',
  plugins: [react(), tailwindcss()],
  build: {
    outDir: '../dist/client',
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    modulePreload: { polyfill: false },
  },
  server: {
    proxy: { '/api': `http://localhost:${apiPort}` },
  },
  test: {
    root: '.',
    globalSetup: ['tests/setup/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Two groups (docs/decisions/011-test-suite-speed.md): first everything that may share the
    // machine, several files at a time; then the crash and timing tests, alone and one by one.
    maxWorkers: PARALLEL_WORKERS,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['shared/**/*.test.ts', 'client/**/*.test.{ts,tsx}', 'server/**/*.unit.test.ts'],
          environment: 'jsdom',
        },
      },
      ...(['pglite', 'postgres'] as const).map((db) => ({
        extends: true as const,
        test: {
          name: `api-${db}`,
          include: API_TESTS,
          exclude: [
            'server/**/*.unit.test.ts',
            ...SERIAL_TESTS,
            // *.postgres.test.ts: PostgreSQL only (two instances, a database outage through a proxy).
            ...(db === 'pglite' ? ['tests/**/*.postgres.test.ts'] : []),
          ],
          env: { TEST_DB: db },
          environment: 'node',
        },
      })),
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        // Deployment checks (the Dockerfile dry run): slow, disk-bound, no database of their own.
        test: { name: 'ops', include: ['tests/ops/**/*.test.ts'], environment: 'node' },
      },
      ...(['pglite', 'postgres'] as const).map((db, i) => ({
        extends: true as const,
        test: {
          name: `reliability-${db}`,
          include: SERIAL_TESTS,
          exclude: db === 'pglite' ? ['tests/**/*.postgres.test.ts'] : [],
          env: { TEST_DB: db },
          environment: 'node',
          // One file at a time, after the parallel group: their assertions are about timing
          // (timeouts, latency under load, kills in flight) and must not share the CPUs.
          fileParallelism: false,
          maxWorkers: 1,
          sequence: { groupOrder: 1 + i },
        },
      })),
    ],
  },
});
