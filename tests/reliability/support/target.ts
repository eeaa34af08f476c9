import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase, testDbKind, type TestDbKind } from '../../support/test-app';
import {
  preparedDataDir,
  spawnServer,
  type ServerProcess,
  type SpawnOptions,
} from '../../support/server-process';

/**
 * Where a child-process server keeps its data, for this project's database (TEST_DB): a prepared
 * PGlite DATA_DIR, or a fresh PostgreSQL database plus a DATA_DIR for uploads.
 */
export interface Target {
  kind: TestDbKind;
  dataDir: string;
  databaseUrl?: string;
  start(opts?: Partial<SpawnOptions>): Promise<ServerProcess>;
  dispose(): Promise<void>;
}

export async function createTarget(kind: TestDbKind = testDbKind()): Promise<Target> {
  if (kind === 'pglite') {
    const dataDir = preparedDataDir();
    return {
      kind,
      dataDir,
      start: (opts = {}) => spawnServer({ dataDir, ...opts }),
      async dispose() {
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const db = await createTestDatabase('postgres');
  // The servers open their own pools; this one is only needed to drop the database at the end.
  await db.database.close();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'relief-rel-'));
  return {
    kind,
    dataDir,
    databaseUrl: db.url,
    start: (opts = {}) => spawnServer({ dataDir, databaseUrl: db.url, ...opts }),
    async dispose() {
      await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
