import { openPostgres, type Database } from '../../../server/db/client';
import { createTestDatabase, testDbKind } from '../../support/test-app';
import { TcpProxy } from '../../support/tcp-proxy';

/**
 * A database that a test can take away from the app: PostgreSQL through a TCP proxy that is cut
 * (connections reset, new ones refused), PGlite closed under the app's feet.
 */
export async function breakableDatabase(): Promise<{
  database: Database;
  fail(): Promise<void>;
  dispose(): Promise<void>;
}> {
  const created = await createTestDatabase(testDbKind());
  if (created.database.kind === 'pglite') {
    let closed = false;
    return {
      database: created.database,
      async fail() {
        closed = true;
        await created.database.close();
      },
      async dispose() {
        if (!closed) await created.database.close();
      },
    };
  }
  const url = new URL(created.url!);
  const proxy = new TcpProxy(url.hostname, Number(url.port || 5432));
  await proxy.start();
  // The app talks to the database only through the proxy; the direct pool is not needed.
  await created.database.close();
  const database = openPostgres(proxy.rewrite(created.url!));
  return {
    database,
    fail: () => proxy.cut(),
    async dispose() {
      await database.close().catch(() => undefined);
      await proxy.close();
      await created.drop();
    },
  };
}
