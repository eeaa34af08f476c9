import { rmSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { TEST_ADMIN_PASSWORD } from '../../support/admin-password';
import { preparedDataDir, spawnServer } from '../../support/server-process';

export interface RunningServer {
  baseUrl: string;
  dataDir: string;
  process: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

/**
 * The production server (dist/server.js, built by the global setup) on a free port with its own
 * DATA_DIR (embedded PGlite, a copy of the migrated template), as `npm start` runs it.
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = env.DATA_DIR ?? preparedDataDir('relief-e2e-');
  const server = await spawnServer({
    dataDir,
    env: {
      ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
      RATE_LIMIT_LOGIN_PER_MINUTE: '0',
      ...env,
    },
  });
  return {
    baseUrl: server.baseUrl,
    dataDir,
    process: server.child,
    output: server.output,
    async stop() {
      await server.kill('SIGTERM');
      if (!env.DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
