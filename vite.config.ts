import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vitest/config';

const apiPort = Number(process.env.API_PORT ?? 5001);

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
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['shared/**/*.test.ts', 'client/**/*.test.{ts,tsx}', 'server/**/*.unit.test.ts'],
          environment: 'jsdom',
        },
      },
      {
        extends: true,
        test: {
          name: 'api-pglite',
          include: [
            'server/**/*.test.ts',
            'tests/security/**/*.test.ts',
            'tests/reliability/**/*.test.ts',
          ],
          // *.postgres.test.ts: PostgreSQL only (two instances, a database outage through a proxy).
          exclude: ['server/**/*.unit.test.ts', 'tests/**/*.postgres.test.ts'],
          env: { TEST_DB: 'pglite' },
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'api-postgres',
          include: [
            'server/**/*.test.ts',
            'tests/security/**/*.test.ts',
            'tests/reliability/**/*.test.ts',
          ],
          exclude: ['server/**/*.unit.test.ts'],
          env: { TEST_DB: 'postgres' },
          environment: 'node',
        },
      },
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
    ],
  },
});
